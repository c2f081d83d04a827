"""A short tour of the retarget Python module (docs/python.md): read a motion, map it onto NAO,
filter it, evaluate the imitation, write the angles, and plot when matplotlib is installed.

Run from a build: PYTHONPATH=<build>/python/module python3 examples/python/tour.py [motion.bvh]
Without an argument it maps the shared CMU recording when ../shared/data is there, else the
generated wave.
"""
import os
import pathlib
import sys
import tempfile

import numpy as np

import retarget


def motion_path():
    if len(sys.argv) > 1:
        return sys.argv[1]
    data = pathlib.Path(os.environ.get("RETARGET_TEST_DATA", pathlib.Path(__file__).resolve().parents[3] / "shared" / "data"))
    bvh = data / "bvh" / "cmu_skeleton31_deepmotionediting_example.bvh"
    return str(bvh) if bvh.exists() else None


def main():
    # 1. A human motion: any supported file (here a BVH), or a generated one.
    path = motion_path()
    motion = retarget.read_motion(path) if path else retarget.demo_motion("wave")
    print(f"{motion}: positions {motion.positions.shape} (m, x forward, y left, z up)")

    # 2. A robot and a mapper: NAO, GA-LVVJ (options as keyword arguments).
    nao = retarget.Robot("nao")
    mapper = retarget.GaLvvjMapper(nao, jump_cost=0.15)
    Q, statuses = mapper.map_motion(motion)  # frames x 25, rad
    clamped = sum(retarget.Status.CLAMPED in retarget.Status(int(s)) for s in statuses)
    print(f"mapped {Q.shape[0]} frames onto {nao.name}: clamped in {clamped} frames")

    # The same, frame by frame, as a live loop would (q is a view of the mapper's buffer).
    mapper.reset()
    smooth = retarget.ExponentialSmoothing(nao.nq, alpha=0.5)
    for k in range(len(motion)):
        q, status = mapper.map(motion[k])
        q_smooth, _ = smooth.update(q)
    print(f"last frame: {status!s}, LShoulderPitch {q_smooth[nao.joint_index('LShoulderPitch')]:.3f} rad")

    # 3. Post-processing as `retarget map --smooth 0.5 --max-joint-speed 3` does it.
    Q_safe, _ = retarget.apply_safety(nao, Q, motion.times, smooth=0.5, max_joint_speed=3.0)

    # 4. How well does NAO imitate the human? (`retarget eval --metrics similarity`)
    similarity = retarget.evaluate_similarity(nao, motion, Q_safe)
    physical = retarget.evaluate_physical(nao, motion, Q_safe, motion.times)
    print(f"WBF {similarity['wbf']['mean']:.3f} (best reachable {similarity['best_reachable']['wbf_mean']:.3f}), "
          f"LLF {similarity['llf']['mean']:.3f}, cosine {similarity['cosine']['mean']:.3f}, "
          f"peak joint speed {physical['velocity_peak']:.2f} rad/s")
    assert 0 < similarity["wbf"]["mean"] <= 1 and np.isfinite(Q_safe).all()

    # 5. The angles as the command line writes them, and a plot when matplotlib is there.
    with tempfile.TemporaryDirectory() as out:
        retarget.write_joint_trajectory(os.path.join(out, "angles.csv"), nao, motion.times, Q_safe)
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("matplotlib is not installed: no plot")
            return
        for name in ("LShoulderPitch", "RShoulderPitch", "LElbowRoll", "RElbowRoll"):
            plt.plot(motion.times, Q_safe[:, nao.joint_index(name)], label=name)
        plt.xlabel("time (s)")
        plt.ylabel("angle (rad)")
        plt.legend()
        plt.savefig(os.path.join(out, "angles.png"))
        print("plotted the arm joints")


if __name__ == "__main__":
    main()
