# -*- coding: utf-8 -*-
"""A stand-in for libqi-python's `qi` module (NAOqi 2.5 to 2.9), for tests/adapters/nao_bridge_test.py.

Python 2.7 and 3. `qi.Session()`, `session.connect("tcp://host:port")` (RuntimeError when NAOqi
cannot be reached), `session.isConnected()`, `session.close()` and `session.service(name)`, whose
methods reach the fake robot of fake_robot.py (logged with "sdk": "qi"; a method the service does
not have raises AttributeError, as qi's objects do).
"""

import fake_robot


class _Service(object):
    def __init__(self, module):
        self._module = module

    def __getattr__(self, call):
        if call.startswith("_") or not fake_robot.has_method(self._module, call):
            raise AttributeError("'%s' object has no attribute '%s'" % (self._module, call))

        def method(*args):
            return fake_robot.call(self._module, call, list(args), "qi")

        return method


class Session(object):
    def __init__(self):
        self._url = None

    def connect(self, url):
        if not url.startswith("tcp://") and not url.startswith("tcps://"):
            raise RuntimeError("qi.Session.connect: not a URL: %s" % url)
        if fake_robot.control().get("unreachable"):
            fake_robot.record({"t": fake_robot.time.time(), "module": "qi", "call": "connect", "args": [url],
                               "raised": "Connection refused", "sdk": "qi"})
            raise RuntimeError("qi.Session.connect %s: Connection refused" % url)
        fake_robot.record({"t": fake_robot.time.time(), "module": "qi", "call": "connect", "args": [url], "sdk": "qi"})
        self._url = url

    def isConnected(self):
        return self._url is not None

    def close(self):
        self._url = None

    def service(self, name):
        if self._url is None:
            raise RuntimeError("qi.Session.service(%s): the session is not connected" % name)
        fake_robot.reachable(name, "qi.Session.service", [name, self._url], "qi")
        return _Service(name)
