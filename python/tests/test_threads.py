"""Whole-motion calls release the GIL, so a thread pool over files uses several cores."""
import concurrent.futures
import multiprocessing
import os
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
    Q_tangy = np.tile(Q_tangy, (100, 1))  # long enough to watch (100 times the recording: 20 took 19-40 ms)
    t_tangy = np.arange(len(Q_tangy)) / 30.0
    return {
        "map_motion": lambda: retarget.JointSpaceParticleFilter(nao, particles=600).map_motion(wave),
        "evaluate_similarity": lambda: retarget.evaluate_similarity(nao, short, Q_short),
        "apply_safety": lambda: retarget.apply_safety(tangy, Q_tangy, t_tangy, avoid_collisions=True,
                                                      max_joint_speed=1.0),
        "read_motion": lambda: [retarget.read_motion(str(data / "bvh" / name)) for name in
                                ["noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh"] * 3],
    }


@pytest.mark.parametrize("name", ["map_motion", "evaluate_similarity", "apply_safety", "read_motion"])
def test_python_runs_during_a_whole_motion_call(data, name):
    """While another thread is inside the call, this thread keeps running Python code. With the
    GIL held the main thread would stop for the whole call; this holds on a loaded machine too."""
    call = heavy_calls(data)[name]
    started, finished = threading.Event(), threading.Event()
    window = {}

    def worker():
        started.set()
        window["start"] = time.perf_counter()
        call()
        window["end"] = time.perf_counter()
        finished.set()

    thread = threading.Thread(target=worker)
    ticks = []
    thread.start()
    started.wait()
    while not finished.is_set():
        ticks.append(time.perf_counter())
        for _ in range(200):  # a little pure-Python work per tick
            pass
    thread.join()
    duration = window["end"] - window["start"]
    inside = [t for t in ticks if window["start"] < t < window["end"]]
    assert duration > 0.02, f"{name} took {duration:.4f} s: too short to tell"
    # Ticks spread over the call: the largest gap is a small part of it.
    gaps = [b - a for a, b in zip([window["start"]] + inside, inside + [window["end"]])]
    assert len(inside) > 50 and max(gaps) < 0.5 * duration, (
        f"{name}: {len(inside)} main-thread ticks in {duration:.3f} s, largest gap {max(gaps):.3f} s")


def _map_one_file(path):
    robot = retarget.Robot("nao")
    retarget.JointSpaceParticleFilter(robot, particles=800).map_motion(retarget.read_motion(path))


def test_two_threads_over_two_files_scale(data):
    """Two files in two threads take clearly less than twice one file's time.

    On a machine shared with other work the cores we get vary, so the threads are compared with
    two processes doing the same work at the same time (no GIL between processes): the threads
    must scale as well as the processes do (within 20 %), and by more than 1.3x whenever the
    processes show that two cores were free. Best of three tries."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core")
    paths = [str(data / f) for f in (WAVE, COME)]
    context = multiprocessing.get_context("fork")

    def good(threads, processes):
        return threads > 0.8 * processes and (processes < 1.6 or threads > 1.3)

    tries = []
    for _ in range(3):
        start = time.perf_counter()
        for path in paths:
            _map_one_file(path)
        serial = time.perf_counter() - start
        start = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(_map_one_file, paths))
        threads = serial / (time.perf_counter() - start)
        start = time.perf_counter()
        with concurrent.futures.ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
            list(pool.map(_map_one_file, paths))
        processes = serial / (time.perf_counter() - start)
        tries.append((threads, processes))
        if good(threads, processes):
            break
    assert any(good(t, p) for t, p in tries), f"(threads, processes) speed-ups of each try: {tries}"


def test_one_mapper_in_two_threads_is_refused(data):
    """A mapper is a workspace: while map_motion runs (GIL released), the same mapper refuses."""
    nao = retarget.Robot("nao")
    motion = retarget.read_motion(str(data / WAVE))
    mapper = retarget.JointSpaceParticleFilter(nao, particles=600)
    thread = threading.Thread(target=mapper.map_motion, args=(motion,))
    thread.start()
    refused = 0
    while thread.is_alive():
        try:
            mapper.map(motion[0])
        except retarget.Error as error:
            assert "one per thread" in str(error)
            refused += 1
        time.sleep(0.001)
    thread.join()
    assert refused > 0
    mapper.map(motion[0])  # free again
