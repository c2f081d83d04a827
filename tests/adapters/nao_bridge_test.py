"""The NAO bridge script (apps/nao_bridge/retarget_nao_bridge.py) against a fake NAOqi module.

    python3 nao_bridge_test.py <bridge script> <fake naoqi dir> <retarget program> <Kinect recording>

First the script is checked to stay Python 2.7 and 3: it compiles with every interpreter found
(python3, and python2 when one runs), and an AST walk refuses what Python 2.7 cannot read. On
Debian 12 (no python2) the AST walk is the stated substitute for a 2.7 compile, not a skip;
RETARGET_REQUIRE_PYTHON2=1 makes a missing Python 2 a failure.
Then, over 127.0.0.1, with the fake NAOqi (tests/adapters/fake_naoqi) that logs every call and
misbehaves on request:

- no stiffness before the first command; Autonomous Life's abilities, breathing and idle posture
  off while a client is connected and back on when it leaves;
- the recording is mapped onto NAO with `retarget map --method ga-lvvj` and sent as JSON lines:
  every setAngles call carries one of the CSV's rows exactly, in order, the last one included, and
  every command is either applied or superseded (never queued up); bad lines are refused and
  counted;
- a gap in commands: the pose is held (no call), the head and arm joints relax after
  --relax-after (not before), no rest and no wakeUp; the next command stiffens them again;
- setAngles raising on every 10th call: the bridge goes on, each error reaches the client as a
  status line, later commands are applied;
- a 3 s stall of setAngles while commands stream in at 30 Hz, and 200 commands sent while a call
  blocks: the bridge keeps reading (its stats answer arrives during the stall) and afterwards
  applies the newest command only;
- disconnect while the robot is awake (a gap: no rest, the abilities left off) and reconnect (a
  hello line); `retarget live` through its nao sink (every command it sent applied or
  superseded); a rest on request; SIGTERM;
- NAOqi 2.1's APIs (no autonomous abilities, ALBasicAwareness without pause, no
  ALBackgroundMovement) with short relax and rest timeouts, the abilities back on only after the
  rest that follows a disconnect; all optional modules missing and ALMotion unreachable at first
  (the bridge retries it and serves);
- a client that went silent without closing (what a half-open connection looks like): the next
  client replaces it and is served, also a restarted `retarget live`; `retarget live` against a
  port that accepts but never answers: no command counted as sent, the silent bridge reported;
- the robot going limp behind the bridge's back (a fall, a chest-button rest): reported, woken
  by the next command; a NAO H21 refusing the hand joints; NAOqi 2.9 (no `naoqi` module) through
  the fake `qi`;
- the bridge's stdout and stderr pipes closed (an ssh session without -t ending): rest, abilities
  back on, exit 0;
- every command of the NAO sections of docs/adapters.md, run against the fake (a pseudo-terminal
  for `ssh -t`: Ctrl-C typed, the terminal closed; `nohup` and a pid file for the detached run).

RETARGET_NAO_CASES=case,case runs only those cases (function names below), for debugging. Under
pytest (python3 -m pytest nao_bridge_test.py) only the documented commands run, with poses made in
the test (test_documented_nao_commands: no build needed).

RETARGET_BRIDGE_PYTHON names the interpreter of the bridge (e.g. a Python 2.7 like NAO's). Every
wait is for an event with a generous deadline (DEADLINE_S), and orders are read from the fake's
log, so a loaded machine (ctest -j2) cannot fail a case; times are checked only as lower bounds
(nothing before its timeout), except that the stats answer must come within the fake's 3 s stall
(2 s after it is asked). The bridges are killed on failure.
"""
import ast
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

DEADLINE_S = 10.0
LEG_PARTS = ("Hip", "Knee", "Ankle")
ABILITIES = ["BasicAwareness", "BackgroundMovement", "ListeningMovement", "SpeakingMovement"]
RUNNING = []  # bridges to kill on failure


def fail(message):
    print("FAIL: " + message)
    for process in RUNNING:
        if process.poll() is None:
            process.kill()
            process.wait()
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


# -- Python 2.7 / 3 subset ---------------------------------------------------------------------------

PY3_ONLY_NAMES = {"TimeoutError", "ConnectionError", "BrokenPipeError", "ConnectionResetError", "ConnectionAbortedError",
                  "ConnectionRefusedError", "InterruptedError", "FileNotFoundError", "FileExistsError", "PermissionError",
                  "ProcessLookupError", "BlockingIOError", "ChildProcessError", "IsADirectoryError", "NotADirectoryError",
                  "RecursionError", "ModuleNotFoundError", "StopAsyncIteration", "nonlocal", "ascii", "breakpoint"}
PY3_ONLY_ATTRIBUTES = {("time", "monotonic"), ("time", "perf_counter"), ("os", "replace"), ("socket", "timeout_error"),
                       ("math", "isclose"), ("math", "inf"), ("math", "nan"), ("json", "JSONDecodeError")}


