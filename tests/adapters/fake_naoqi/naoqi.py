# A stand-in for the NAOqi Python SDK's `naoqi` module, for tests/adapters/nao_bridge_test.py:
# ALProxy("ALMotion", host, port) records every call as one JSON line in the file named by
# RETARGET_FAKE_NAOQI_LOG ({"call": "setAngles", "args": [...]}), flushed at once.
import json
import os


class ALProxy(object):
    def __init__(self, module, host, port):
        self._module = module
        self._log = open(os.environ["RETARGET_FAKE_NAOQI_LOG"], "a")
        self._record("__init__", [module, host, port])

    def _record(self, call, args):
        self._log.write(json.dumps({"call": call, "args": args}) + "\n")
        self._log.flush()

    def __getattr__(self, call):
        if call.startswith("_"):
            raise AttributeError(call)
        return lambda *args: self._record(call, list(args))
