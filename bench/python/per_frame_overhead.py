"""Per-frame cost of GA-LVVJ through Python beside the C++ call (issue 37): a timing script, not a
test. The C++ figure is map_motion's loop (the library's mapMotion, the same map() per frame
plus copying the row out) divided by the frames; the Python figures are one map() call per frame
from a Python loop, with a SkeletonFrame, with a (25, 3) array, and into a caller's `out`.

Run: PYTHONPATH=<build>/python/module python3 bench/python/per_frame_overhead.py [motion] [repeats]
"""
import pathlib
import sys
import time

import numpy as np

import retarget


def best_of(fn, repeats):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main():
    default = pathlib.Path(__file__).resolve().parents[3] / "shared" / "data" / "kinect" / "laban_ges01_wavehand_kinect2.csv"
    path = sys.argv[1] if len(sys.argv) > 1 else str(default)
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    motion = retarget.read_motion(path) if pathlib.Path(path).exists() else retarget.demo_motion("wave")
    nao = retarget.Robot("nao")
    mapper = retarget.GaLvvjMapper(nao)
    frames = [motion[k] for k in range(len(motion))]
    positions = [np.array(motion.positions[k]) for k in range(len(motion))]
    out = np.empty(nao.nq)
    n = len(frames)

    def python_frames():
        for f in frames:
            mapper.map(f)

    def python_arrays():
        for p in positions:
            mapper.map(p)

    def python_out():
        for f in frames:
            mapper.map(f, out=out)

    cpp = best_of(lambda: mapper.map_motion(motion), repeats) / n
    results = {
        "C++ (map_motion loop)": cpp,
        "Python map(SkeletonFrame)": best_of(python_frames, repeats) / n,
        "Python map((25, 3) array)": best_of(python_arrays, repeats) / n,
        "Python map(frame, out=)": best_of(python_out, repeats) / n,
    }
    print(f"GA-LVVJ on NAO, {n} frames of {pathlib.Path(path).name}, best of {repeats}")
    for name, seconds in results.items():
        print(f"  {name:28s} {seconds * 1e6:7.2f} us/frame   {seconds / cpp:5.2f}x C++")


if __name__ == "__main__":
    main()
