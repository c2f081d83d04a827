# -*- coding: utf-8 -*-
"""The robot behind the fake NAOqi SDKs (naoqi.py: pynaoqi's ALProxy, NAOqi 2.1 to 2.8; qi.py:
libqi-python's qi.Session, NAOqi 2.5 to 2.9), for tests/adapters/nao_bridge_test.py. Python 2.7 and 3.

Every call is recorded as one JSON line, flushed at once, in the file named by RETARGET_FAKE_NAOQI_LOG:

    {"t": 12.5, "module": "ALMotion", "call": "setAngles", "args": [...], "sdk": "naoqi"}

(t: time.time() when the call started; a call that raises also has "raised": the message, one that
blocks has "stall": its seconds; a setAngles on joints without stiffness has "limp": their names; a
proxy or service that could not be made is logged with call "__init__" and "raised"; what happens
to the robot behind the caller's back is logged with module "robot": "fall", "chest_rest".)

Like the real robot it misbehaves when asked to: the JSON file named by RETARGET_FAKE_NAOQI_CONTROL
(optional, read again whenever it changes, so a test can change the behaviour of a running bridge)
may hold

    "unreachable": true               every proxy / session connection raises RuntimeError (NAOqi not up)
    "missing": ["ALAutonomousLife"]   these modules cannot be reached (RuntimeError)
    "version": "2.1"                  NAOqi 2.1's APIs: no ALBackgroundMovement, no autonomous
                                      abilities in ALAutonomousLife, ALBasicAwareness without pause;
                                      "2.9": no `naoqi` module at all (its import raises ImportError),
                                      only `qi` (default "2.8")
    "body": "H21"                     a NAO without wrist and hand motors (default "H25")
    "fail_every": {"setAngles": 10}   every 10th setAngles call raises RuntimeError
    "fail": ["wakeUp"]                every call of these raises RuntimeError
    "slow": {"setAngles": 0.02}       every call of setAngles takes 0.02 s
    "stall": {"call": "setAngles", "seconds": 3, "token": "a"}
                                      the next setAngles call blocks 3 s (once per token)
    "fall": "a"                       the robot falls before the next call (once per token): the
                                      fall manager cuts the stiffness, robotIsWakeUp() is False,
                                      the posture family is "LyingBack"
    "chest_rest": "a"                 someone presses the chest button twice (once per token): the
                                      robot rests (crouches, stiffness off, robotIsWakeUp() False)

The robot's state is kept (shared by every proxy of the process): awake or not, each joint's
stiffness, the posture family, the autonomous abilities, breathing, idle posture and awareness.
ALMotion refuses joint names this body does not have, as ALMotion does (RuntimeError naming them).
"""

import json
import os
import threading
import time

_LOCK = threading.RLock()  # record() is also called with it held
_CONTROL = {"mtime": None, "data": {}}
_COUNTS = {}
_USED_TOKENS = set()

H25_JOINTS = ["HeadYaw", "HeadPitch", "LShoulderPitch", "LShoulderRoll", "LElbowYaw", "LElbowRoll", "LWristYaw", "LHand",
              "LHipYawPitch", "LHipRoll", "LHipPitch", "LKneePitch", "LAnklePitch", "LAnkleRoll", "RHipYawPitch", "RHipRoll",
              "RHipPitch", "RKneePitch", "RAnklePitch", "RAnkleRoll", "RShoulderPitch", "RShoulderRoll", "RElbowYaw",
              "RElbowRoll", "RWristYaw", "RHand"]
H21_ABSENT = ("LWristYaw", "RWristYaw", "LHand", "RHand")

STATE = {
    "life": "solitary",
    "abilities": {"AutonomousBlinking": True, "BackgroundMovement": True, "BasicAwareness": True,
                  "ListeningMovement": True, "SpeakingMovement": True},
    "awareness_running": True,
    "awareness_paused": False,
    "background": True,
    "breath": True,
    "idle_posture": True,
    "awake": False,
    "posture": "Crouching",
    "stiffness": dict((name, 0.0) for name in H25_JOINTS),
}


