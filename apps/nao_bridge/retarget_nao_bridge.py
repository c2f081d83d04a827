#!/usr/bin/env python
# -*- coding: utf-8 -*-
"""retarget's NAO bridge: joint commands as JSON lines over TCP -> ALMotion.

Runs on the robot (or beside it) with the robot's own NAOqi Python SDK: pynaoqi's `naoqi` (ALProxy;
Python 2.7 on NAO OS 2.1 to 2.8) or libqi-python's `qi` (qi.Session; NAOqi 2.9, which has no `naoqi`
module); the code runs under Python 2.7 and 3. `retarget live --sink nao:HOST:PORT` connects to it
and sends one JSON object per line:

    {"names": ["HeadYaw", ...], "angles": [0.1, ...], "speed": 0.2}
    {"command": "rest"}          rest now (ALMotion.rest: crouch, motors off)
    {"command": "stats"}         answered at once with a "stats" status line

names: NAO joint names (ALMotion's), angles: radians, speed: fraction of the joints' maximum
speed, 0 < speed <= 1 (capped by --max-speed). A line that is none of these is counted and ignored.

The bridge answers on the same socket with status lines, one JSON object each:

    {"status": "hello", "bridge": "retarget_nao_bridge", "protocol": 2, "state": "idle"}  on accept
    {"status": "error", "call": "setAngles", "message": "..."}   a NAOqi call raised; the bridge goes on
    {"status": "stalled", "call": "setAngles", "seconds": 1.0}   a NAOqi call has not returned for 1 s
    {"status": "state", "state": "awake", "why": "..."}          idle | awake | relaxed | resting | fallen
    {"status": "stats", "received": ..., "superseded": ..., ...} the answer to {"command": "stats"}

Design. The main thread only reads the socket, checks lines and writes status lines: it never
calls NAOqi. One worker thread makes every NAOqi call. Between them a one-slot mailbox holds the
newest command: of each read only the last valid command is put there, and a command the worker
has not taken yet is replaced by a newer one (both counted as superseded), so a NAOqi call that
blocks for seconds costs the commands sent meanwhile, never a backlog of stale motion. One client
at a time, the newest: a client that connects replaces the one before (which may be a half-open
connection after a Wi-Fi drop), and TCP keepalive closes a dead one that nobody replaces.

Safety. No stiffness before the first command (ALMotion.wakeUp when the first valid command
arrives, and after a rest). While the robot is awake its real state is read back
(ALMotion.robotIsWakeUp every 0.5 s and before a command): a robot that went limp behind the
bridge's back (a fall, the chest button, Autonomous Life, a motor protection) is reported
("resting" or "fallen") and woken again by the next command. When the commands stop (or the
client leaves), the robot holds its last pose; after --relax-after s the head and arm joints the
client commanded go to stiffness --relax-stiffness (the legs keep theirs, so a standing robot keeps
standing; nothing moves, nothing crouches); ALMotion.rest() after --rest-after s, on
{"command": "rest"}, and when the bridge stops (SIGINT, SIGTERM, SIGHUP, or its stderr gone: the
ssh session that started it closed). While a client is connected or the robot is awake, the
autonomous abilities that move the robot (Autonomous Life's BasicAwareness, BackgroundMovement,
ListeningMovement, SpeakingMovement, or on NAOqi 2.1 ALBasicAwareness and ALBackgroundMovement) and
ALMotion's breathing and idle posture are switched off; they are switched back on once no client is
connected and the robot rests (never while it is awake). A module that is not there is skipped.
Every NAOqi call is guarded: an error is logged and sent to the client, and when ALMotion cannot be
reached (or 3 calls in a row failed) a new proxy is tried every --retry-interval s. A log line that
cannot be written is dropped; it never stops the bridge.

    python retarget_nao_bridge.py [--listen 0.0.0.0:9600] [--naoqi 127.0.0.1:9559] [--max-speed 0.5]
                                  [--relax-after 2] [--relax-stiffness 0.3] [--rest-after 30]
                                  [--retry-interval 2] [--sdk auto|naoqi|qi]
"""

from __future__ import division, print_function

import argparse
import errno
import json
import math
import os
import select
import signal
import socket
import stat
import sys
import threading
import time
import traceback