def python2_problems(path):
    """What in `path` Python 2.7 would not read, or would read otherwise (as far as an AST shows)."""
    with open(path) as f:
        source = f.read()
    tree = ast.parse(source, path)
    problems = []
    futures = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            futures.update(alias.name for alias in node.names)

    def say(node, what):
        problems.append("%s:%d: %s" % (os.path.basename(path), getattr(node, "lineno", 0), what))

    forbidden = [(ast.JoinedStr, "f-string"), (ast.Nonlocal, "nonlocal"), (ast.AsyncFunctionDef, "async def"),
                 (ast.Await, "await"), (ast.AsyncFor, "async for"), (ast.AsyncWith, "async with"),
                 (ast.YieldFrom, "yield from"), (ast.AnnAssign, "variable annotation"), (ast.MatMult, "@ operator")]
    if hasattr(ast, "NamedExpr"):
        forbidden.append((ast.NamedExpr, "walrus :="))
    for node in ast.walk(tree):
        for kind, what in forbidden:
            if isinstance(node, kind):
                say(node, what)
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            arguments = node.args
            if arguments.kwonlyargs:
                say(node, "keyword-only arguments")
            if getattr(arguments, "posonlyargs", []):
                say(node, "positional-only arguments")
            every = arguments.args + arguments.kwonlyargs + [a for a in (arguments.vararg, arguments.kwarg) if a]
            if any(a.annotation is not None for a in every) or getattr(node, "returns", None) is not None:
                say(node, "annotations")
        if isinstance(node, ast.Raise) and node.cause is not None:
            say(node, "raise ... from")
        if isinstance(node, ast.Call):
            if sum(isinstance(a, ast.Starred) for a in node.args) > 1 or sum(k.arg is None for k in node.keywords) > 1:
                say(node, "more than one * or ** unpacking in a call")
            name = node.func.id if isinstance(node.func, ast.Name) else None
            if name == "print" and "print_function" not in futures:
                say(node, "print() without from __future__ import print_function")
            if name == "super" and not node.args:
                say(node, "super() without arguments")
            if name == "open" and any(k.arg in ("encoding", "newline", "errors") for k in node.keywords):
                say(node, "open() with encoding/newline/errors")
            if isinstance(node.func, ast.Attribute) and node.func.attr in ("to_bytes", "from_bytes", "hex", "casefold"):
                say(node, "Python 3 method ." + node.func.attr)
        if isinstance(node, (ast.Starred,)) and not isinstance(getattr(node, "ctx", None), ast.Load):
            say(node, "starred assignment")
        if isinstance(node, ast.Name) and node.id in PY3_ONLY_NAMES:
            say(node, "Python 3 only name " + node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (node.value.id, node.attr) in PY3_ONLY_ATTRIBUTES:
            say(node, "Python 3 only %s.%s (use getattr with a fallback)" % (node.value.id, node.attr))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and "division" not in futures:
            say(node, "/ without from __future__ import division")
        if isinstance(node, ast.Dict) and any(k is None for k in node.keys):
            say(node, "** in a dict display")
        if isinstance(node, ast.Constant) and isinstance(node.value, bytes) and any(b > 127 for b in node.value):
            say(node, "non-ASCII bytes literal")
    return problems


def interpreters():
    """Every interpreter here that runs: this one, RETARGET_BRIDGE_PYTHON, python3, python2."""
    found = []
    for candidate in [sys.executable, os.environ.get("RETARGET_BRIDGE_PYTHON"), "python3", "python2.7", "python2"]:
        if not candidate:
            continue
        try:
            out = subprocess.run([candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=DEADLINE_S)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.returncode == 0:
            version = out.stdout.decode().strip()
            if version not in [v for _, v in found]:
                found.append((candidate, version))
    return found


def check_python_versions(paths):
    for path in paths:
        problems = python2_problems(path)
        check(not problems, "not Python 2.7 code:\n  " + "\n  ".join(problems))
    # The walk must be able to fail: a few Python 3 only lines.
    probe = os.path.join(SCRATCH, "py3_only.py")
    with open(probe, "w") as f:
        f.write("def f(a, *, b: int) -> None:\n    nonlocal_value = f'{a}'\n    print(a / b)\n    raise ValueError() from None\n")
    check(len(python2_problems(probe)) >= 5, "the Python 2.7 check misses Python 3 code: %s" % python2_problems(probe))
    compiled = []
    for interpreter, version in interpreters():
        for path in paths:
            out = subprocess.run([interpreter, "-c", "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')", path],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=DEADLINE_S)
            check(out.returncode == 0, "%s does not compile with Python %s: %s" % (path, version, out.stdout.decode(errors="replace")))
        compiled.append(version)
    if not any(v.startswith("2.") for v in compiled):
        # Out of scope by decision, not a skip: Debian 12 (the CI image) ships no Python 2, so
        # RETARGET_REQUIRE_ALL cannot ask for one; the AST walk above (shown able to fail on the
        # probe) is the stated substitute. RETARGET_REQUIRE_PYTHON2=1 makes a missing one a
        # failure, for a machine with NAO's Python 2.7 toolchain.
        check(os.environ.get("RETARGET_REQUIRE_PYTHON2", "0") in ("", "0"),
              "no Python 2 (python2.7, python2 or RETARGET_BRIDGE_PYTHON) but RETARGET_REQUIRE_PYTHON2 is set")
        print("note: no Python 2 here (out of scope on Debian 12, see above); the bridge is checked by the AST walk "
              "for 2.7 and compiled with Python %s" % ", ".join(compiled))
    else:
        print("the bridge and the fake NAOqi compile with Python %s" % ", ".join(compiled))


# -- the fake NAOqi's log and control ------------------------------------------------------------------

READS = ("robotIsWakeUp", "getPostureFamily")  # the bridge reading the robot's state back


def calls(module="ALMotion", since=0.0, call=None, reads=False):
    """The fake's log (calls that only read the robot's state left out unless `reads`)."""
    with open(LOG) as f:
        # Only whole lines: the fake may be writing the last one while this reads (its write is not
        # atomic), and a line without its newline is read again on the next call.
        entries = [json.loads(line) for line in f if line.endswith("\n") and line.strip()]
    return [e for e in entries if (module is None or e["module"] == module) and e["t"] >= since
            and (call is None or e["call"] == call) and (reads or call is not None or e["call"] not in READS)]


def wait_for(predicate, what, timeout=DEADLINE_S):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.01)
    fail("timed out waiting for " + what)


def control(settings):
    temporary = CONTROL + ".new"
    with open(temporary, "w") as f:
        json.dump(settings, f)
    os.replace(temporary, CONTROL)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Bridge(object):
    def __init__(self, *options, **how):
        self.port = free_port()
        env = dict(os.environ, PYTHONPATH=FAKE_DIR, RETARGET_FAKE_NAOQI_LOG=LOG, RETARGET_FAKE_NAOQI_CONTROL=CONTROL,
                   PYTHONDONTWRITEBYTECODE="1")  # no compiled fake in the source tree
        python = os.environ.get("RETARGET_BRIDGE_PYTHON", sys.executable)
        self.started = time.time()
        self.process = subprocess.Popen([python, SCRIPT, "--listen", "127.0.0.1:%d" % self.port, "--naoqi", "10.0.0.2:9559"]
                                        + list(options), env=env, stderr=subprocess.PIPE, stdout=how.get("stdout"))
        RUNNING.append(self.process)

    def stop(self):
        """SIGTERM; returns the summary counts and the refused reasons."""
        self.process.send_signal(signal.SIGTERM)
        try:
            _, stderr = self.process.communicate(timeout=DEADLINE_S)
        except subprocess.TimeoutExpired:
            fail("the bridge did not stop within %.0f s of SIGTERM" % DEADLINE_S)
        text = stderr.decode(errors="replace")
        check(self.process.returncode == 0, "bridge exit code %d: %s" % (self.process.returncode, text))
        summary = text.strip().splitlines()[-1]
        return summary, json.loads(summary.split("refused ", 1)[1])


class Client(object):
    """A client of the bridge that collects its status lines."""

    def __init__(self, port):
        deadline = time.time() + DEADLINE_S
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=DEADLINE_S)
                break
            except OSError:
                if time.time() > deadline:
                    fail("the bridge does not accept connections")
                time.sleep(0.02)
        self.pending = b""
        self.status = []

    def send(self, command):
        self.sock.sendall((json.dumps(command) + "\n").encode())

    def pose(self, names, angles, speed=0.2):
        self.send({"names": names, "angles": angles, "speed": speed})

    def poll(self):
        self.sock.settimeout(0.0)
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                self.pending += chunk
        except (BlockingIOError, socket.timeout):
            pass
        finally:
            self.sock.settimeout(DEADLINE_S)
        *lines, self.pending = self.pending.split(b"\n")
        self.status += [json.loads(line) for line in lines if line.strip()]
        return self.status

    def wait_status(self, predicate, what, timeout=DEADLINE_S):
        wait_for(lambda: any(predicate(s) for s in self.poll()), what, timeout)
        return [s for s in self.status if predicate(s)]

    def stats(self):
        before = len([s for s in self.poll() if s["status"] == "stats"])
        self.send({"command": "stats"})
        wait_for(lambda: len([s for s in self.poll() if s["status"] == "stats"]) > before, "a stats answer")
        return [s for s in self.status if s["status"] == "stats"][-1]

    def close(self):
        self.sock.close()


def connect(bridge):
    """A new client, once the bridge has paused the autonomous movements for it."""
    connected_at = time.time()
    client = Client(bridge.port)
    client.connected_at = connected_at
    wait_for(lambda: calls(call="setIdlePostureEnabled", since=connected_at), "idle posture off on connect")
    return client


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = [[float(v) for v in line.strip().split(",")] for line in f if line.strip()]
    if header[0] != "time" or not rows:
        fail("%s is not a joint trajectory CSV" % path)
    return header[1:], [row[1:] for row in rows]


def subsequence(applied, rows, what):
    """Every applied angle list equals one of `rows`, in order (indices strictly increasing)."""
    k = 0
    for args in applied:
        while k < len(rows) and args != rows[k]:
            k += 1
        check(k < len(rows), what + ": angles that are not the mapper's rows in order")
        k += 1


