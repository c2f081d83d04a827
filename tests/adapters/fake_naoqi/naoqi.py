# -*- coding: utf-8 -*-
"""A stand-in for the NAOqi Python SDK's `naoqi` module, for tests/adapters/nao_bridge_test.py.

Python 2.7 and 3. `ALProxy(module, host, port)` records every call as one JSON line, flushed at once,
in the file named by RETARGET_FAKE_NAOQI_LOG:

    {"t": 12.5, "module": "ALMotion", "call": "setAngles", "args": [...]}

(t: time.time() when the call started; a call that raises also has "raised": the message, one that
blocks has "stall": its seconds; a proxy that could not be made is logged with call "__init__" and
"raised".) Like the real SDK it misbehaves when asked to: the JSON file named by
RETARGET_FAKE_NAOQI_CONTROL (optional, read again whenever it changes, so a test can change the
behaviour of a running bridge) may hold

    "unreachable": true               ALProxy raises RuntimeError for every module (NAOqi not up)
    "missing": ["ALAutonomousLife"]   ALProxy raises RuntimeError for these modules
    "version": "2.1"                  NAOqi 2.1's APIs: no ALBackgroundMovement, no autonomous
                                      abilities in ALAutonomousLife, ALBasicAwareness without pause
                                      (default "2.8")
    "fail_every": {"setAngles": 10}   every 10th setAngles call raises RuntimeError
    "fail": ["wakeUp"]                every call of these raises RuntimeError
    "slow": {"setAngles": 0.02}       every call of setAngles takes 0.02 s
    "stall": {"call": "setAngles", "seconds": 3, "token": "a"}
                                      the next setAngles call blocks 3 s (once per token)

The autonomous abilities, breathing, idle posture and awareness are kept as state (shared by every
proxy of the process), so a test sees what a bridge paused and restored.
"""

import json
import os
import threading
import time

_LOCK = threading.Lock()
_CONTROL = {"mtime": None, "data": {}}
_COUNTS = {}
_USED_TOKENS = set()
_STATE = {
    "life": "solitary",
    "abilities": {"AutonomousBlinking": True, "BackgroundMovement": True, "BasicAwareness": True,
                  "ListeningMovement": True, "SpeakingMovement": True},
    "awareness_running": True,
    "awareness_paused": False,
    "background": True,
    "breath": True,
    "idle_posture": True,
}

# Methods whose result comes from the state above; anything else returns None.
_GETTERS_28 = {
    ("ALAutonomousLife", "getState"): lambda args: _STATE["life"],
    ("ALAutonomousLife", "getAutonomousAbilityEnabled"): lambda args: _STATE["abilities"][args[0]],
    ("ALAutonomousLife", "setAutonomousAbilityEnabled"): lambda args: _STATE["abilities"].__setitem__(args[0], bool(args[1])),
    ("ALBasicAwareness", "isAwarenessRunning"): lambda args: _STATE["awareness_running"],
    ("ALBasicAwareness", "startAwareness"): lambda args: _STATE.__setitem__("awareness_running", True),
    ("ALBasicAwareness", "stopAwareness"): lambda args: _STATE.__setitem__("awareness_running", False),
    ("ALBasicAwareness", "isAwarenessPaused"): lambda args: _STATE["awareness_paused"],
    ("ALBasicAwareness", "pauseAwareness"): lambda args: _STATE.__setitem__("awareness_paused", True),
    ("ALBasicAwareness", "resumeAwareness"): lambda args: _STATE.__setitem__("awareness_paused", False),
    ("ALBackgroundMovement", "isEnabled"): lambda args: _STATE["background"],
    ("ALBackgroundMovement", "setEnabled"): lambda args: _STATE.__setitem__("background", bool(args[0])),
    ("ALMotion", "getBreathEnabled"): lambda args: _STATE["breath"],
    ("ALMotion", "setBreathEnabled"): lambda args: _STATE.__setitem__("breath", bool(args[1])),
    ("ALMotion", "getIdlePostureEnabled"): lambda args: _STATE["idle_posture"],
    ("ALMotion", "setIdlePostureEnabled"): lambda args: _STATE.__setitem__("idle_posture", bool(args[1])),
}
# What NAOqi 2.1 does not have.
_ABSENT_21 = set([("ALAutonomousLife", "getAutonomousAbilityEnabled"), ("ALAutonomousLife", "setAutonomousAbilityEnabled"),
                  ("ALBasicAwareness", "isAwarenessPaused"), ("ALBasicAwareness", "pauseAwareness"),
                  ("ALBasicAwareness", "resumeAwareness")])


def fake_state():
    """The fake robot's state (for tests that import this module directly)."""
    return _STATE


def _control():
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


def _record(entry):
    with _LOCK:
        with open(os.environ["RETARGET_FAKE_NAOQI_LOG"], "a") as log:
            log.write(json.dumps(entry) + "\n")
            log.flush()


class ALProxy(object):
    def __init__(self, module, host, port):
        self._module = module
        control = _control()
        entry = {"t": time.time(), "module": module, "call": "__init__", "args": [module, host, port]}
        if control.get("unreachable") or module in control.get("missing", []) or (
                module == "ALBackgroundMovement" and control.get("version") == "2.1"):
            message = "ALProxy::ALProxy Can't find service: %s" % module
            entry["raised"] = message
            _record(entry)
            raise RuntimeError(message)
        _record(entry)

    def __getattr__(self, call):
        if call.startswith("_"):
            raise AttributeError(call)
        key = (self._module, call)
        if _control().get("version") == "2.1" and key in _ABSENT_21:
            raise AttributeError("'ALProxy' object has no attribute '%s'" % call)

        def method(*args):
            return self._call(call, list(args))

        return method

    def _call(self, call, args):
        control = _control()
        key = self._module + "." + call
        with _LOCK:
            _COUNTS[key] = _COUNTS.get(key, 0) + 1
            count = _COUNTS[key]
        entry = {"t": time.time(), "module": self._module, "call": call, "args": args}
        every = control.get("fail_every", {}).get(call)
        if call in control.get("fail", []) or (every and count % every == 0):
            entry["raised"] = "%s::%s call %d failed (fake)" % (self._module, call, count)
        stall = control.get("stall") or {}
        if stall.get("call") == call and stall.get("token") not in _USED_TOKENS and "raised" not in entry:
            _USED_TOKENS.add(stall.get("token"))
            entry["stall"] = float(stall.get("seconds", 0))
        _record(entry)
        time.sleep(entry.get("stall", 0) + float(control.get("slow", {}).get(call, 0)))
        if "raised" in entry:
            raise RuntimeError(entry["raised"])
        getter = _GETTERS_28.get((self._module, call))
        return getter(args) if getter else None