MAX_LINE_BYTES = 65536       # a longer line is refused (line-too-long)
MAX_OUTGOING_BYTES = 65536   # status lines beyond this, unread by the client, are dropped
MAX_MESSAGE_CHARS = 300      # an error message is cut to this length
STALL_REPORT_S = 1.0         # a NAOqi call running this long is reported once ("stalled")
RECONNECT_AFTER_FAILURES = 3  # ALMotion calls failed in a row before a new proxy is made
STOP_WAIT_S = 15.0           # on stop, how long the final rest may take
POLL_S = 0.02                # select and worker wake-up period
STRING_TYPES = (str, type(u""))  # unicode on Python 2
LEG_PARTS = ("Hip", "Knee", "Ankle")
ABILITIES = ("BasicAwareness", "BackgroundMovement", "ListeningMovement", "SpeakingMovement")
WOULD_BLOCK = (errno.EAGAIN, errno.EWOULDBLOCK, errno.EINTR)
STATE_CHECK_S = 0.5          # while awake, how often the robot's real state is read back
AWAKE_STATES = ("awake", "relaxed")  # the bridge has stiffened the robot (as far as it knows)
PROTOCOL = 2                 # in the hello line: 2 = hello, newest client wins, state read back
# TCP keepalive on the client's socket (where the platform has the options): a dead peer nobody
# replaces is dropped after about KEEPALIVE_IDLE_S + KEEPALIVE_COUNT * KEEPALIVE_INTERVAL_S s.
KEEPALIVE_IDLE_S, KEEPALIVE_INTERVAL_S, KEEPALIVE_COUNT = 10, 5, 3
OUTPUT_GONE = (errno.EPIPE, errno.EIO, errno.ECONNRESET, errno.EBADF)  # nobody reads our stderr any more

clock = getattr(time, "monotonic", time.time)  # Python 2 has no monotonic clock


