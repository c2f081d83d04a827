"""Whole-motion calls release the GIL, so a thread pool over files uses several cores.

Every check here is ordered by events, not timed: with the switch interval set very long
(no_preemption below), a thread holding the GIL runs until it blocks or a C++ call releases it,
so "the main thread ran while the worker was inside the call" can only happen when the call
released the GIL. This holds on one core and on a loaded machine alike; the speed-up itself is
measured by bench/python/thread_scaling.py, not asserted here.
"""
import contextlib
import sys
import threading
import time

import numpy as np
import pytest

import retarget

WAVE = "kinect/laban_ges01_wavehand_kinect2.csv"
COME = "kinect/laban_ges04_comehere_kinect2.csv"


def heavy_calls(data):
    nao, tangy = retarget.Robot("nao"), retarget.Robot("tangy")
    wave = retarget.read_motion(str(data / WAVE))
    short = retarget.demo_motion("arms-raise", duration=1.5)
    Q_short, _ = retarget.GaLvvjMapper(nao).map_motion(short)
    Q_tangy, _ = retarget.TriangleMapper(tangy).map_motion(wave)
    Q_tangy = np.tile(Q_tangy, (20, 1))  # 20 times the recording: 19-40 ms, many main-thread turns
    t_tangy = np.arange(len(Q_tangy)) / 30.0
    return {
        "map_motion": lambda: retarget.JointSpaceParticleFilter(nao, particles=600).map_motion(wave),
        "evaluate_similarity": lambda: retarget.evaluate_similarity(nao, short, Q_short),
        "apply_safety": lambda: retarget.apply_safety(tangy, Q_tangy, t_tangy, avoid_collisions=True,
                                                      max_joint_speed=1.0),
        "read_motion": lambda: [retarget.read_motion(str(data / "bvh" / name)) for name in
                                ["noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh"] * 3],
    }


DEADLINE_S = 300  # s: a bound for a hung call, far above any call here on a loaded machine


@contextlib.contextmanager
def no_preemption():
    """No GIL hand-over on a timer while inside: a Python thread keeps the GIL until it blocks
    or a C++ call releases it, which makes the interleavings below deterministic."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(100.0)  # s
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def ticks_during(call):
    """Runs `call` in a worker thread while this thread counts Python loop turns; returns the
    turns counted between the worker's entry into the call and its return. With the GIL held by
    the call (and no timer hand-over) that count is 0 whatever the machine's load."""
    counter = [0]
    result = {}
    finished = threading.Event()

    def worker():
        before = counter[0]
        try:
            call()
        finally:
            result["ticks"] = counter[0] - before
            finished.set()

    with no_preemption():
        thread = threading.Thread(target=worker)
        thread.start()
        deadline = time.monotonic() + DEADLINE_S
        # Each turn blocks briefly (finished.wait releases the GIL), so a worker that wants the
        # GIL back after its call always gets it: no deadlock with the long switch interval.
        while not finished.is_set() and time.monotonic() < deadline:
            counter[0] += 1
            finished.wait(0.0005)
        thread.join(DEADLINE_S)
    assert finished.is_set(), f"the call did not return within {DEADLINE_S} s"
    return result["ticks"]


@pytest.mark.parametrize("name", ["map_motion", "evaluate_similarity", "apply_safety", "read_motion"])
def test_python_runs_during_a_whole_motion_call(data, name):
    """While another thread is inside the call, this thread keeps running Python code: with the
    GIL held the count is exactly 0. One turn suffices to prove the release; a main thread that
    was not scheduled once during a whole call (tens of ms of CPU at least) is retried, so load
    cannot fail it and a held GIL fails every try."""
    call = heavy_calls(data)[name]
    tries = [ticks_during(call)]
    while tries[-1] == 0 and len(tries) < 3:
        tries.append(ticks_during(call))
    assert tries[-1] > 0, f"{name}: no main-thread turn inside the call in {len(tries)} tries: GIL held"