def control():
    path = os.environ.get("RETARGET_FAKE_NAOQI_CONTROL")
    if not path:
        return {}
    try:
        info = os.stat(path)
    except OSError:
        return {}
    mtime = (info.st_mtime, info.st_ino, info.st_size)  # a file replaced within the clock's resolution too
    if mtime != _CONTROL["mtime"]:
        try:
            with open(path) as f:
                _CONTROL["data"] = json.load(f)
            _CONTROL["mtime"] = mtime
        except ValueError:  # being written: keep the previous one
            pass
    return _CONTROL["data"]


def record(entry):
    with _LOCK:
        with open(os.environ["RETARGET_FAKE_NAOQI_LOG"], "a") as log:
            log.write(json.dumps(entry) + "\n")
            log.flush()


def joints():
    body = control().get("body", "H25")
    return [name for name in H25_JOINTS if not (body == "H21" and name in H21_ABSENT)]


def expand(names):
    """ALMotion's names argument: a joint, a chain or "Body", or a list of them."""
    chains = {"Body": joints(), "Head": ["HeadYaw", "HeadPitch"],
              "LArm": [n for n in joints() if n.startswith("L") and ("Shoulder" in n or "Elbow" in n or "Wrist" in n or n == "LHand")],
              "RArm": [n for n in joints() if n.startswith("R") and ("Shoulder" in n or "Elbow" in n or "Wrist" in n or n == "RHand")]}
    result = []
    for name in (names if isinstance(names, list) else [names]):
        result.extend(chains.get(name, [name]))
    return result


def check_names(call, names):
    unknown = [n for n in expand(names) if n not in joints()]
    if unknown:
        # ALMotion's own wording differs; what matters is that it raises and names the joint.
        raise RuntimeError("ALMotion::%s: unknown joint name(s) %s on this body (%s)" % (
            call, ", ".join(unknown), control().get("body", "H25")))


def set_stiffness(names, value):
    for name in expand(names):
        if name in STATE["stiffness"]:
            STATE["stiffness"][name] = float(value)


def _rest(args):
    set_stiffness("Body", 0.0)
    STATE["awake"] = False
    if not STATE["posture"].startswith("Lying"):
        STATE["posture"] = "Crouching"


def _wake(args):
    set_stiffness("Body", 1.0)
    STATE["awake"] = True
    if not STATE["posture"].startswith("Lying"):
        STATE["posture"] = "Standing"


def _set_angles(args):
    check_names("setAngles", args[0])


def _set_stiffnesses(args):
    check_names("setStiffnesses", args[0])
    set_stiffness(args[0], args[1])


def _body_names(args):
    return expand(args[0])


# Methods whose result comes from (or changes) the state above; anything else returns None.
GETTERS_28 = {
    ("ALAutonomousLife", "getState"): lambda args: STATE["life"],
    ("ALAutonomousLife", "getAutonomousAbilityEnabled"): lambda args: STATE["abilities"][args[0]],
    ("ALAutonomousLife", "setAutonomousAbilityEnabled"): lambda args: STATE["abilities"].__setitem__(args[0], bool(args[1])),
    ("ALBasicAwareness", "isAwarenessRunning"): lambda args: STATE["awareness_running"],
    ("ALBasicAwareness", "startAwareness"): lambda args: STATE.__setitem__("awareness_running", True),
    ("ALBasicAwareness", "stopAwareness"): lambda args: STATE.__setitem__("awareness_running", False),
    ("ALBasicAwareness", "isAwarenessPaused"): lambda args: STATE["awareness_paused"],
    ("ALBasicAwareness", "pauseAwareness"): lambda args: STATE.__setitem__("awareness_paused", True),
    ("ALBasicAwareness", "resumeAwareness"): lambda args: STATE.__setitem__("awareness_paused", False),
    ("ALBackgroundMovement", "isEnabled"): lambda args: STATE["background"],
    ("ALBackgroundMovement", "setEnabled"): lambda args: STATE.__setitem__("background", bool(args[0])),
    ("ALMotion", "getBreathEnabled"): lambda args: STATE["breath"],
    ("ALMotion", "setBreathEnabled"): lambda args: STATE.__setitem__("breath", bool(args[1])),
    ("ALMotion", "getIdlePostureEnabled"): lambda args: STATE["idle_posture"],
    ("ALMotion", "setIdlePostureEnabled"): lambda args: STATE.__setitem__("idle_posture", bool(args[1])),
    ("ALMotion", "wakeUp"): _wake,
    ("ALMotion", "rest"): _rest,
    ("ALMotion", "robotIsWakeUp"): lambda args: STATE["awake"],
    ("ALMotion", "setAngles"): _set_angles,
    ("ALMotion", "setStiffnesses"): _set_stiffnesses,
    ("ALMotion", "getStiffnesses"): lambda args: [STATE["stiffness"][n] for n in expand(args[0])],
    ("ALMotion", "getBodyNames"): _body_names,
    ("ALRobotPosture", "getPostureFamily"): lambda args: STATE["posture"],
}
# What NAOqi 2.1 does not have.
ABSENT_21 = set([("ALAutonomousLife", "getAutonomousAbilityEnabled"), ("ALAutonomousLife", "setAutonomousAbilityEnabled"),
                 ("ALBasicAwareness", "isAwarenessPaused"), ("ALBasicAwareness", "pauseAwareness"),
                 ("ALBasicAwareness", "resumeAwareness")])