def is_finite_number(value):
    """A JSON number (not a boolean) that is neither infinite nor NaN."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and not (math.isinf(value) or math.isnan(value))


def is_ascii_text(value):
    if not isinstance(value, STRING_TYPES) or not value:
        return False
    try:
        value.encode("ascii") if isinstance(value, type(u"")) else value.decode("ascii")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return False
    return True


def describe(error):
    """An exception as one line of text of at most MAX_MESSAGE_CHARS (never raises)."""
    try:
        text = u"%s" % (error,)
    except Exception:  # Python 2: a message of non-ASCII bytes
        try:
            text = "%s" % (error,)
        except Exception:
            text = repr(error)
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = " ".join(text.split()) or type(error).__name__
    return text[:MAX_MESSAGE_CHARS]


def status_line(fields):
    """One status line, "status" first (a reader that keeps only a line's start still has it)."""
    members = ["%s: %s" % (json.dumps(key), json.dumps(fields[key], sort_keys=True)) for key in sorted(fields) if key != "status"]
    return ("{%s}\n" % ", ".join(['"status": ' + json.dumps(fields["status"])] + members)).encode("ascii")


def parse_command(line):
    """One line -> ("pose", (names, angles, speed)), ("rest", None), ("stats", None) or (None, reason)."""
    try:
        command = json.loads(line.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None, "not-json"
    if not isinstance(command, dict):
        return None, "not-an-object"
    if "command" in command:
        if command["command"] in ("rest", "stats") and len(command) == 1:
            return str(command["command"]), None
        return None, "bad-command"
    names, angles, speed = command.get("names"), command.get("angles"), command.get("speed")
    if not isinstance(names, list) or not names or not all(is_ascii_text(n) for n in names):
        return None, "bad-names"
    if not isinstance(angles, list) or len(angles) != len(names) or not all(is_finite_number(a) for a in angles):
        return None, "bad-angles"
    if not is_finite_number(speed) or not (0.0 < speed <= 1.0):
        return None, "bad-speed"
    return "pose", ([str(n) for n in names], [float(a) for a in angles], float(speed))


class Shared(object):
    """What the reader and the worker share, under one lock: the one-slot mailbox of the newest
    command, connection events, the stop flag, counters and the status lines for the client."""

    def __init__(self):
        self.cond = threading.Condition()
        self.command = None      # ("pose", (names, angles, speed)) or ("rest", None), not yet taken
        self.events = []         # "connected", "disconnected", in order
        self.stopping = False
        self.last_input = None   # clock() of the newest valid command
        self.outbox = []         # status dicts for the client
        self.busy = None         # (call, clock() at its start, sequence number) while NAOqi is called
        self.calls = 0
        self.counts = {"received": 0, "superseded": 0, "applied": 0, "failed": 0, "skipped": 0, "errors": 0,
                       "status_dropped": 0}
        self.refused = {}

    def count(self, name, n=1):
        with self.cond:
            self.counts[name] += n

    def refuse(self, reason):
        with self.cond:
            self.refused[reason] = self.refused.get(reason, 0) + 1

    def put(self, command, superseded):
        """Puts the newest command of one read (`superseded` older ones of the same read were valid too)."""
        with self.cond:
            if command[0] == "pose":
                self.last_input = clock()
            if self.command is not None and self.command[0] == "pose":
                superseded += 1
            self.counts["superseded"] += superseded
            self.command = command
            self.cond.notify()

    def event(self, name):
        with self.cond:
            self.events.append(name)
            self.cond.notify()

    def stop(self):
        with self.cond:
            self.stopping = True
            self.cond.notify()

    def take(self, timeout):
        """The worker's wait: (command or None, events, stopping, last_input)."""
        with self.cond:
            if self.command is None and not self.events and not self.stopping:
                self.cond.wait(timeout)
            command, events = self.command, self.events
            self.command, self.events = None, []
            if self.stopping and command is not None and command[0] == "pose":
                self.counts["superseded"] += 1  # not applied: the bridge stops
                command = None
            return command, events, self.stopping, self.last_input

    def post(self, fields):
        with self.cond:
            self.outbox.append(fields)

    def take_outbox(self):
        with self.cond:
            lines, self.outbox = self.outbox, []
            return lines

    def set_busy(self, call):
        with self.cond:
            if call is None:
                self.busy = None
            else:
                self.calls += 1
                self.busy = (call, clock(), self.calls)

    def stats(self, state):
        with self.cond:
            fields = dict(self.counts)
            fields.update(status="stats", refused=sum(self.refused.values()), state=state)
            return fields


class Robot(object):
    """The worker: makes every NAOqi call, each guarded, and keeps the robot's state (idle: no
    stiffness given yet; awake; relaxed; resting: after ALMotion.rest, or found not awake; fallen:
    found not awake and lying), reading the real one back while it believes the robot awake."""

    def __init__(self, make_proxy, shared, options, log):
        self.make_proxy = make_proxy
        self.shared = shared
        self.options = options
        self.log = log
        self.state = "idle"
        self.motion = None
        self.proxies = {}
        self.retry_at = 0.0       # no new ALMotion proxy before this clock()
        self.wake_retry_at = 0.0  # no new wakeUp before this clock() after one failed
        self.checked_at = 0.0     # clock() of the last read-back of the robot's state
        self.failures = 0         # ALMotion calls failed in a row
        self.commanded = []       # joints commanded since the last wake, in first-seen order
        self.connected = False
        self.life_paused = False  # optional modules handled for this client
        self.motion_paused = False  # ALMotion's breathing and idle posture handled for this client
        self.restore = []         # (proxy, method, args) undoing what was paused, in order
        self.last_report = {}     # call -> (clock() of the last log line, errors not logged since)

    # -- guarded NAOqi calls --------------------------------------------------------------------
    def report(self, call, error, to_client=True):
        message = describe(error)
        self.shared.count("errors")
        if to_client:
            self.shared.post({"status": "error", "call": call, "message": message})
        last, quiet = self.last_report.get(call, (None, 0))
        now = clock()
        if last is not None and now - last < 1.0:
            self.last_report[call] = (last, quiet + 1)
            return
        self.last_report[call] = (now, 0)
        self.log("%s failed: %s%s" % (call, message, " (and %d more in the last second)" % quiet if quiet else ""))

    def call(self, proxy, method, *args, **how):
        """proxy.method(*args) -> (True, result), or (False, None) once the error is reported
        (quiet=True: logged only; an optional API may be absent)."""
        self.shared.set_busy(method)
        try:
            result = getattr(proxy, method)(*args)
        except Exception as error:  # the NAOqi SDKs raise RuntimeError; a missing method AttributeError
            self.shared.set_busy(None)
            if how.get("quiet"):
                self.log("%s not available: %s" % (method, describe(error)))
            else:
                self.report(method, error)
            return False, None
        self.shared.set_busy(None)
        return True, result

    def reach_motion(self):
        if self.motion is not None:
            return True
        if clock() < self.retry_at:
            return False
        self.shared.set_busy("ALProxy")
        try:
            self.motion = self.make_proxy("ALMotion")
        except Exception as error:
            self.motion = None
            self.retry_at = clock() + self.options.retry_interval
            self.report("ALProxy(ALMotion)", error)
            return False
        finally:
            self.shared.set_busy(None)
        self.failures = 0
        self.log("ALMotion reached at %s" % self.options.naoqi)
        return True

    def motion_call(self, method, *args):
        """An ALMotion call -> (True, result) done, (False, None) it raised, (None, None) ALMotion
        not reached."""
        if not self.reach_motion():
            return None, None
        done, result = self.call(self.motion, method, *args)
        if done:
            self.failures = 0
            return True, result
        self.failures += 1
        if self.failures >= RECONNECT_AFTER_FAILURES:
            self.log("%d ALMotion calls failed in a row: a new proxy in %.1f s" % (self.failures, self.options.retry_interval))
            self.motion, self.failures = None, 0
            self.retry_at = clock() + self.options.retry_interval
        return False, None

    def optional_proxy(self, module):
        if module not in self.proxies:
            self.shared.set_busy("ALProxy")
            try:
                self.proxies[module] = self.make_proxy(module)
            except Exception as error:
                self.log("%s not available (%s): left as it is" % (module, describe(error)))
                return None  # asked again next time (NAOqi may still be starting)
            finally:
                self.shared.set_busy(None)
        return self.proxies[module]

    def set_state(self, state, why):
        if state != self.state:
            self.state = state
            self.log("%s: %s" % (state, why))
            self.shared.post({"status": "state", "state": state, "why": why})

    # -- the robot's real state ------------------------------------------------------------------
    def check_robot(self):
        """While the bridge believes the robot awake, reads back whether it still is (at most every
        STATE_CHECK_S s). A robot that is not (fallen: the fall manager cut its stiffness;
        rested by its chest button, Autonomous Life or a motor protection) is reported as "fallen"
        or "resting"; the next command wakes it again."""
        if self.state not in AWAKE_STATES or clock() - self.checked_at < STATE_CHECK_S:
            return
        self.checked_at = clock()
        done, awake = self.motion_call("robotIsWakeUp")
        if not done or awake:
            return  # not known (reported as an error), or awake as believed
        state, why = "resting", "the robot went to rest on its own (chest button, Autonomous Life or a motor protection)"
        posture = self.optional_proxy("ALRobotPosture")
        if posture is not None:
            known, family = self.call(posture, "getPostureFamily", quiet=True)
            if known and str(family).startswith("Lying"):
                state, why = "fallen", "the robot has fallen (posture %s) and its stiffness is off" % family
        self.set_state(state, why + "; the next command wakes it")

    # -- what the robot does --------------------------------------------------------------------
    def relaxable(self):
        return [n for n in self.commanded if not any(part in n for part in LEG_PARTS)]

    def apply(self, names, angles, speed):
        self.check_robot()  # a robot gone limp since the last read-back is woken below
        if self.state not in AWAKE_STATES:  # idle, resting, fallen
            if clock() < self.wake_retry_at:
                self.shared.count("skipped")
                return
            woke, _ = self.motion_call("wakeUp")
            if not woke:
                self.wake_retry_at = clock() + self.options.retry_interval
                self.shared.count("skipped")
                return
            self.commanded = []
            self.checked_at = clock()
            self.set_state("awake", "a command arrived" if self.state == "idle" else "a command arrived (was %s)" % self.state)
        elif self.state == "relaxed":
            stiff = self.relaxable()
            if stiff:
                self.motion_call("setStiffnesses", stiff, 1.0)  # on failure the command still goes
            self.set_state("awake", "a command arrived")
        for name in names:
            if name not in self.commanded:
                self.commanded.append(name)
        done, _ = self.motion_call("setAngles", names, angles, min(speed, self.options.max_speed))
        self.shared.count("applied" if done else "failed" if done is False else "skipped")

    def relax(self, idle_s):
        names = self.relaxable()
        if names:
            self.motion_call("setStiffnesses", names, self.options.relax_stiffness)
        self.set_state("relaxed", "no command for %.1f s" % idle_s)

    def rest(self, why):
        if self.state in AWAKE_STATES:
            self.motion_call("rest")  # the robot is taken as resting even when this failed
            self.set_state("resting", why)

    def pause_life(self):
        """Switches off the optional modules' autonomous movements (what exists of them)."""
        self.life_paused = True
        handled = set()
        life = self.optional_proxy("ALAutonomousLife")
        if life is not None:
            known, state = self.call(life, "getState", quiet=True)
            if known:
                self.log("Autonomous Life state: %s (left as it is)" % state)
            for ability in ABILITIES:
                known, enabled = self.call(life, "getAutonomousAbilityEnabled", ability, quiet=True)
                if not known:
                    break  # NAOqi 2.1: no autonomous abilities; the modules below instead
                handled.add(ability)
                if enabled and self.call(life, "setAutonomousAbilityEnabled", ability, False)[0]:
                    self.restore.append((life, "setAutonomousAbilityEnabled", (ability, True)))
        if "BasicAwareness" not in handled:
            awareness = self.optional_proxy("ALBasicAwareness")
            if awareness is not None:
                known, paused = self.call(awareness, "isAwarenessPaused", quiet=True)
                if known:
                    if not paused and self.call(awareness, "pauseAwareness")[0]:
                        self.restore.append((awareness, "resumeAwareness", ()))
                else:
                    known, running = self.call(awareness, "isAwarenessRunning", quiet=True)
                    if known and running and self.call(awareness, "stopAwareness")[0]:
                        self.restore.append((awareness, "startAwareness", ()))
        if "BackgroundMovement" not in handled:
            background = self.optional_proxy("ALBackgroundMovement")
            if background is not None:
                known, enabled = self.call(background, "isEnabled", quiet=True)
                if known and enabled and self.call(background, "setEnabled", False)[0]:
                    self.restore.append((background, "setEnabled", (True,)))

    def pause_motion(self):
        """Switches off ALMotion's breathing and idle posture (once ALMotion is reached)."""
        if not self.reach_motion():
            return
        self.motion_paused = True
        motion = self.motion
        for getter, setter in (("getBreathEnabled", "setBreathEnabled"), ("getIdlePostureEnabled", "setIdlePostureEnabled")):
            known, enabled = self.call(motion, getter, "Body", quiet=True)
            if known and enabled and self.call(motion, setter, "Body", False)[0]:
                self.restore.append((motion, setter, ("Body", True)))

    def resume_autonomy(self):
        steps, self.restore = self.restore, []
        for proxy, method, args in reversed(steps):
            self.call(proxy, method, *args)
        self.life_paused = self.motion_paused = False

    def resume_when_resting(self):
        """The paused abilities back on once no client is connected and the robot is not awake
        (never while it is: the head and arms would move by themselves until the rest)."""
        if not self.connected and self.state not in AWAKE_STATES and (self.life_paused or self.motion_paused):
            self.resume_autonomy()

    def handle(self, event):
        if event == "connected":
            self.connected = True
            if not self.life_paused:
                self.pause_life()
            if not self.motion_paused:
                self.pause_motion()
        elif event == "disconnected":
            self.connected = False

    def tick(self, last_input):
        if self.connected and not self.motion_paused:
            self.pause_motion()  # also tries ALMotion again (every --retry-interval) while it is not reached
        self.check_robot()
        if last_input is not None:
            idle_s = clock() - last_input
            if self.state == "awake" and idle_s >= self.options.relax_after:
                self.relax(idle_s)
            if self.state in AWAKE_STATES and idle_s >= self.options.rest_after:
                self.rest("no command for %.1f s" % idle_s)
        self.resume_when_resting()

    def run(self):
        self.reach_motion()  # at once, to say whether NAOqi is there
        stopping = False
        while not stopping:
            try:
                command, events, stopping, last_input = self.shared.take(POLL_S)
                if stopping:
                    break  # rest first, then the abilities back on (below)
                for event in events:
                    self.handle(event)
                if command is not None and command[0] == "rest":
                    self.rest("asked by the client")
                elif command is not None:
                    self.apply(*command[1])
                self.tick(last_input)
            except Exception as error:  # a bug of ours: keep serving, say so
                try:
                    self.log("internal error: " + traceback.format_exc())
                    self.shared.post({"status": "error", "call": "bridge", "message": describe(error)})
                except Exception:
                    pass
        try:
            self.rest("bridge stopped")
        except Exception:
            self.log("internal error while resting on stop: " + traceback.format_exc())
        try:
            self.resume_autonomy()
        except Exception:
            self.log("internal error while switching the abilities back on: " + traceback.format_exc())


class OutputWatch(object):
    """Tells when nobody reads the bridge's stdout or stderr any more: a pipe or socket whose
    reader closed (`ssh ROBOT python ...` without -t, then the ssh client ended). A terminal gets
    SIGHUP instead; a file (nohup) never goes away."""

    def __init__(self, streams):
        self.poller = None
        poll = getattr(select, "poll", None)
        if poll is None:
            return  # then only a failed log write tells
        for stream in streams:
            try:
                fd = stream.fileno()
                mode = os.fstat(fd).st_mode
            except (AttributeError, ValueError, OSError, IOError):
                continue
            if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
                if self.poller is None:
                    self.poller = poll()
                self.poller.register(fd, select.POLLERR | select.POLLHUP)

    def gone(self):
        if self.poller is None:
            return False
        try:
            events = self.poller.poll(0)
        except (select.error, OSError, IOError):
            return False
        return any(flags & (select.POLLERR | select.POLLHUP) for _, flags in events)


class Log(object):
    """stderr lines prefixed with the bridge's name, from any thread. Never raises: a line that
    cannot be written is dropped; when the reader is gone (EPIPE, EIO: the ssh session or terminal
    closed) nothing more is written and `on_gone` is told once (the bridge then stops)."""

    def __init__(self, stream, on_gone):
        self.stream = stream
        self.on_gone = on_gone
        self.lock = threading.Lock()
        self.gone = False

    def __call__(self, message):
        with self.lock:
            if self.gone:
                return
            line = "retarget_nao_bridge: " + message + "\n"
            if not isinstance(line, str):  # Python 2: unicode (a NAOqi message) to UTF-8 bytes
                line = line.encode("utf-8", "replace")
            try:
                self.stream.write(line)
                self.stream.flush()
                return
            except UnicodeError:
                return  # this line is lost; the stream is fine
            except (IOError, OSError, ValueError) as error:  # ValueError: the stream was closed
                if isinstance(error, ValueError) or getattr(error, "errno", None) in OUTPUT_GONE:
                    self.gone = True
                    reason = describe(error)
                else:
                    return  # e.g. a full disk: this line is lost
        self.on_gone("stderr is gone (%s)" % reason)


def parse_endpoint(text, default_host):
    host, _, port = text.rpartition(":")
    return (host or default_host, int(port))


class Client(object):
    """The connected client: a non-blocking socket with TCP keepalive, its partial input line and
    unsent status."""

    def __init__(self, sock, address):
        self.sock = sock
        self.address = "%s:%d" % address[:2]
        self.sock.setblocking(False)
        self.inbox = b""
        self.outbox = b""
        self.last_read = clock()
        options = [(socket.SOL_SOCKET, "SO_KEEPALIVE", 1)]
        if hasattr(socket, "IPPROTO_TCP"):
            options += [(socket.IPPROTO_TCP, "TCP_KEEPIDLE", KEEPALIVE_IDLE_S),
                        (socket.IPPROTO_TCP, "TCP_KEEPINTVL", KEEPALIVE_INTERVAL_S),
                        (socket.IPPROTO_TCP, "TCP_KEEPCNT", KEEPALIVE_COUNT)]
        for level, name, value in options:
            if hasattr(socket, name):
                try:
                    self.sock.setsockopt(level, getattr(socket, name), value)
                except (socket.error, OSError):
                    pass  # not on this platform: the newest client still replaces a dead one

    def queue(self, fields, shared):
        line = status_line(fields)
        if len(self.outbox) + len(line) > MAX_OUTGOING_BYTES:
            shared.count("status_dropped")  # the client does not read them
            return
        self.outbox += line

    def flush(self):
        """Sends what the socket takes; False when the connection is gone."""
        while self.outbox:
            try:
                sent = self.sock.send(self.outbox)
            except socket.error as error:
                return error.args[0] in WOULD_BLOCK if error.args else False
            self.outbox = self.outbox[sent:]
        return True

    def receive(self):
        """Reads what is there: complete lines (a list of bytes), or None when the client left."""
        try:
            chunk = self.sock.recv(65536)
        except socket.error as error:
            if error.args and error.args[0] in WOULD_BLOCK:
                return []
            return None
        if not chunk:
            return None
        self.last_read = clock()
        self.inbox += chunk
        lines = self.inbox.split(b"\n")
        self.inbox = lines.pop()
        return lines

    def close(self):
        try:
            self.sock.close()
        except (socket.error, OSError):
            pass


def serve(robot, shared, listen, should_stop, log):
    """Accepts clients, the newest one replacing the one before, and feeds their commands to the
    worker until should_stop()."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(listen)
    server.listen(4)
    server.setblocking(False)  # a connection reset between select and accept must not block
    log("listening on %s:%d" % server.getsockname())
    client = None
    stall_reported = None
    try:
        while not should_stop():
            want_read = [server] + ([client.sock] if client is not None else [])
            want_write = [client.sock] if client is not None and client.outbox else []
            try:
                readable, writable, _ = select.select(want_read, want_write, [], POLL_S)
            except (select.error, socket.error, OSError) as error:  # Python 2: a signal interrupts select
                if not error.args or error.args[0] != errno.EINTR:
                    raise
                continue
            busy = shared.busy
            if busy is not None and busy[2] != stall_reported and clock() - busy[1] >= STALL_REPORT_S:
                stall_reported = busy[2]
                log("NAOqi call %s has not returned for %.1f s" % (busy[0], clock() - busy[1]))
                shared.post({"status": "stalled", "call": busy[0], "seconds": round(clock() - busy[1], 1)})
            if server in readable:
                try:
                    sock, address = server.accept()
                except socket.error as error:
                    log("accept failed: %s" % describe(error))
                    sock = None
                if sock is not None:
                    newcomer = Client(sock, address)
                    if client is None:
                        shared.event("connected")
                        log("client %s" % newcomer.address)
                    else:
                        # The newest client wins: the old connection may be half-open (a Wi-Fi drop,
                        # an address change) and would keep a restarted client in the backlog.
                        log("client %s replaces %s (silent for %.1f s)" % (newcomer.address, client.address,
                                                                       clock() - client.last_read))
                        client.queue({"status": "replaced", "by": newcomer.address}, shared)
                        client.flush()
                        client.close()
                    client = newcomer
                    client.queue({"status": "hello", "bridge": "retarget_nao_bridge", "protocol": PROTOCOL,
                                  "state": robot.state}, shared)
            if client is None:
                shared.take_outbox()  # status for nobody
                continue
            for fields in shared.take_outbox():
                client.queue(fields, shared)
            lines = client.receive() if client.sock in readable else []
            if lines is None or not client.flush():
                client.close()
                client = None
                shared.event("disconnected")
                log("client left")
                continue
            newest, superseded, stats = None, 0, 0
            for line in lines:
                if not line.strip():
                    continue
                kind, value = parse_command(line)
                if kind is None:
                    shared.refuse(value)
                elif kind == "stats":
                    stats += 1
                else:
                    if kind == "pose":
                        shared.count("received")
                    if newest is not None and newest[0] == "pose":
                        superseded += 1
                    newest = (kind, value)
            if newest is not None:
                shared.put(newest, superseded)
            for _ in range(stats):
                client.queue(shared.stats(robot.state), shared)
            if len(client.inbox) > MAX_LINE_BYTES:
                shared.refuse("line-too-long")
                client.inbox = b""
            client.flush()
    finally:
        if client is not None:
            client.close()
            # No "disconnected" event: the bridge is stopping, and the worker rests the robot
            # before it switches the autonomous abilities back on.
        server.close()


def naoqi_connector(sdk, host, port, log):
    """(name of the SDK, make_proxy(module)) with pynaoqi's ALProxy (NAOqi 2.1 to 2.8) or, where
    there is no `naoqi` module (NAOqi 2.9), libqi-python's qi.Session. Raises ImportError when
    neither is there."""
    if sdk in ("auto", "naoqi"):
        try:
            from naoqi import ALProxy  # the robot's SDK (tests put a fake one first on the path)
        except ImportError as error:
            if sdk == "naoqi":
                raise
            log("no naoqi module (%s): trying libqi-python's qi" % describe(error))
        else:
            return "naoqi (ALProxy)", lambda module: ALProxy(module, host, port)
    import qi
    url = "tcp://%s:%d" % (host, port)
    holder = {"session": None}

    def make_proxy(module):
        session = holder["session"]
        if session is None or not session.isConnected():
            session = qi.Session()
            session.connect(url)  # raises RuntimeError while NAOqi is not there
            holder["session"] = session
        return session.service(module)

    return "libqi (qi.Session at %s)" % url, make_proxy


def main(argv=None):
    parser = argparse.ArgumentParser(description="retarget -> NAO: JSON-line joint commands to ALMotion")
    parser.add_argument("--listen", default="0.0.0.0:9600", help="address:port to listen on")
    parser.add_argument("--naoqi", default="127.0.0.1:9559", help="NAOqi address:port")
    parser.add_argument("--max-speed", type=float, default=0.5, help="largest fraction of the joints' maximum speed, (0, 1]")
    parser.add_argument("--relax-after", type=float, default=2.0,
                        help="s without a command before the commanded head and arm joints relax")
    parser.add_argument("--relax-stiffness", type=float, default=0.3,
                        help="stiffness of the relaxed joints, [0, 1] (fraction of full stiffness)")
    parser.add_argument("--rest-after", type=float, default=30.0,
                        help="s without a command before ALMotion.rest (crouch, motors off); > --relax-after")
    parser.add_argument("--retry-interval", type=float, default=2.0,
                        help="s between tries to reach ALMotion (and to wake the robot) after a failure")
    parser.add_argument("--sdk", choices=("auto", "naoqi", "qi"), default="auto",
                        help="NAOqi Python SDK: naoqi (ALProxy, NAOqi 2.1-2.8), qi (qi.Session, NAOqi 2.5-2.9), "
                             "auto: naoqi where it exists, else qi")
    args = parser.parse_args(argv)
    if not (0 < args.max_speed <= 1):
        parser.error("--max-speed must be in (0, 1] (got %g)" % args.max_speed)
    if not (args.relax_after > 0 and args.rest_after > args.relax_after):
        parser.error("--relax-after must be > 0 s and --rest-after larger (got %g and %g)" % (args.relax_after, args.rest_after))
    if not (0 <= args.relax_stiffness <= 1):
        parser.error("--relax-stiffness must be in [0, 1] (got %g)" % args.relax_stiffness)
    if not (args.retry_interval > 0):
        parser.error("--retry-interval must be > 0 s (got %g)" % args.retry_interval)

    stop = []  # why the bridge stops (a signal, the output gone)

    def request_stop(why):
        stop.append(why)

    log = Log(sys.stderr, request_stop)
    host, port = parse_endpoint(args.naoqi, "127.0.0.1")
    try:
        sdk, make_proxy = naoqi_connector(args.sdk, host, port, log)
    except ImportError as error:
        log("no NAOqi Python SDK (%s): needs pynaoqi's naoqi (NAOqi 2.1-2.8) or libqi-python's qi (2.5-2.9)"
            % describe(error))
        return 2
    log("NAOqi SDK: " + sdk)

    shared = Shared()
    robot = Robot(make_proxy, shared, args, log)
    worker = threading.Thread(target=robot.run, name="naoqi")
    worker.daemon = True  # a NAOqi call that never returns must not keep the process alive
    signal.signal(signal.SIGTERM, lambda *unused: request_stop("SIGTERM"))
    signal.signal(signal.SIGINT, lambda *unused: request_stop("SIGINT"))
    hangup = getattr(signal, "SIGHUP", None)
    if hangup is not None and signal.getsignal(hangup) != signal.SIG_IGN:  # nohup: left ignored
        signal.signal(hangup, lambda *unused: request_stop("SIGHUP"))
    watch = OutputWatch([sys.stdout, sys.stderr])

    def should_stop():
        if not stop and watch.gone():
            request_stop("stdout or stderr is gone (the ssh session or terminal that started the bridge closed)")
        return bool(stop)

    worker.start()
    try:
        serve(robot, shared, parse_endpoint(args.listen, "0.0.0.0"), should_stop, log)
    finally:
        if stop:
            log("stopping: %s" % stop[0])
        shared.stop()
        worker.join(STOP_WAIT_S)
    counts = shared.counts
    log("received %d commands: applied %d, superseded %d, failed %d, skipped %d; %d errors; refused %s" % (
        counts["received"], counts["applied"], counts["superseded"], counts["failed"], counts["skipped"],
        counts["errors"], json.dumps(shared.refused, sort_keys=True)))
    if worker.is_alive():
        log("a NAOqi call still had not returned %.0f s after the stop: exiting without rest" % STOP_WAIT_S)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