def _map_one_file(path, entered=None):
    """Reads and maps one file; returns the thread CPU seconds spent inside map_motion."""
    robot = retarget.Robot("nao")
    motion = retarget.read_motion(path)
    mapper = retarget.JointSpaceParticleFilter(robot, particles=800)
    if entered is not None:
        entered.set()
    start = time.thread_time()
    mapper.map_motion(motion)
    return time.thread_time() - start


def test_two_threads_over_two_files_run_at_once(data):
    """Two files in two threads are mapped at the same time: while both threads are inside
    map_motion, each gains CPU time (read from its own thread CPU clock) until the first ends.

    A held GIL, or a lock the two calls share, stops one of them for the other's whole call, so
    its CPU time does not grow. The scheduler shares a core fairly between the two threads, so
    this holds on one core and on a loaded machine (CPU time, not elapsed time, is compared);
    how much faster two cores make it is the benchmark's question (bench/python/
    thread_scaling.py, docs/python.md)."""
    paths = [str(data / f) for f in (WAVE, COME)]
    entered = [threading.Event(), threading.Event()]
    left = [threading.Event(), threading.Event()]
    release = threading.Event()  # keeps both threads (and their CPU clocks) alive until read
    in_call = [None, None]  # thread CPU s inside map_motion

    def worker(i):
        try:
            in_call[i] = _map_one_file(paths[i], entered[i])
        finally:
            left[i].set()
            release.wait(DEADLINE_S)

    with no_preemption():
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        try:
            clocks = [time.pthread_getcpuclockid(thread.ident) for thread in threads]
            for event in entered:
                assert event.wait(DEADLINE_S), "a thread did not reach map_motion"
            at_entry = [time.clock_gettime(c) for c in clocks]
            # With the GIL held (and no timer hand-over) the first call, and its `left`, come
            # before the second thread can set its `entered`.
            both_inside = not any(event.is_set() for event in left)
            deadline = time.monotonic() + DEADLINE_S
            while not any(event.is_set() for event in left) and time.monotonic() < deadline:
                left[0].wait(0.005)
            at_first_end = [time.clock_gettime(c) for c in clocks]
        finally:
            release.set()
            for thread in threads:
                thread.join(DEADLINE_S)
    gained = [b - a for a, b in zip(at_entry, at_first_end)]
    assert both_inside, "the first map_motion returned before the second thread entered its own"
    assert None not in in_call, "a map_motion failed"
    # Each thread gained a fair part of the shorter call's CPU time while both were inside (about
    # all of it when they share evenly; a blocked thread gains only microseconds).
    assert min(gained) > 0.25 * min(in_call), (
        f"thread CPU s gained while both were inside: {gained}; inside map_motion: {in_call}")


def test_one_mapper_in_two_threads_is_refused(data):
    """A mapper is a workspace: while map_motion runs (GIL released), the same mapper refuses.
    A use that succeeds while the worker is still inside map_motion fails the test; uses that
    come after it returned prove nothing and are retried."""
    nao = retarget.Robot("nao")
    motion = retarget.read_motion(str(data / WAVE))
    mapper = retarget.JointSpaceParticleFilter(nao, particles=600)
    refused = 0
    for _ in range(3):
        done = threading.Event()

        def worker():
            try:
                mapper.map_motion(motion)
            finally:
                done.set()

        with no_preemption():
            # Without timer hand-over the worker runs from start() into map_motion before this
            # thread continues, so every use below overlaps the call until `done` is set.
            thread = threading.Thread(target=worker)
            thread.start()
            while not done.is_set():
                try:
                    mapper.map(motion[0])
                    assert done.is_set(), "a second thread used the mapper while its map_motion ran"
                except retarget.Error as error:
                    assert "one per thread" in str(error)
                    refused += 1
                done.wait(0.001)
            thread.join(DEADLINE_S)
        if refused > 0:
            break
    assert refused > 0
    mapper.map(motion[0])  # free again
