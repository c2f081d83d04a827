"""The `retarget live --dry-run` example of docs/adapters.md ("Before the robot moves"), run as the
document writes it, with a KinectV2-OSC sender on 127.0.0.1 in the Kinect's place.

    python3 live_dry_run_docs_test.py <retarget program> <docs/adapters.md> <Kinect recording, Laban CSV>

The command is read from the document (its indented `retarget live ... --dry-run` line), so a change
there changes what runs; only the port changes (a free UDP port for 12345) and `retarget` becomes the
program given. The serial device the command names is left as written: a dry run opens no sink, so it
need not exist and must not be touched. The sender plays the recording as KinectV2-OSC sends a body:
per frame 25 joint messages (x, y, z in Kinect camera space, float32, and the tracking state) and the
two hand messages, one UDP datagram each, the OSC 1.0 encoding written here by hand, at the
recording's own pace (its first 3.5 s, well inside the dry run's 5 s).

Checked: exit code 0; the sink listed as not opened and the device not created; the input survey and
the mapped summary count every frame sent, the survey's rate is the sender's (about 30 Hz); the
table has one row per InMoov coordinate (as `retarget info` counts them); the report ends with
"nothing was sent".

Exit code 77 (skipped) when the recording is missing, unless RETARGET_REQUIRE_DATA or
RETARGET_REQUIRE_ALL is set. Every wait has a deadline; the program is killed on failure.
"""
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time

DEADLINE_S = 20.0
# Kinect v2 JointType order: the Laban CSV's column groups and KinectV2-OSC's joint names.
JOINTS = ["SpineBase", "SpineMid", "Neck", "Head", "ShoulderLeft", "ElbowLeft", "WristLeft", "HandLeft",
          "ShoulderRight", "ElbowRight", "WristRight", "HandRight", "HipLeft", "KneeLeft", "AnkleLeft", "FootLeft",
          "HipRight", "KneeRight", "AnkleRight", "FootRight", "SpineShoulder", "HandTipLeft", "ThumbLeft",
          "HandTipRight", "ThumbRight"]
STATES = {0: "NotTracked", 1: "Inferred", 2: "Tracked"}
SENT_S = 3.5  # seconds of the recording sent


def fail(message, process=None):
    print("FAIL: " + message)
    if process is not None and process.poll() is None:
        process.kill()
        process.wait()
    sys.exit(1)


def doc_dry_run_command(path):
    """The indented `retarget live ... --dry-run` command line of the document."""
    with open(path) as f:
        lines = [line.strip() for line in f if line.startswith("    ")]
    found = [line for line in lines if line.startswith("retarget live ") and "--dry-run" in line]
    if len(found) != 1:
        fail("expected one indented `retarget live ... --dry-run` line in %s, found %d" % (path, len(found)))
    return found[0]


def osc_string(text):
    data = text.encode("ascii") + b"\0"
    return data + b"\0" * (-len(data) % 4)


def osc_message(address, tags, *arguments):
    data = osc_string(address) + osc_string("," + tags)
    for tag, value in zip(tags, arguments):
        data += struct.pack(">f", value) if tag == "f" else osc_string(value)
    return data


def read_laban_csv(path):
    """Per frame, its time (s, from the first) and 25 (x, y, z, state) in Kinect camera space."""
    frames = []
    with open(path) as f:
        for line in f:
            fields = [v for v in line.strip().split(",") if v != ""]
            if not fields:
                continue
            ticks, values = int(fields[0]), fields[1:]  # the timestamp in 100 ns ticks
            if len(values) != 4 * len(JOINTS):
                fail("%s: %d values in a row, expected %d" % (path, len(values), 4 * len(JOINTS)))
            joints = [(float(values[4 * j]), float(values[4 * j + 1]), float(values[4 * j + 2]),
                       STATES[int(values[4 * j + 3])]) for j in range(len(JOINTS))]
            frames.append((ticks, joints))
    return [((ticks - frames[0][0]) * 1e-7, joints) for ticks, joints in frames]


def free_udp_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_for_text(path, text, process):
    deadline = time.time() + DEADLINE_S
    while time.time() < deadline:
        with open(path) as f:
            if text in f.read():
                return
        if process.poll() is not None:
            break
        time.sleep(0.01)
    with open(path) as f:
        fail("no %r from the program: %s" % (text, f.read()), process)