def is_leg(name):
    return any(part in name for part in LEG_PARTS)


# -- the cases ----------------------------------------------------------------------------------------

def main_bridge(names, rows, cli, recording):
    """One bridge through the main cases (normal NAOqi 2.8 behaviour unless asked otherwise)."""
    control({})
    bridge = Bridge("--relax-after", "1.0", "--rest-after", "30", "--max-speed", "0.5", "--retry-interval", "0.5")
    wait_for(lambda: calls(call="__init__"), "the ALMotion proxy")
    check(calls(call="__init__")[0]["args"] == ["ALMotion", "10.0.0.2", 9559],
          "ALProxy not made for ALMotion at the --naoqi address: %s" % calls(call="__init__")[0])
    time.sleep(0.3)
    check([c["call"] for c in calls(since=bridge.started)] == ["__init__"],
          "ALMotion calls before any client: %s" % [c["call"] for c in calls(since=bridge.started)])

    # Connected: autonomous abilities, breathing and idle posture off; still no stiffness.
    client = connect(bridge)
    paused = [c["args"] for c in calls("ALAutonomousLife", since=bridge.started, call="setAutonomousAbilityEnabled")]
    check(paused == [[a, False] for a in ABILITIES], "abilities not paused on connect: %s" % paused)
    check([c["args"] for c in calls(since=bridge.started) if c["call"].startswith("set")] ==
          [["Body", False], ["Body", False]], "breathing and idle posture not off on connect")
    time.sleep(0.2)
    check(not calls(call="wakeUp") and not calls(call="setStiffnesses"), "stiffness before the first command")
    print("start: no NAOqi call but the proxy before a client, no stiffness before the first command; "
          "on connect %d abilities, breathing and idle posture off" % len(paused))

    # The mapper's rows, with bad lines between them.
    bad = [b"not json", b"[1, 2]", b'{"names": ["HeadYaw"], "angles": [0.1, 0.2], "speed": 0.2}',
           b'{"names": ["HeadYaw"], "angles": [NaN], "speed": 0.2}', b'{"names": ["HeadYaw"], "angles": [0.1], "speed": 0}',
           b'{"command": "dance"}']
    since = time.time()
    for k, row in enumerate(rows):
        client.pose(names, row)
        if k % 50 == 0:
            client.sock.sendall(bad[(k // 50) % len(bad)] + b"\n")
        time.sleep(0.001)
    n_bad = (len(rows) + 49) // 50
    wait_for(lambda: any(c["args"][1] == rows[-1] for c in calls(call="setAngles", since=since)), "the last row applied")
    applied = calls(call="setAngles", since=since)
    for c in applied:
        check(c["args"][0] == names and c["args"][2] == 0.2, "setAngles got other names or speed than sent")
    subsequence([c["args"][1] for c in applied], rows, "setAngles")
    check(calls(call="wakeUp")[0]["t"] <= applied[0]["t"] and len(calls(call="wakeUp")) == 1, "not one wakeUp before the first command")
    stats = client.stats()
    check(stats["received"] == len(rows) and stats["applied"] + stats["superseded"] == len(rows) and stats["failed"] == 0,
          "commands neither applied nor superseded: %s" % stats)
    check(stats["refused"] == n_bad, "refused %d lines, expected %d" % (stats["refused"], n_bad))
    print("%d commands of %d joints: %d applied exactly (rows of the mapper, in order, the last one included), "
          "%d superseded, %d bad lines refused" % (len(rows), len(names), stats["applied"], stats["superseded"], n_bad))

    # A gap: hold, relax the head and arm joints after 1 s, no rest, no wakeUp. Waited for as an
    # event (deadline DEADLINE_S); only its lower bound is timed: never before --relax-after.
    last_sent = time.time()
    client.pose(names, rows[0])
    wait_for(lambda: calls(since=last_sent, call="setStiffnesses"), "the relax after --relax-after 1")
    gap = [c for c in calls(None, since=last_sent) if c["call"] != "setAngles" and c["module"] != "qi"]
    relaxed = [c for c in gap if c["call"] == "setStiffnesses"]
    check(all(c["call"] == "setStiffnesses" for c in gap), "calls other than the relax in a gap: %s" % [c["call"] for c in gap])
    check(len(relaxed) == 1, "%d relax calls in a gap with --relax-after 1" % len(relaxed))
    upper = [n for n in names if not is_leg(n)]
    check(relaxed[0]["args"] == [upper, 0.3], "relaxed %s, expected the head and arm joints at 0.3" % relaxed[0]["args"])
    delay = relaxed[0]["t"] - last_sent
    check(delay >= 1.0, "relaxed %.2f s after the last command, expected not before 1.0 s (held before)" % delay)
    client.wait_status(lambda s: s.get("state") == "relaxed", "a relaxed state line")
    since = time.time()
    client.pose(names, rows[1], 0.9)
    wait_for(lambda: calls(call="setAngles", since=since), "a command after the relax")
    after = calls(since=since)
    check([c["call"] for c in after] == ["setStiffnesses", "setAngles"] and after[0]["args"] == [upper, 1.0],
          "after the relax: %s, expected stiffness 1 on the relaxed joints, then setAngles" % [c["call"] for c in after])
    check(after[1]["args"][2] == 0.5, "speed 0.9 not capped to --max-speed 0.5: %r" % after[1]["args"][2])
    print("gap: pose held for %.2f s, then %d head and arm joints relaxed to stiffness 0.3 (legs kept); "
          "no rest, no wakeUp; the next command stiffened them again" % (delay, len(upper)))

    # setAngles raising on every 10th call: the bridge goes on, the errors reach the client.
    control({"fail_every": {"setAngles": 10}})
    since = time.time()
    errors_before = len([s for s in client.poll() if s["status"] == "error"])
    for k in range(60):
        client.pose(names, rows[k])
        time.sleep(0.01)
    wait_for(lambda: any(c["args"][1] == rows[59] for c in calls(call="setAngles", since=since)), "the 60th command")
    raised = [c for c in calls(call="setAngles", since=since) if "raised" in c]
    check(len(raised) >= 2, "only %d setAngles calls raised of %d" % (len(raised), len(calls(call="setAngles", since=since))))
    wait_for(lambda: len([s for s in client.poll() if s["status"] == "error"]) - errors_before >= len(raised),
             "an error status line for each failed call")
    errors = [s for s in client.status if s["status"] == "error"][errors_before:]
    check(len(errors) == len(raised) and all(s["call"] == "setAngles" for s in errors) and
          [s["message"] for s in errors] == [c["raised"] for c in raised], "error lines %s for calls %s" % (errors, raised))
    control({})
    since = time.time()
    client.pose(names, rows[60])
    wait_for(lambda: calls(call="setAngles", since=since), "a command after the errors")
    check(bridge.process.poll() is None, "the bridge stopped after setAngles errors")
    print("setAngles raising every 10th call: %d errors, each a status line to the client; the bridge goes on" % len(raised))

    # A 3 s stall while commands stream in at 30 Hz: the bridge reads on, then applies the newest only.
    control({"stall": {"call": "setAngles", "seconds": 3.0, "token": "stream"}})
    client.pose(names, rows[0])
    wait_for(lambda: any("stall" in c for c in calls(call="setAngles")), "the stalled call")
    stall_start = [c for c in calls(call="setAngles") if "stall" in c][-1]["t"]
    received = client.stats()["received"]
    # 30 commands in the stall's first second, then stats: answered before the stall's end (the
    # fake's call returns 3 s after it began), which leaves 2 s for a loaded machine.
    k = 1
    while k <= 30:
        client.pose(names, rows[k % len(rows)], k / 1000.0)  # the speed tells the commands apart
        k += 1
        time.sleep(1.0 / 30)
    stats = client.stats()
    answered = time.time()
    check(answered < stall_start + 3.0, "no stats answer during the stall (%.2f s after its start)" % (answered - stall_start))
    check(stats["received"] == received + k - 1, "the bridge did not read during the stall: %d of %d commands" % (
        stats["received"] - received, k - 1))
    client.wait_status(lambda s: s["status"] == "stalled" and s["call"] == "setAngles", "a stalled status line")
    # After the stall, the first call is the newest command (a queue would start at the oldest);
    # by the next stats round trip nothing else was applied.
    wait_for(lambda: calls(call="setAngles", since=stall_start + 0.001), "a setAngles after the stall")
    client.stats()
    after = calls(call="setAngles", since=stall_start + 0.001)
    check(len(after) == 1 and after[0]["args"][1:] == [rows[(k - 1) % len(rows)], (k - 1) / 1000.0],
          "%d setAngles after a 3 s stall (expected 1, the newest command)" % len(after))
    print("3 s stall of setAngles: %d commands read meanwhile (stats answered at %.1f s), then only the newest applied"
          % (k - 1, answered - stall_start))

    # 200 commands sent while a call blocks: only the newest is applied after it returns.
    control({"stall": {"call": "setAngles", "seconds": 1.0, "token": "burst"}})
    client.pose(names, rows[0])
    wait_for(lambda: any(c.get("stall") == 1.0 for c in calls(call="setAngles")), "the blocked call")
    stall_start = [c for c in calls(call="setAngles") if c.get("stall") == 1.0][-1]["t"]
    before = client.stats()
    client.sock.sendall(b"".join((json.dumps({"names": names, "angles": rows[k % len(rows)], "speed": k / 1000.0}) + "\n")
                                 .encode() for k in range(1, 201)))
    stats = client.stats()
    check(stats["received"] == before["received"] + 200, "200 commands not read while a call blocks: %s" % stats)
    wait_for(lambda: calls(call="setAngles", since=stall_start + 0.001), "a setAngles after the blocked call")
    client.stats()
    after = calls(call="setAngles", since=stall_start + 0.001)
    check(len(after) == 1 and after[0]["args"][1:] == [rows[200 % len(rows)], 0.2],
          "%d setAngles after 200 commands queued behind a blocked call (expected 1, the newest)" % len(after))
    stats = client.stats()
    check(stats["superseded"] - before["superseded"] == 199, "%d superseded of 200" % (stats["superseded"] - before["superseded"]))
    control({})
    print("200 commands behind a blocked call: read at once, 199 superseded, the newest applied")

    # Disconnect while the robot is awake: a gap (hold, relax, rest after --rest-after), and the
    # abilities stay off (back on only once the robot rests: naoqi_21_bridge); a new client is served.
    # A fresh command first: the blocked call above lasted as long as --relax-after, so the robot may
    # already have relaxed; the relax looked for is the one after this command's setAngles (it may
    # come before the close lands under load, never before --relax-after after the command).
    since = time.time()
    client.pose(names, rows[1])
    wait_for(lambda: calls(call="setAngles", since=since), "the command before the disconnect")
    since = calls(call="setAngles", since=since)[-1]["t"] + 0.001
    client.close()
    wait_for(lambda: calls(since=since, call="setStiffnesses"), "the relax after the client left")
    check(not calls(call="rest"), "rest on disconnect (a disconnect is a gap: hold, relax, rest after --rest-after)")
    restored = calls("ALAutonomousLife", since=since, call="setAutonomousAbilityEnabled") + [
        c for c in calls(since=since) if c["call"] in ("setBreathEnabled", "setIdlePostureEnabled")]
    check(not restored, "abilities back on while the robot is awake: %s" % [c["args"] for c in restored])
    since = time.time()
    client = Client(bridge.port)
    client.wait_status(lambda s: s["status"] == "hello", "the hello line of the bridge")
    client.pose(names, rows[2])
    wait_for(lambda: calls(call="setAngles", since=since), "the second client's command")
    paused = [c["args"] for c in calls("ALAutonomousLife", since=since, call="setAutonomousAbilityEnabled")]
    check(not paused, "abilities switched again though they stayed off: %s" % paused)
    before_live = client.stats()
    client.close()
    print("disconnect: held, relaxed after --relax-after, no rest, the abilities left off while the robot is awake; "
          "a new client is greeted and served")

    # `retarget live` replays the recording through its nao sink: what the bridge applies are the
    # mapper's rows without the leg joints, in order.
    since = time.time()
    live = subprocess.run([cli, "live", "--source", "replay:" + recording, "--replay-speed", "4", "--robot", "nao",
                           "--method", "ga-lvvj", "--sink", "nao:127.0.0.1:%d" % bridge.port, "--nao-rate", "1000",
                           "--nao-speed", "0.25", "--status-interval", "0"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    check(live.returncode == 0, "retarget live failed: " + live.stdout.decode(errors="replace"))
    upper_index = [i for i, n in enumerate(names) if not is_leg(n)]
    check(len(upper_index) == 14, "expected 14 head, arm and hand joints, got %s" % upper)
    # Accounting instead of a share of the rows: every command the sink sent reached the bridge,
    # and each was applied (one setAngles) or superseded, waited for as events. How many were
    # superseded depends on the machine's load; that none was lost or queued does not.
    live_text = live.stdout.decode(errors="replace")
    sink_sent = re.search(r"nao \(\d+ joints\): sent (\d+)", live_text)
    check(sink_sent is not None, "no nao sink account in: " + live_text)
    sink_sent = int(sink_sent.group(1))
    client = Client(bridge.port)  # the abilities are still off: the robot has not rested
    client.wait_status(lambda s: s["status"] == "hello", "the hello line")

    def live_stats():
        stats = client.stats()
        return {key: stats[key] - before_live[key] for key in ("received", "applied", "superseded", "failed", "skipped")}
    wait_for(lambda: live_stats()["received"] == sink_sent, "the %d commands the nao sink sent" % sink_sent)
    wait_for(lambda: (lambda d: d["applied"] + d["superseded"] + d["failed"] + d["skipped"] == d["received"])(live_stats()),
             "every command of retarget live applied or superseded")
    counts = live_stats()
    received = [c["args"] for c in calls(call="setAngles", since=since)]
    for args in received:
        check(args[0] == upper and args[2] == 0.25, "retarget live sent other names (%s) or speed %r" % (args[0], args[2]))
    subsequence([args[1] for args in received], [[row[i] for i in upper_index] for row in rows], "retarget live")
    check(counts["failed"] == 0 and counts["skipped"] == 0 and len(received) == counts["applied"] > 0,
          "retarget live: %d setAngles calls for %s" % (len(received), counts))
    print("retarget live: %d commands sent, %d applied (each the mapper's row), %d superseded; %s" % (
        sink_sent, counts["applied"], counts["superseded"], live_text.strip().splitlines()[-1]))

    # Rest on request; the next command wakes the robot.
    since = time.time()
    client.send({"command": "rest"})
    wait_for(lambda: calls(call="rest", since=since), "rest on request")
    client.wait_status(lambda s: s.get("state") == "resting", "a resting state line")
    client.pose(names, rows[-1], 0.1)
    wait_for(lambda: calls(call="setAngles", since=since), "a command after the rest")
    sequence = [c["call"] for c in calls(since=since) if c["call"] in ("rest", "wakeUp", "setAngles")]
    check(sequence == ["rest", "wakeUp", "setAngles"], "rest on request then a command: %s" % sequence)

    # SIGTERM: rest, abilities back on, a clean exit.
    since = time.time()
    summary, refused = bridge.stop()
    client.close()
    sequence = [c["call"] for c in calls(since=since) if c["call"] in ("rest", "wakeUp", "setAngles")]
    check(sequence == ["rest"], "SIGTERM: %s, expected one rest" % sequence)
    restored = calls("ALAutonomousLife", since=since, call="setAutonomousAbilityEnabled")
    check(len(restored) == 4, "abilities not restored on stop")
    check(restored[0]["t"] >= calls(call="rest", since=since)[0]["t"], "abilities back on before the rest on stop")
    check(sum(refused.values()) == n_bad, "refused counts %s, expected %d bad lines" % (refused, n_bad))
    print("rest on request, then wakeUp on the next command; SIGTERM: rest, abilities restored; bridge: " + summary)


def naoqi_21_bridge(names, rows):
    """NAOqi 2.1's APIs, short relax and rest timeouts."""
    control({"version": "2.1"})
    bridge = Bridge("--relax-after", "0.3", "--rest-after", "1.0")
    wait_for(lambda: calls(since=bridge.started, call="__init__"), "the ALMotion proxy")
    client = Client(bridge.port)
    wait_for(lambda: calls(since=bridge.started, call="setIdlePostureEnabled"), "idle posture off on connect")
    check([c["call"] for c in calls("ALBasicAwareness", since=bridge.started)] == ["__init__", "isAwarenessRunning", "stopAwareness"],
          "NAOqi 2.1: basic awareness not stopped: %s" % calls("ALBasicAwareness", since=bridge.started))
    check("raised" in calls("ALBackgroundMovement", since=bridge.started)[0], "NAOqi 2.1 has no ALBackgroundMovement")
    since = time.time()
    client.pose(names, rows[0])
    # The rest is waited for as an event; the order of the calls is checked by the log, and only
    # lower bounds by time (neither comes before its timeout).
    wait_for(lambda: calls(since=since, call="rest"), "the rest after --rest-after 1.0")
    sequence = [(c["call"], round(c["t"] - since, 2)) for c in calls(since=since)]
    check([s[0] for s in sequence] == ["wakeUp", "setAngles", "setStiffnesses", "rest"], "NAOqi 2.1, a gap: %s" % sequence)
    check(sequence[2][1] >= 0.3 and sequence[3][1] >= 1.0,
          "relax at %.2f s (--relax-after 0.3), rest at %.2f s (--rest-after 1.0): too early" % (sequence[2][1], sequence[3][1]))
    since = time.time()
    client.pose(names, rows[1])
    wait_for(lambda: calls(since=since, call="setAngles"), "a command after the rest")
    check([c["call"] for c in calls(since=since)][:2] == ["wakeUp", "setAngles"], "no wakeUp after the rest")
    # The client leaves while the robot is awake: relax, rest, and only then awareness back on.
    since = time.time()
    client.close()
    wait_for(lambda: calls("ALBasicAwareness", since=since, call="startAwareness"), "basic awareness started again")
    rests = calls(since=since, call="rest")
    check(rests and rests[0]["t"] <= calls("ALBasicAwareness", since=since, call="startAwareness")[0]["t"],
          "awareness started again before the robot rested (the head would move by itself while awake): %s"
          % [(c["module"], c["call"]) for c in calls(None, since=since)])
    bridge.stop()
    print("NAOqi 2.1 (no autonomous abilities, no ALBackgroundMovement): awareness stopped and started again; "
          "relaxed at %.2f s, rest at %.2f s of a gap, woken by the next command" % (sequence[2][1], sequence[3][1]))


def missing_modules_bridge(names, rows):
    """No optional module, and ALMotion unreachable at first."""
    control({"unreachable": True})
    bridge = Bridge("--retry-interval", "0.3")
    client = Client(bridge.port)
    client.pose(names, rows[0])
    client.wait_status(lambda s: s["status"] == "error" and s["call"] == "ALProxy(ALMotion)", "an error line: ALMotion unreachable")
    check(bridge.process.poll() is None, "the bridge stopped when ALMotion was unreachable")
    control({"missing": ["ALAutonomousLife", "ALBasicAwareness", "ALBackgroundMovement"]})
    since = time.time()
    deadline = time.time() + DEADLINE_S
    while not calls(since=since, call="setAngles") and time.time() < deadline:
        client.pose(names, rows[1])
        time.sleep(0.05)
    check(bool(calls(since=since, call="setAngles")), "no command applied once ALMotion was reachable")
    wait_for(lambda: calls(since=since, call="setIdlePostureEnabled"), "idle posture off once ALMotion was reached")
    check(calls(call="wakeUp", since=bridge.started)[0]["t"] <= calls(since=since, call="setAngles")[0]["t"], "no wakeUp first")
    stats = client.stats()
    check(stats["skipped"] >= 1, "the command sent while ALMotion was unreachable was not skipped: %s" % stats)
    client.close()
    summary, _ = bridge.stop()
    print("ALMotion unreachable at first: error lines, %d commands skipped, then served; no Autonomous Life modules "
          "tolerated; bridge: %s" % (stats["skipped"], summary))


def log_cannot_kill():
    """The bridge's log writes never raise: EPIPE or EIO (nobody reads stderr any more) stops the
    logging and asks the bridge to stop once; another error (a full disk) loses the line only."""
    probe = r"""
import errno, sys
if sys.version_info[0] == 2:
    import imp
    bridge = imp.load_source("bridge", sys.argv[1])
else:
    import importlib.util
    spec = importlib.util.spec_from_file_location("bridge", sys.argv[1])
    bridge = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bridge)
class Broken(object):
    def __init__(self, code):
        self.code, self.writes = code, 0
    def write(self, text):
        self.writes += 1
        raise IOError(self.code, "fake")
    def flush(self):
        pass
for code, gone in ((errno.EPIPE, True), (errno.EIO, True), (errno.ENOSPC, False)):
    told = []
    stream = Broken(code)
    log = bridge.Log(stream, told.append)
    log("one")
    log("two")
    assert len(told) == (1 if gone else 0), (code, told)
    assert stream.writes == (1 if gone else 2), (code, stream.writes)
log = bridge.Log(sys.stdout, lambda why: None)
log(u"caf\u00e9 \u2192 fine")
print("ok")
"""
    python = os.environ.get("RETARGET_BRIDGE_PYTHON", sys.executable)
    out = subprocess.run([python, "-c", probe, os.path.abspath(SCRIPT)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         timeout=DEADLINE_S)
    text = out.stdout.decode(errors="replace")
    check(out.returncode == 0 and text.strip().endswith("ok"), "the bridge's log can raise: " + text)
    print("log writes: EPIPE and EIO stop the logging and ask for a stop once, ENOSPC loses the line; none raises")


def half_open_client(names, rows, cli, recording):
    """A client that went silent without closing (a half-open connection after a Wi-Fi drop looks
    the same to the bridge): the next client replaces it, and its commands are applied; then
    `retarget live` restarted behind another such client."""
    control({})
    bridge = Bridge("--relax-after", "5", "--rest-after", "30")
    stale = Client(bridge.port)
    stale.pose(names, rows[0], 0.11)
    wait_for(lambda: [c for c in calls(call="setAngles", since=bridge.started) if c["args"][2] == 0.11], "the first client's command")
    # The stale client neither reads nor closes. A new client connects and sends.
    fresh = Client(bridge.port)
    since = time.time()
    deadline = time.time() + DEADLINE_S
    while not [c for c in calls(call="setAngles", since=since) if c["args"][2] == 0.12] and time.time() < deadline:
        fresh.pose(names, rows[1], 0.12)
        time.sleep(0.05)
    check(bool([c for c in calls(call="setAngles", since=since) if c["args"][2] == 0.12]),
          "a new client behind a silent one: its commands were not applied (left in the listen backlog)")
    fresh.wait_status(lambda s: s["status"] == "hello", "the hello line to the new client")
    stale.sock.settimeout(DEADLINE_S)
    try:
        rest_of_stale = stale.sock.recv(65536)
        while rest_of_stale and b"replaced" not in rest_of_stale:
            rest_of_stale = stale.sock.recv(65536)
    except OSError:
        rest_of_stale = b""
    check(b'"status": "replaced"' in rest_of_stale, "the replaced client was not told: %r" % rest_of_stale[-200:])
    # `retarget live` restarted while the previous connection hangs: its commands are applied.
    fresh_stale = fresh
    since = time.time()
    live = subprocess.run([cli, "live", "--source", "replay:" + recording, "--replay-speed", "4", "--robot", "nao",
                           "--method", "ga-lvvj", "--sink", "nao:127.0.0.1:%d" % bridge.port, "--nao-rate", "1000",
                           "--nao-speed", "0.25", "--status-interval", "0"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    live_text = live.stdout.decode(errors="replace")
    check(live.returncode == 0, "retarget live failed: " + live_text)
    sink_sent = re.search(r"nao \(\d+ joints\): sent (\d+)", live_text)
    check(sink_sent is not None and int(sink_sent.group(1)) > 0, "retarget live sent nothing: " + live_text)
    wait_for(lambda: len([c for c in calls(call="setAngles", since=since) if c["args"][2] == 0.25]) > 0,
             "retarget live's commands applied behind a silent client")
    applied = len([c for c in calls(call="setAngles", since=since) if c["args"][2] == 0.25])
    stale.close()
    fresh_stale.close()
    bridge.stop()
    print("half-open client: replaced by the next client (told \"replaced\"), whose commands are applied; retarget live "
          "restarted behind one: %s sent, %d applied" % (sink_sent.group(1), applied))


def silent_listener(cli, recording):
    """`retarget live` against a port that accepts TCP connections but never answers (a bridge
    busy with a stale client, or not a bridge): the sink counts no command as sent."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)  # never accepted
    try:
        live = subprocess.run([cli, "live", "--source", "replay:" + recording, "--replay-speed", "1", "--robot", "nao",
                               "--method", "ga-lvvj", "--sink", "nao:127.0.0.1:%d" % listener.getsockname()[1],
                               "--status-interval", "0", "--duration", "3"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    finally:
        listener.close()
    text = live.stdout.decode(errors="replace")
    check(live.returncode == 0, "retarget live failed: " + text)
    account = re.search(r"nao \(\d+ joints\): sent (\d+).*", text)
    check(account is not None and account.group(1) == "0", "commands counted as sent to a listener that never answers: " + text)
    check(re.search(r"unanswered [1-9]\d*, silent bridge [1-9]\d* \(connected, never answered\)", account.group(0)) is not None,
          "the sink does not report a silent bridge: " + account.group(0))
    print("a listener that never answers: " + account.group(0).strip())


def robot_state_bridge(names, rows):
    """The robot goes limp behind the bridge's back (a fall; a rest by the chest button): reported,
    woken again by the next command. A body without some of the commanded joints (NAO H21):
    ALMotion refuses the command, the bridge reports it and goes on."""
    control({})
    bridge = Bridge("--relax-after", "5", "--rest-after", "30")
    client = connect(bridge)
    client.pose(names, rows[0])
    wait_for(lambda: calls(call="setAngles", since=bridge.started), "the first command")
    for what, token, state in (("chest_rest", "c1", "resting"), ("fall", "f1", "fallen")):
        control({what: token})
        before = len(client.poll())
        client.wait_status(lambda s: s.get("status") == "state" and s.get("state") == state and s in client.status[before:],
                           "a %r state line after the robot's %s" % (state, what))
        since = time.time()
        client.pose(names, rows[1], 0.13)
        wait_for(lambda: calls(call="setAngles", since=since), "a command after the " + what)
        sequence = [c["call"] for c in calls(since=since) if c["call"] in ("wakeUp", "setAngles")]
        check(sequence[:2] == ["wakeUp", "setAngles"], "after the robot's %s: %s, expected wakeUp then setAngles" % (what, sequence))
        applied = calls(call="setAngles", since=since)[0]
        check("limp" not in applied, "the command after the %s went to limp joints: %s" % (what, applied.get("limp")))
        client.wait_status(lambda s: s.get("state") == "awake" and state in s.get("why", ""), "awake again after " + state)
    # NAO H21: no wrist or hand motors; ALMotion raises for the whole command.
    control({"body": "H21"})
    before = client.stats()
    since = time.time()
    client.pose(names, rows[2])
    client.wait_status(lambda s: s["status"] == "error" and s["call"] == "setAngles" and "LWristYaw" in s["message"],
                       "an error line naming the joint this body lacks")
    upper = [n for n in names if n not in ("LWristYaw", "RWristYaw", "LHand", "RHand")]
    client.pose(upper, [rows[3][names.index(n)] for n in upper])
    wait_for(lambda: [c for c in calls(call="setAngles", since=since) if "raised" not in c], "a command of this body's joints")
    stats = client.stats()
    check(stats["failed"] == before["failed"] + 1 and bridge.process.poll() is None, "H21: %s" % stats)
    client.close()
    bridge.stop()
    print("fall and chest-button rest: each reported (fallen, resting) and woken again by the next command; "
          "NAO H21: the refused joints reported, the bridge goes on")


def naoqi_29_bridge(names, rows):
    """NAOqi 2.9: no `naoqi` module, only libqi-python: the bridge uses qi.Session."""
    control({"version": "2.9"})
    bridge = Bridge()
    client = connect(bridge)
    since = time.time()
    client.pose(names, rows[0])
    wait_for(lambda: calls(call="setAngles", since=since), "a command through qi")
    check(all(c.get("sdk") == "qi" for c in calls(None, since=bridge.started)), "not every call went through qi")
    connects = calls("qi", since=bridge.started, call="connect")
    check(connects and connects[0]["args"] == ["tcp://10.0.0.2:9559"], "qi.Session not connected to --naoqi: %s" % connects)
    client.close()
    summary, _ = bridge.stop()
    control({})
    print("NAOqi 2.9 (no naoqi module): served through qi.Session at %s; bridge: %s" % (connects[0]["args"][0], summary))


def lost_ssh_session(names, rows):
    """Started as `ssh ROBOT python ...` without -t: when the ssh session ends, the bridge's stdout
    and stderr pipes lose their reader. The bridge must rest the robot and stop (not die on a log
    write, nor go on with the robot awake)."""
    control({})
    bridge = Bridge("--relax-after", "0.3", "--rest-after", "30", stdout=subprocess.PIPE)
    client = connect(bridge)
    since = time.time()
    client.pose(names, rows[0])
    wait_for(lambda: calls(call="setAngles", since=since), "a command")
    since = time.time()
    bridge.process.stdout.close()  # what sshd does when the ssh client ends
    bridge.process.stderr.close()
    wait_for(lambda: calls(since=since, call="rest"), "the rest once the ssh session (the bridge's stdout and stderr) is gone")
    wait_for(lambda: bridge.process.poll() is not None, "the bridge's exit")
    rest_t = calls(since=since, call="rest")[0]["t"]
    restored = calls("ALAutonomousLife", since=since, call="setAutonomousAbilityEnabled")
    check(len(restored) == 4 and restored[0]["t"] >= rest_t, "abilities not restored after the rest: %s" % restored)
    check(bridge.process.returncode == 0, "exit code %d" % bridge.process.returncode)
    client.close()
    print("ssh session gone (stdout and stderr closed): rest, abilities back on, exit 0")


# -- the commands of docs/adapters.md ------------------------------------------------------------------

def doc_commands(path):
    """The indented command lines of the NAO sections of docs/adapters.md."""
    with open(path) as f:
        text = f.read()
    commands, section = [], None
    for line in text.splitlines():
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        elif section in ("NAO joint commands", "NAO bridge", "With a real NAO") and line.startswith("    ") and line.strip():
            commands.append(line.strip())
    return commands


class Detached(object):
    """A bridge started detached (nohup ... &): not this test's child, known by its pid only; killed
    on failure like the others."""

    def __init__(self, pid):
        self.pid = pid

    def poll(self):
        """None while it runs; 0 once it is gone or a zombie its new parent has not reaped yet."""
        try:
            os.kill(self.pid, 0)
            with open("/proc/%d/stat" % self.pid) as f:
                return 0 if f.read().split(") ")[1].startswith("Z") else None
        except (IOError, OSError):
            return 0

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
        except OSError:
            pass

    def wait(self):
        wait_for(lambda: self.poll() is not None, "the detached bridge's end")


def run_doc_commands(names, rows):
    """Every command the NAO sections show, run here: `scp` as a copy into a directory standing for
    the robot's /home/nao, `ssh -t ROBOT cmd` as cmd on a pseudo-terminal (Ctrl-C typed, the
    terminal closed), `ssh ROBOT 'cmd'` as `sh -c 'cmd'`, `python` as the bridge's interpreter,
    --listen 0.0.0.0:9600 as 127.0.0.1 and a free port; NAOqi is the fake."""
    import pty
    docs = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "adapters.md")
    commands = doc_commands(docs)
    home = os.path.join(SCRATCH, "home_nao")
    os.makedirs(home)
    python = os.environ.get("RETARGET_BRIDGE_PYTHON", sys.executable)
    env = dict(os.environ, PYTHONPATH=os.path.abspath(FAKE_DIR), RETARGET_FAKE_NAOQI_LOG=LOG,
               RETARGET_FAKE_NAOQI_CONTROL=CONTROL, PYTHONDONTWRITEBYTECODE="1")
    control({})
    ran = []
    detached = None

    def local(command, port):
        command = command.replace("nao@ROBOT:/home/nao/", home + "/").replace("/home/nao/", home + "/")
        command = command.replace("--listen 0.0.0.0:9600", "--listen 127.0.0.1:%d" % port)
        return re.sub(r"(^|[ '])python ", lambda m: m.group(1) + python + " ", command)

    def drive(port, started):
        client = Client(port)
        since = time.time()
        client.pose(names, rows[0])
        wait_for(lambda: calls(call="setAngles", since=since), "a command to the documented bridge")
        return client

    def rested(since, process_done):
        wait_for(lambda: calls(since=since, call="rest"), "the rest on stop")
        wait_for(process_done, "the bridge's exit")

    for command in commands:
        port = free_port()
        if command.startswith("scp "):
            # Not run (exempted in tests/support/docs_commands_check.cmake: it copies onto a
            # robot); a copy into the stand-in for /home/nao takes its place.
            source, _ = command.split()[1:3]
            shutil.copy(os.path.abspath(SCRIPT) if source.endswith("retarget_nao_bridge.py") else source, home)
            check(os.path.exists(os.path.join(home, "retarget_nao_bridge.py")), "scp: not copied")
        elif command.startswith("python retarget_nao_bridge.py"):
            # docs: python retarget_nao_bridge.py --listen 0.0.0.0:9600 --naoqi 127.0.0.1:9559 --max-speed 0.5
            #       --relax-after 2 --rest-after 30 (here 127.0.0.1 and a free port to listen on; the
            #       fake NAOqi, which records the address; stopped with SIGTERM)
            started = time.time()
            process = subprocess.Popen(local(command, port).split(), cwd=os.path.dirname(os.path.abspath(SCRIPT)), env=env,
                                       stderr=subprocess.PIPE)
            RUNNING.append(process)
            client = drive(port, time.time())
            proxies = calls(call="__init__", since=started)
            check(proxies and proxies[0]["args"] == ["ALMotion", "127.0.0.1", 9559],
                  "the documented bridge made its ALMotion proxy elsewhere than --naoqi 127.0.0.1:9559: %s" % proxies)
            since = time.time()
            process.send_signal(signal.SIGTERM)
            _, stderr = process.communicate(timeout=DEADLINE_S)
            rested(since, lambda: process.poll() is not None)
            check(process.returncode == 0, "the documented bridge's exit code %s after SIGTERM: %s"
                  % (process.returncode, stderr.decode(errors="replace")))
            client.close()
        elif command.startswith("ssh -t nao@ROBOT "):
            # docs: ssh -t nao@ROBOT python /home/nao/retarget_nao_bridge.py --listen 0.0.0.0:9600 --max-speed 0.2
            #       (here the remote part on a pseudo-terminal of its own, as sshd gives it with -t: the
            #       bridge copied into a temporary directory, 127.0.0.1 and a free port; stopped by a
            #       typed Ctrl-C, then again by closing the terminal)
            for ending in ("Ctrl-C", "terminal closed"):
                master, slave = pty.openpty()

                def controlling_terminal():
                    os.setsid()
                    import fcntl
                    import termios
                    fcntl.ioctl(0, termios.TIOCSCTTY, 0)

                process = subprocess.Popen(local(command[len("ssh -t nao@ROBOT "):], port).split(),
                                           stdin=slave, stdout=slave, stderr=slave, env=env, preexec_fn=controlling_terminal)
                RUNNING.append(process)
                os.close(slave)
                output = []

                def drain():
                    while True:
                        ready = __import__("select").select([master], [], [], 0)[0]
                        if not ready:
                            return
                        try:
                            chunk = os.read(master, 65536)
                        except OSError:
                            return
                        if not chunk:
                            return
                        output.append(chunk)

                client = drive(port, time.time())
                drain()
                since = time.time()
                if ending == "Ctrl-C":
                    os.write(master, b"\x03")  # the terminal turns it into SIGINT for the bridge
                    deadline = time.time() + DEADLINE_S
                    while process.poll() is None and time.time() < deadline:
                        drain()
                        time.sleep(0.02)
                    os.close(master)
                else:
                    os.close(master)  # the terminal (or the ssh session holding it) goes away: SIGHUP
                rested(since, lambda: process.poll() is not None)
                check(process.returncode == 0, "%s: exit code %s" % (ending, process.returncode))
                check(b"listening on 127.0.0.1:%d" % port in b"".join(output),
                      "%s: the bridge's log did not reach its terminal: %r" % (ending, b"".join(output)))
                client.close()
                port = free_port()
        elif command.startswith("ssh nao@ROBOT '") and "nohup" in command:
            # docs: ssh nao@ROBOT 'nohup python /home/nao/retarget_nao_bridge.py --listen 0.0.0.0:9600 --max-speed 0.2
            #       > /home/nao/retarget_nao_bridge.log 2>&1 < /dev/null & echo $! > /home/nao/retarget_nao_bridge.pid'
            #       (here the quoted remote part run by sh -c, as sshd runs it: /home/nao a temporary
            #       directory, python the bridge's interpreter, 127.0.0.1 and a free port)
            out = subprocess.run(["sh", "-c", local(command[len("ssh nao@ROBOT '"):-1], port)], env=env, timeout=DEADLINE_S)
            check(out.returncode == 0, "the detached start failed")
            with open(os.path.join(home, "retarget_nao_bridge.pid")) as f:
                pid = int(f.read().strip())
            RUNNING.append(Detached(pid))
            # The pid file names the bridge itself (not a shell around it; the background child may
            # not have executed nohup and python yet), and its log file got the start line.

            def cmdline():
                try:
                    with open("/proc/%d/cmdline" % pid, "rb") as f:
                        return f.read().split(b"\0")
                except (IOError, OSError):
                    return []
            wait_for(lambda: any(part.endswith(b"retarget_nao_bridge.py") for part in cmdline()),
                     "the pid file's process %d to be the bridge" % pid)
            log_path = os.path.join(home, "retarget_nao_bridge.log")
            wait_for(lambda: "listening on 127.0.0.1:%d" % port in open(log_path).read(), "the start line in the log file")
            client = drive(port, time.time())
            hangup = time.time()
            os.kill(pid, signal.SIGHUP)  # the ssh session ends: nohup keeps the bridge
            time.sleep(0.2)
            client.stats()
            check(not calls(since=hangup, call="rest"), "a detached bridge stopped on SIGHUP")
            detached = (pid, client)
        elif command.startswith("ssh nao@ROBOT '") and "kill" in command:
            # docs: ssh nao@ROBOT 'kill $(cat /home/nao/retarget_nao_bridge.pid)' (here by sh -c, /home/nao
            #       a temporary directory)
            check(detached is not None, "docs/adapters.md shows the stop before the detached start")
            pid, client = detached
            since = time.time()
            out = subprocess.run(["sh", "-c", local(command[len("ssh nao@ROBOT '"):-1], port)], env=env, timeout=DEADLINE_S)
            check(out.returncode == 0, "the stop command failed")

            rested(since, lambda: Detached(pid).poll() is not None)
            with open(os.path.join(home, "retarget_nao_bridge.log")) as f:
                last = f.read().strip().splitlines()[-1]
            check(re.match(r"retarget_nao_bridge: received \d+ commands: applied [1-9]", last) is not None,
                  "the detached bridge's log does not end with its summary: %s" % last)
            client.close()
        elif command.startswith("ssh nao@ROBOT tail "):
            # docs: ssh nao@ROBOT tail -n 20 /home/nao/retarget_nao_bridge.log (here without ssh,
            #       /home/nao a temporary directory)
            log_path = os.path.join(home, "retarget_nao_bridge.log")
            with open(log_path) as f:
                before = f.read().splitlines()
            out = subprocess.run(["sh", "-c", local(command[len("ssh nao@ROBOT "):], port)], env=env, timeout=DEADLINE_S,
                                 stdout=subprocess.PIPE)
            with open(log_path) as f:
                after = f.read().splitlines()
            text = out.stdout.decode(errors="replace")
            shown = text.splitlines()
            check(out.returncode == 0 and "listening on" in text and "client" in text, "the detached bridge's log: %s" % text)
            # The log's last lines (the bridge may have written more meanwhile).
            check(min(20, len(before)) <= len(shown) <= min(20, len(after)) and
                  any(after[k:k + len(shown)] == shown for k in range(len(after) - len(shown) + 1)),
                  "tail did not show the log's last lines: %r, the log: %r" % (shown, after))
        else:
            fail("docs/adapters.md shows a NAO command this test does not run: " + command)
        print("  ran: " + command)
        ran.append(command)
    check(len(ran) >= 5, "only %d commands found in the NAO sections of docs/adapters.md" % len(ran))
    print("docs/adapters.md: %d NAO commands run (the bridge on a pseudo-terminal stopped by Ctrl-C and by closing it, "
          "detached with nohup and stopped by its pid file): each rested the robot" % len(ran))


def test_documented_nao_commands(tmp_path):
    """pytest entry (`python3 -m pytest tests/adapters/nao_bridge_test.py`): the commands of the NAO
    sections of docs/adapters.md alone (run_doc_commands), with a few poses made here in place of
    the command line's mapping, so that no build is needed. RETARGET_BRIDGE_PYTHON names the
    bridge's interpreter as for the script."""
    global SCRIPT, FAKE_DIR, LOG, CONTROL, SCRATCH
    here = os.path.dirname(os.path.abspath(__file__))
    SCRIPT = os.path.join(here, "..", "..", "apps", "nao_bridge", "retarget_nao_bridge.py")
    FAKE_DIR = os.path.join(here, "fake_naoqi")
    SCRATCH = str(tmp_path)
    LOG = os.path.join(SCRATCH, "naoqi.jsonl")
    CONTROL = os.path.join(SCRATCH, "control.json")
    open(LOG, "w").close()
    names = ["HeadYaw", "HeadPitch", "LShoulderPitch", "LShoulderRoll", "LElbowYaw", "LElbowRoll",
             "RShoulderPitch", "RShoulderRoll", "RElbowYaw", "RElbowRoll"]
    rows = [[0.05 * k + 0.01 * j for j in range(len(names))] for k in range(4)]
    try:
        run_doc_commands(names, rows)
    finally:
        for process in RUNNING:
            if process.poll() is None:
                process.kill()
                process.wait()
        del RUNNING[:]


def main():
    global SCRIPT, FAKE_DIR, LOG, CONTROL, SCRATCH
    SCRIPT, FAKE_DIR, cli, recording = sys.argv[1:5]
    SCRATCH = tempfile.mkdtemp(prefix="retarget_nao_bridge_")
    LOG = os.path.join(SCRATCH, "naoqi.jsonl")
    CONTROL = os.path.join(SCRATCH, "control.json")
    try:
        start = time.time()
        check_python_versions([SCRIPT] + [os.path.join(FAKE_DIR, name) for name in ("naoqi.py", "qi.py", "fake_robot.py")])
        if not os.path.exists(recording):
            for flag in ("RETARGET_REQUIRE_DATA", "RETARGET_REQUIRE_ALL"):
                if os.environ.get(flag, "0") not in ("", "0"):
                    fail("no test data at %s but %s is set" % (recording, flag))
            print("skipped: no test data at %s" % recording)
            return 77
        csv_path = os.path.join(SCRATCH, "angles.csv")
        mapped = subprocess.run([cli, "map", recording, "--robot", "nao", "--method", "ga-lvvj", "-o", csv_path],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        check(mapped.returncode == 0, "retarget map failed: " + mapped.stdout.decode(errors="replace"))
        names, rows = read_csv(csv_path)
        check(len(rows) > 61, "the recording has %d frames, the cases need 62" % len(rows))
        open(LOG, "w").close()
        only = os.environ.get("RETARGET_NAO_CASES", "").split(",")  # a subset, when debugging
        for case, arguments in ((main_bridge, (names, rows, cli, recording)), (naoqi_21_bridge, (names, rows)),
                                (missing_modules_bridge, (names, rows)), (half_open_client, (names, rows, cli, recording)),
                                (silent_listener, (cli, recording)), (robot_state_bridge, (names, rows)),
                                (naoqi_29_bridge, (names, rows)), (lost_ssh_session, (names, rows)),
                                (run_doc_commands, (names, rows)), (log_cannot_kill, ())):
            if only == [""] or case.__name__ in only:
                case(*arguments)
        print("all cases passed in %.1f s" % (time.time() - start))
    finally:
        for process in RUNNING:
            if process.poll() is None:
                process.kill()
                process.wait()
        shutil.rmtree(SCRATCH, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
