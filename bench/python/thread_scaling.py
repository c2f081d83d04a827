"""Files per second over the shared recordings with 1 and 2 threads (issue 37): each file is read
(read_motion) and mapped (map_motion) with one mapper per task; both calls release the GIL.

Run: PYTHONPATH=<build>/python/module python3 bench/python/thread_scaling.py [data dir] [method]
method: ga-lvvj (default, fast: reading dominates) or pf (the joint-space particle filter).
"""
import concurrent.futures
import os
import pathlib
import sys
import time

import retarget


def recordings(data):
    files = sorted((data / "kinect").glob("*.csv")) + sorted((data / "kinect").glob("*.txt"))
    files += [f for f in sorted((data / "bvh").glob("*.bvh")) if "0frames" not in f.name]
    return [str(f) for f in files]


def main():
    data = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[3] / "shared" / "data"
    method = sys.argv[2] if len(sys.argv) > 2 else "ga-lvvj"
    nao = retarget.Robot("nao")

    def task(path):
        motion = retarget.read_motion(path)
        mapper = retarget.GaLvvjMapper(nao) if method == "ga-lvvj" else retarget.JointSpaceParticleFilter(nao)
        return mapper.map_motion(motion)[0].shape[0]

    files = recordings(data)
    rounds = max(1, int(os.environ.get("ROUNDS", "3")))
    work = files * rounds
    print(f"{len(files)} shared recordings x {rounds} rounds, method {method}, {os.cpu_count()} cores")
    for threads in (1, 2):
        best = 0.0
        for _ in range(3):
            start = time.perf_counter()
            with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool:
                frames = sum(pool.map(task, work))
            best = max(best, len(work) / (time.perf_counter() - start))
        print(f"  {threads} thread(s): {best:7.1f} files/s ({frames} frames per pass)")


if __name__ == "__main__":
    main()
