"""The NAO bridge script (apps/nao_bridge/retarget_nao_bridge.py) against a fake NAOqi module.

    python3 nao_bridge_test.py <bridge script> <fake naoqi dir> <retarget program> <Kinect recording>

The recording is mapped onto NAO with `retarget map --method ga-lvvj`; that joint trajectory is sent as
JSON lines over 127.0.0.1; the angles ALMotion.setAngles receives must equal the CSV's values
exactly (JSON keeps every double). Then `retarget live` replays the recording through its nao sink:
what the bridge applies must be the same rows, in order. Bad lines are refused and counted without stopping the
bridge; loss of input, a disconnect and SIGTERM each send the robot to rest. Every wait is
bounded; the bridge is killed on failure.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

DEADLINE_S = 10.0


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = [[float(v) for v in line.strip().split(",")] for line in f if line.strip()]
    if header[0] != "time" or not rows:
        fail("%s is not a joint trajectory CSV" % path)
    return header[1:], [row[1:] for row in rows]


def calls(log_path):
    with open(log_path) as f:
        return [json.loads(line) for line in f if line.strip()]


def wait_for(log_path, predicate, what):
    deadline = time.time() + DEADLINE_S
    while time.time() < deadline:
        if predicate(calls(log_path)):
            return
        time.sleep(0.01)
    fail("timed out waiting for " + what)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def connect(port):
    deadline = time.time() + DEADLINE_S
    while time.time() < deadline:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=DEADLINE_S)
        except OSError:
            time.sleep(0.02)
    fail("the bridge does not accept connections")


def main():
    script, fake_dir, cli, recording = sys.argv[1:5]
    if not os.path.exists(recording):
        for flag in ("RETARGET_REQUIRE_DATA", "RETARGET_REQUIRE_ALL"):
            if os.environ.get(flag, "0") not in ("", "0"):
                fail("no test data at %s but %s is set" % (recording, flag))
        print("skipped: no test data at %s" % recording)
        return 77
    scratch = tempfile.mkdtemp(prefix="retarget_nao_bridge_")
    csv_path = os.path.join(scratch, "angles.csv")
    mapped = subprocess.run([cli, "map", recording, "--robot", "nao", "--method", "ga-lvvj", "-o", csv_path],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    if mapped.returncode != 0:
        fail("retarget map failed: " + mapped.stdout.decode(errors="replace"))
    names, rows = read_csv(csv_path)
    log_path = os.path.join(scratch, "naoqi.jsonl")
    open(log_path, "w").close()
    port = free_port()
    env = dict(os.environ, PYTHONPATH=fake_dir, RETARGET_FAKE_NAOQI_LOG=log_path)
    # RETARGET_BRIDGE_PYTHON: the interpreter of the bridge (e.g. a Python 2.7 like NAO OS 2.x).
    bridge_python = os.environ.get("RETARGET_BRIDGE_PYTHON", sys.executable)
    bridge = subprocess.Popen([bridge_python, script, "--listen", "127.0.0.1:%d" % port, "--naoqi", "10.0.0.2:9559",
                               "--timeout", "0.3", "--max-speed", "0.5"], env=env, stderr=subprocess.PIPE)
    try:
        wait_for(log_path, lambda c: any(x["call"] == "wakeUp" for x in c), "stiffness on start (wakeUp)")
        if calls(log_path)[0]["args"] != ["ALMotion", "10.0.0.2", 9559]:
            fail("ALProxy not made for ALMotion at the --naoqi address: %s" % calls(log_path)[0])
        client = connect(port)
        bad = [b"not json", b"[1, 2]", b'{"names": ["HeadYaw"], "angles": [0.1, 0.2], "speed": 0.2}',
               b'{"names": ["HeadYaw"], "angles": [NaN], "speed": 0.2}', b'{"names": ["HeadYaw"], "angles": [0.1], "speed": 0}']
        for k, row in enumerate(rows):
            client.sendall((json.dumps({"names": names, "angles": row, "speed": 0.2}) + "\n").encode())
            if k % 50 == 0:
                client.sendall(bad[(k // 50) % len(bad)] + b"\n")
            time.sleep(0.001)
        wait_for(log_path, lambda c: sum(x["call"] == "setAngles" for x in c) >= len(rows), "every command applied")
        applied = [x["args"] for x in calls(log_path) if x["call"] == "setAngles"]
        if len(applied) != len(rows):
            fail("%d setAngles calls for %d commands" % (len(applied), len(rows)))
        for k, (args, row) in enumerate(zip(applied, rows)):
            if args[0] != names or args[1] != row:
                fail("row %d: setAngles got other names or angles than the mapper wrote" % k)
            if args[2] != 0.2:
                fail("row %d: speed %r, expected 0.2" % (k, args[2]))
        print("%d commands of %d joints applied exactly, %d bad lines refused" % (len(rows), len(names),
                                                                               (len(rows) + 49) // 50))
        # Loss of input while connected: rest after the timeout; the next command wakes the robot.
        wait_for(log_path, lambda c: c[-1]["call"] == "rest", "rest after loss of input")
        client.sendall((json.dumps({"names": names, "angles": rows[0], "speed": 0.9}) + "\n").encode())
        wait_for(log_path, lambda c: c[-1]["call"] == "setAngles", "a command after rest")
        last = calls(log_path)
        if last[-2]["call"] != "wakeUp":
            fail("no wakeUp before the first command after rest")
        if last[-1]["args"][2] != 0.5:
            fail("speed 0.9 not capped to --max-speed 0.5: %r" % last[-1]["args"][2])
        # Disconnect: rest at once (well before the timeout).
        client.close()
        wait_for(log_path, lambda c: c[-1]["call"] == "rest", "rest on disconnect")
        # `retarget live` replays the recording through its nao sink: every command it sends is
        # the mapper's row (the same numbers as `retarget map`) without the leg joints, in order;
        # when the replay ends it disconnects and the robot rests.
        before = len(calls(log_path))
        live = subprocess.run([cli, "live", "--source", "replay:" + recording, "--replay-speed", "4", "--robot", "nao",
                               "--method", "ga-lvvj", "--sink", "nao:127.0.0.1:%d" % port, "--nao-rate", "1000",
                               "--nao-speed", "0.25", "--status-interval", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        if live.returncode != 0:
            fail("retarget live failed: " + live.stdout.decode(errors="replace"))
        wait_for(log_path, lambda c: len(c) > before and c[-1]["call"] == "rest", "rest after retarget live ended")
        received = [x["args"] for x in calls(log_path)[before:] if x["call"] == "setAngles"]
        # Without --nao-legs the leg joints are left out (no balance stage in the live loop).
        upper = [i for i, n in enumerate(names) if not any(p in n for p in ("Hip", "Knee", "Ankle"))]
        upper_names = [names[i] for i in upper]
        if len(upper_names) != 14:
            fail("expected 14 head, arm and hand joints, got %s" % upper_names)
        k = 0
        for args in received:
            while k < len(rows) and args[1] != [rows[k][i] for i in upper]:
                k += 1
            if k == len(rows):
                fail("retarget live sent angles that are not the mapper's rows in order")
            if args[0] != upper_names or args[2] != 0.25:
                fail("retarget live sent other names (%s) or speed %r" % (args[0], args[2]))
            k += 1
        if len(received) < 0.95 * len(rows):
            fail("retarget live: %d of %d commands arrived" % (len(received), len(rows)))
        print("retarget live: %d of %d commands applied, each equal to the mapper's row; %s" % (
            len(received), len(rows), live.stdout.decode(errors="replace").strip().splitlines()[-1]))
        # A second client is served; then SIGTERM: rest and a clean exit.
        client = connect(port)
        client.sendall((json.dumps({"names": names, "angles": rows[-1], "speed": 0.1}) + "\n").encode())
        wait_for(log_path, lambda c: c[-1]["call"] == "setAngles", "the second client's command")
        bridge.send_signal(signal.SIGTERM)
        _, stderr = bridge.communicate(timeout=DEADLINE_S)
        client.close()
        if bridge.returncode != 0:
            fail("bridge exit code %d: %s" % (bridge.returncode, stderr.decode(errors="replace")))
        if calls(log_path)[-1]["call"] != "rest":
            fail("no rest when the bridge stopped")
        summary = stderr.decode(errors="replace").strip().splitlines()[-1]
        refused = json.loads(summary.split("refused ", 1)[1])
        if sum(refused.values()) != (len(rows) + 49) // 50:
            fail("refused counts %s, expected %d bad lines" % (refused, (len(rows) + 49) // 50))
        print("bridge: " + summary)
    finally:
        if bridge.poll() is None:
            bridge.kill()
            bridge.wait()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
