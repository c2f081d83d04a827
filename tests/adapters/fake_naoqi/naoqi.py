# -*- coding: utf-8 -*-
"""A stand-in for pynaoqi's `naoqi` module (NAOqi 2.1 to 2.8), for tests/adapters/nao_bridge_test.py.

Python 2.7 and 3. `ALProxy(module, host, port)` reaches the fake robot of fake_robot.py, which logs
every call and misbehaves on request (its docstring lists how). With "version": "2.9" in the control
file this module cannot be imported at all, as on NAOqi 2.9, which has only libqi-python (qi.py).
"""

import fake_robot

if fake_robot.control().get("version") == "2.9":
    raise ImportError("No module named naoqi (fake NAOqi 2.9: only libqi-python's qi)")


def fake_state():
    """The fake robot's state (for tests that import this module directly)."""
    return fake_robot.STATE


class ALProxy(object):
    def __init__(self, module, host, port):
        self._module = module
        fake_robot.reachable(module, "ALProxy::ALProxy", [module, host, port], "naoqi")

    def __getattr__(self, call):
        if call.startswith("_"):
            raise AttributeError(call)
        if not fake_robot.has_method(self._module, call):
            raise AttributeError("'ALProxy' object has no attribute '%s'" % call)

        def method(*args):
            return fake_robot.call(self._module, call, list(args), "naoqi")

        return method
