"""Files per second over the shared recordings with 1 and 2 threads (issue 37): each file is read
(read_motion) and mapped (map_motion) with one mapper per task; both calls release the GIL.
Two processes are timed too, as the reference of what the machine's cores give at that moment.

Run: PYTHONPATH=<build>/python/module python3 bench/python/thread_scaling.py [data dir] [method]
method: ga-lvvj (default, fast: reading dominates) or pf (the joint-space particle filter).
"""
import concurrent.futures
import multiprocessing
import os
import pathlib
import sys
import time

import retarget


def recordings(data):
    files = sorted((data / "kinect").glob("*.csv")) + sorted((data / "kinect").glob("*.txt"))
    files += [f for f in sorted((data / "bvh").glob("*.bvh")) if "0frames" not in f.name]
    return [str(f) for f in files]


METHOD = "ga-lvvj"


def task(path):
    nao = retarget.Robot("nao")
    motion = retarget.read_motion(path)
    mapper = retarget.GaLvvjMapper(nao) if METHOD == "ga-lvvj" else retarget.JointSpaceParticleFilter(nao)
    return mapper.map_motion(motion)[0].shape[0]


def main():
    global METHOD
    data = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[3] / "shared" / "data"
    METHOD = method = sys.argv[2] if len(sys.argv) > 2 else "ga-lvvj"

    files = recordings(data)
    rounds = max(1, int(os.environ.get("ROUNDS", "3")))
    work = files * rounds
    print(f"{len(files)} shared recordings x {rounds} rounds, method {method}, {os.cpu_count()} cores")
    # Two processes (no GIL between them) show how many cores the machine gives right now.
    pools = [("1 thread", lambda: concurrent.futures.ThreadPoolExecutor(max_workers=1)),
             ("2 threads", lambda: concurrent.futures.ThreadPoolExecutor(max_workers=2)),
             ("2 processes", lambda: concurrent.futures.ProcessPoolExecutor(
                 max_workers=2, mp_context=multiprocessing.get_context("fork")))]
    for name, make in pools:
        best = 0.0
        for _ in range(3):
            start = time.perf_counter()
            with make() as pool:
                frames = sum(pool.map(task, work))
            best = max(best, len(work) / (time.perf_counter() - start))
        print(f"  {name:11s} {best:7.1f} files/s ({frames // rounds} frames per pass)")


if __name__ == "__main__":
    main()