def reachable(module, how, args, sdk):
    """Records the making of a proxy or service; raises RuntimeError when it cannot be reached."""
    settings = control()
    entry = {"t": time.time(), "module": module, "call": "__init__", "args": args, "sdk": sdk}
    if settings.get("unreachable") or module in settings.get("missing", []) or (
            module == "ALBackgroundMovement" and settings.get("version") == "2.1"):
        entry["raised"] = "%s Can't find service: %s" % (how, module)
        record(entry)
        raise RuntimeError(entry["raised"])
    record(entry)


def has_method(module, call):
    return not (control().get("version") == "2.1" and (module, call) in ABSENT_21)


def behind_the_back():
    """What happens to the robot without a call: a fall, a rest by the chest button (once per token)."""
    settings = control()
    for what in ("fall", "chest_rest"):
        token = settings.get(what)
        if token is None or (what, token) in _USED_TOKENS:
            continue
        _USED_TOKENS.add((what, token))
        if what == "fall":
            set_stiffness("Body", 0.0)  # the fall manager's "stiffness off" once the robot is down
            STATE["awake"] = False
            STATE["posture"] = "LyingBack"
        else:
            _rest([])
        record({"t": time.time(), "module": "robot", "call": what, "args": [token]})


def call(module, call_name, args, sdk):
    """One NAOqi method call, with the misbehaviour the control file asks for."""
    settings = control()
    with _LOCK:
        behind_the_back()
        key = module + "." + call_name
        _COUNTS[key] = _COUNTS.get(key, 0) + 1
        count = _COUNTS[key]
    entry = {"t": time.time(), "module": module, "call": call_name, "args": args, "sdk": sdk}
    every = settings.get("fail_every", {}).get(call_name)
    if call_name in settings.get("fail", []) or (every and count % every == 0):
        entry["raised"] = "%s::%s call %d failed (fake)" % (module, call_name, count)
    stall = settings.get("stall") or {}
    if stall.get("call") == call_name and stall.get("token") not in _USED_TOKENS and "raised" not in entry:
        _USED_TOKENS.add(stall.get("token"))
        entry["stall"] = float(stall.get("seconds", 0))
    getter = GETTERS_28.get((module, call_name))
    result = None
    if "raised" not in entry and getter is not None:
        try:
            with _LOCK:
                if module == "ALMotion" and call_name == "setAngles":
                    check_names(call_name, args[0])
                    limp = [n for n in expand(args[0]) if STATE["stiffness"].get(n, 0.0) == 0.0]
                    if limp:
                        entry["limp"] = limp  # ALMotion takes the command; these joints do not move
                result = getter(args)
        except (RuntimeError, KeyError, IndexError) as error:
            entry["raised"] = str(error)
    record(entry)
    time.sleep(entry.get("stall", 0) + float(settings.get("slow", {}).get(call_name, 0)))
    if "raised" in entry:
        raise RuntimeError(entry["raised"])
    return result
