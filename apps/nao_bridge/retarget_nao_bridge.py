#!/usr/bin/env python
# -*- coding: utf-8 -*-
"""retarget's NAO bridge: joint commands as JSON lines over TCP -> ALMotion.

Runs on the robot (or beside it) with the robot's own NAOqi Python SDK (Python 2.7 on NAO
OS 2.x; the code also runs under Python 3). `retarget live --sink nao:HOST:PORT` connects to it
and sends one JSON object per line:

    {"names": ["HeadYaw", ...], "angles": [0.1, ...], "speed": 0.2}

names: NAO joint names (ALMotion's), angles: radians, speed: fraction of the joints' maximum
speed, 0 < speed <= 1. Each valid line becomes one ALMotion.setAngles(names, angles, speed)
call (non-blocking on the robot). A line that is not such an object is counted and ignored.

Safety: stiffness on when the bridge starts (ALMotion.wakeUp), ALMotion.rest() when no valid
command arrived for --timeout seconds while a client was sending (loss of input), when the
client disconnects, and when the bridge stops (Ctrl-C, SIGTERM). One client at a time.

    python retarget_nao_bridge.py [--listen 0.0.0.0:9600] [--naoqi 127.0.0.1:9559]
                                  [--timeout 0.5] [--max-speed 0.5]
"""

from __future__ import print_function

import argparse
import errno
import json
import math
import select
import signal
import socket
import sys
import time

MAX_LINE_BYTES = 65536
STRING_TYPES = (str, type(u""))  # unicode on Python 2


def is_finite_number(value):
    """A JSON number (not a boolean) that is neither infinite nor NaN."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and not (math.isinf(value) or math.isnan(value))


class Bridge(object):
    """Validates command lines and drives ALMotion; counts what it refused and why."""

    def __init__(self, motion, max_speed, log=None):
        self.motion = motion
        self.max_speed = max_speed
        self.log = log or (lambda message: None)
        self.applied = 0
        self.refused = {}
        self.resting = True

    def start(self):
        self.motion.wakeUp()
        self.resting = False

    def rest(self, why):
        if not self.resting:
            self.log("rest: %s" % why)
            self.motion.rest()
            self.resting = True

    def refuse(self, reason):
        self.refused[reason] = self.refused.get(reason, 0) + 1

    def handle_line(self, line):
        """Applies one JSON line; returns True when it became a setAngles call."""
        try:
            command = json.loads(line.decode("utf-8") if isinstance(line, bytes) else line)
        except (ValueError, UnicodeDecodeError):
            self.refuse("not-json")
            return False
        if not isinstance(command, dict):
            self.refuse("not-an-object")
            return False
        names, angles, speed = command.get("names"), command.get("angles"), command.get("speed")
        if not isinstance(names, list) or not names or not all(isinstance(n, STRING_TYPES) for n in names):
            self.refuse("bad-names")
            return False
        if not isinstance(angles, list) or len(angles) != len(names) or not all(is_finite_number(a) for a in angles):
            self.refuse("bad-angles")
            return False
        if not is_finite_number(speed) or not (0.0 < speed <= 1.0):
            self.refuse("bad-speed")
            return False
        if self.resting:
            self.start()
        self.motion.setAngles([str(n) for n in names], [float(a) for a in angles], min(float(speed), self.max_speed))
        self.applied += 1
        return True


def parse_endpoint(text, default_host):
    host, _, port = text.rpartition(":")
    return (host or default_host, int(port))


def serve(bridge, listen, timeout, should_stop, log):
    """Accepts clients one at a time and feeds their lines to the bridge until should_stop()."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(listen)
    server.listen(1)
    log("listening on %s:%d" % server.getsockname())
    client, buffer, last_command = None, b"", None
    try:
        while not should_stop():
            sockets = [client] if client is not None else [server]
            try:
                readable, _, _ = select.select(sockets, [], [], 0.05)
            except (select.error, OSError) as error:  # Python 2: a signal interrupts select
                if not error.args or error.args[0] != errno.EINTR:
                    raise
                continue
            now = time.time()
            if client is None:
                if readable:
                    client, address = server.accept()
                    buffer, last_command = b"", now
                    log("client %s:%d" % address)
                continue
            if readable:
                chunk = client.recv(4096)
                if not chunk:
                    client.close()
                    client = None
                    bridge.rest("client disconnected")
                    continue
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    if line.strip() and bridge.handle_line(line):
                        last_command = now
                if len(buffer) > MAX_LINE_BYTES:
                    bridge.refuse("line-too-long")
                    buffer = b""
            if last_command is not None and now - last_command > timeout:
                bridge.rest("no command for %.2f s" % (now - last_command))
                last_command = None
    finally:
        if client is not None:
            client.close()
        server.close()
        bridge.rest("bridge stopped")


def main(argv=None):
    parser = argparse.ArgumentParser(description="retarget -> NAO: JSON-line joint commands to ALMotion")
    parser.add_argument("--listen", default="0.0.0.0:9600", help="address:port to listen on")
    parser.add_argument("--naoqi", default="127.0.0.1:9559", help="NAOqi address:port")
    parser.add_argument("--timeout", type=float, default=0.5, help="s without a command before the robot rests")
    parser.add_argument("--max-speed", type=float, default=0.5, help="largest fraction of maximum joint speed")
    args = parser.parse_args(argv)
    if not (args.timeout > 0 and 0 < args.max_speed <= 1):
        parser.error("--timeout must be > 0 and --max-speed in (0, 1]")

    from naoqi import ALProxy  # the robot's SDK (tests put a fake one first on the path)

    host, port = parse_endpoint(args.naoqi, "127.0.0.1")
    log = lambda message: print("retarget_nao_bridge: " + message, file=sys.stderr)
    bridge = Bridge(ALProxy("ALMotion", host, port), args.max_speed, log)
    stop = []
    signal.signal(signal.SIGTERM, lambda *unused: stop.append(True))
    signal.signal(signal.SIGINT, lambda *unused: stop.append(True))
    bridge.start()
    serve(bridge, parse_endpoint(args.listen, "0.0.0.0"), args.timeout, lambda: bool(stop), log)
    log("applied %d commands, refused %s" % (bridge.applied, json.dumps(bridge.refused, sort_keys=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