def main():
    cli, doc, recording = sys.argv[1:4]
    if not os.path.exists(recording):
        for flag in ("RETARGET_REQUIRE_DATA", "RETARGET_REQUIRE_ALL"):
            if os.environ.get(flag, "0") not in ("", "0"):
                fail("no test data at %s but %s is set" % (recording, flag))
        print("skipped: no test data at %s" % recording)
        return 77
    # The recording at its own pace, as much of it as fits well inside the dry run's 5 s.
    frames = [frame for frame in read_laban_csv(recording) if frame[0] <= SENT_S]
    command = doc_dry_run_command(doc)
    # docs: retarget live --source kinect-osc:12345 --robot inmoov --method humanoid --sink serial:/dev/ttyACM0
    #       --dry-run (here a free port on 127.0.0.1 for 12345, a sender playing a shared Kinect recording)
    arguments = command.split()
    if "--source" not in arguments or not arguments[arguments.index("--source") + 1].startswith("kinect-osc:"):
        fail("the documented dry run does not read a kinect-osc source: " + command)
    port = free_udp_port()
    arguments[arguments.index("--source") + 1] = "kinect-osc:%d" % port
    arguments[0] = cli
    sinks = [arguments[k + 1] for k, a in enumerate(arguments[:-1]) if a == "--sink"]
    devices = [s.split(":", 1)[1] for s in sinks if s.startswith("serial:")]
    existed = dict((d, os.path.exists(d)) for d in devices)

    scratch = tempfile.mkdtemp(prefix="retarget_dry_run_docs_")
    out_path, err_path = os.path.join(scratch, "out.txt"), os.path.join(scratch, "err.txt")
    with open(out_path, "w") as out, open(err_path, "w") as err:
        process = subprocess.Popen(arguments, stdout=out, stderr=err)
    try:
        wait_for_text(err_path, "reading the source", process)
        sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        body = "/bodies/72057594037929000"
        start = time.time()
        for t, joints in frames:
            time.sleep(max(0.0, start + t - time.time()))
            for name, (x, y, z, state) in zip(JOINTS, joints):
                sender.sendto(osc_message(body + "/joints/" + name, "fffs", x, y, z, state), ("127.0.0.1", port))
            for hand in ("Left", "Right"):
                sender.sendto(osc_message(body + "/hands/" + hand, "ss", "Open", "High"), ("127.0.0.1", port))
        sender.close()
        try:
            process.wait(timeout=DEADLINE_S)
        except subprocess.TimeoutExpired:
            fail("the dry run did not end", process)
        with open(out_path) as f:
            out = f.read()
        with open(err_path) as f:
            err = f.read()
        if process.returncode != 0:
            fail("exit code %d: %s%s" % (process.returncode, out, err))
        n = len(frames)
        expected = ["not opened: " + " ".join(sinks), "input: %d frames in " % n, "mapped: %d frames;" % n]
        for text in expected:
            if text not in out:
                fail("no %r in the dry run's report:\n%s" % (text, out))
        # The Kinect's 30 Hz (the median interval; loose bounds for a loaded machine).
        rate = re.search(r"^input: \d+ frames in [0-9.]+ s, ([0-9.]+) Hz", out, re.MULTILINE)
        if rate is None or not 20.0 <= float(rate.group(1)) <= 40.0:
            fail("the survey's rate is not the sender's 30 Hz:\n" + out)
        if not re.search(r"^dry run: \d+ warning\(s\); nothing was sent$", out, re.MULTILINE):
            fail("the report does not end with 'nothing was sent':\n" + out)
        for device, was_there in existed.items():
            if not was_there and os.path.exists(device):
                fail("the dry run created %s" % device)
        info = subprocess.run([cli, "info", "--robot", "inmoov"], stdout=subprocess.PIPE, timeout=DEADLINE_S)
        coordinates = re.search(r"^coordinates:\s+(\d+)", info.stdout.decode(), re.MULTILINE)
        table = out.split("  coordinate ", 1)[1].splitlines()[1:] if "  coordinate " in out else []
        rows = [line for line in table if line.startswith("  ")]
        if coordinates is None or len(rows) != int(coordinates.group(1)):
            fail("%d table rows, expected one per InMoov coordinate (%s):\n%s"
                 % (len(rows), coordinates.group(1) if coordinates else "?", out))
        print("ran: %s\n  (as %s)" % (command, " ".join(arguments)))
        print("%d frames sent at %s Hz; %s not opened; %d coordinates in the table; %s"
              % (n, rate.group(1), ", ".join(sinks), len(rows), out.strip().splitlines()[-1]))
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for name in (out_path, err_path):
            if os.path.exists(name):
                os.remove(name)
        os.rmdir(scratch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
