"""The module's surface: help() is useful, the stub matches the module, round trips work."""
import ast
import inspect
import pathlib

import numpy as np
import pytest

import retarget

STUB = pathlib.Path(__file__).resolve().parents[1] / "retarget.pyi"


def stub_names():
    tree = ast.parse(STUB.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return {n for n in names if not n.startswith("_")} - {"Array", "ArrayLike", "PathLike", "JsonSource", "FrameInput"}


def test_stub_and_module_name_the_same_things():
    public = {n for n in dir(retarget) if not n.startswith("_")} | {"__version__"}
    assert stub_names() == public - {"__version__"} | ({"__version__"} & stub_names())


def test_help_of_a_mapper_is_useful():
    text = inspect.getdoc(retarget.GaLvvjMapper)
    for words in ("seed 000", "rad", "canonical frame W", "x forward, y left, z up", "map_motion", "options"):
        assert words in text
    assert "read-only view" in retarget.GaLvvjMapper.map.__doc__
    assert "GIL" in retarget.GaLvvjMapper.map_motion.__doc__
    for cls in (retarget.TriangleMapper, retarget.PicMapper, retarget.JointSpaceParticleFilter,
                retarget.GpdmParticleFilter, retarget.EulerMapper, retarget.WholeBodyPipeline, retarget.HumanoidWholeBody, retarget.Robot,
                retarget.Motion):
        assert len(inspect.getdoc(cls)) > 200, cls


def test_robot_fk_and_limits():
    nao = retarget.Robot("nao")
    assert nao.nq == len(nao.joint_names) == 25 and nao.name
    q = nao.neutral_configuration()
    assert np.all(q >= nao.lower_limits) and np.all(q <= nao.upper_limits)
    X = nao.forward_kinematics(q)
    assert X.shape == (len(nao.link_names), 4, 4)
    assert np.allclose(X[:, 3, :], [0, 0, 0, 1])
    k = nao.link_names.index("l_sole")
    assert np.array_equal(nao.link_pose(q, "l_sole"), X[k])
    with pytest.raises(retarget.InvalidArgument):
        nao.forward_kinematics(np.zeros(3))
    assert not nao.lower_limits.flags.writeable


def test_robot_from_mjcf(data):
    g1 = retarget.Robot(str(data / "mjcf" / "unitree_g1_g1.xml"))
    assert g1.name == "g1_29dof_rev_1_0"
    assert g1.nq == 29
    assert g1.joint_names[0] == "left_hip_pitch_joint"
    assert g1.link_names[0] == "pelvis"  # the free joint's body is the root link
    assert g1.forward_kinematics(np.zeros(29)).shape == (30, 4, 4)


def test_every_builtin_robot_and_demo_motion():
    for name in retarget.Robot.builtin_names():
        assert retarget.Robot(name).nq > 0
    for name in retarget.demo_motion_names():
        m = retarget.demo_motion(name, duration=1.0)
        assert m.positions.shape == (31, 25, 3) and np.isfinite(m.positions).all()


def test_motion_round_trips_through_skeleton_csv(tmp_path):
    m = retarget.demo_motion("wave", duration=1.0)
    retarget.write_skeleton_csv(m, str(tmp_path / "wave.csv"))
    back = retarget.read_motion(str(tmp_path / "wave.csv"))
    assert np.array_equal(back.positions, m.positions) and np.array_equal(back.times, m.times)
    assert np.array_equal(back.tracking, m.tracking)


def test_motion_from_numpy_arrays():
    m = retarget.demo_motion("squat", duration=1.0)
    copy = retarget.Motion(np.array(m.positions), times=np.array(m.times), tracking=np.array(m.tracking),
                           hands=np.array(m.hands))
    Q1, _ = retarget.GaLvvjMapper(retarget.Robot("nao")).map_motion(m)
    Q2, _ = retarget.GaLvvjMapper(retarget.Robot("nao")).map_motion(copy)
    assert np.array_equal(Q1, Q2)


def test_trunk_lean_moves_the_ankles_and_needs_feet():
    nao, m = retarget.Robot("nao"), retarget.demo_motion("bow", duration=3.0)
    plain, _ = retarget.GaLvvjMapper(nao).map_motion(m)
    lean, _ = retarget.GaLvvjMapper(nao, trunk_lean=True).map_motion(m)
    ankle = nao.joint_names.index("LAnklePitch")
    assert np.abs(lean[:, ankle] - plain[:, ankle]).max() > 0.1
    with pytest.raises(retarget.Error, match="foot_left"):
        retarget.GaLvvjMapper(retarget.Robot("pepper"), trunk_lean=True)


def test_whole_body_report_flags():
    wb = retarget.WholeBodyPipeline(retarget.Robot("nao"))
    m = retarget.demo_motion("arms-raise", duration=1.0)
    for k in range(len(m)):
        wb.map(m[k])
        r = wb.report
        assert r["rate_limited"] is False and r["step_refused"] is None and r["mode"] == "double"


def test_humanoid_whole_body_options_and_refusal():
    g1 = retarget.Robot("g1")
    wb = retarget.HumanoidWholeBody(g1, balance_enabled=False, humanoid={"max_step": 0.05})
    assert wb.options["balance_enabled"] is False and wb.options["humanoid"]["max_step"] == 0.05
    m = retarget.demo_motion("arms-raise", duration=0.5)
    Q, _ = wb.map_motion(m)
    assert Q.shape == (len(m), g1.nq) and np.isfinite(Q).all()
    with pytest.raises(retarget.Error, match="baxter"):
        retarget.HumanoidWholeBody(retarget.Robot("baxter"))
    with pytest.raises(retarget.Error, match="no GA-LVVJ map"):
        retarget.WholeBodyPipeline(g1)


def test_mapper_by_name_is_the_table_and_equals_each_class():
    # The table (retarget/app/methods.hpp) in its order; Mapper(robot, name) builds what each
    # method's own class builds, bit for bit.
    assert [e["name"] for e in retarget.methods()] == [
        "ga-lvvj", "humanoid", "euler", "triangle", "fabrik", "pic", "pics", "gpdm-pf", "pf"]
    assert [e["name"] for e in retarget.methods() if e["reads_channels"]] == ["euler"]
    m = retarget.demo_motion("wave", duration=1.0)
    cases = [("ga-lvvj", "nao", {}, retarget.GaLvvjMapper),
             ("ga-lvvj", "nao", {"whole_body": True}, retarget.WholeBodyPipeline),
             ("humanoid", "g1", {}, retarget.HumanoidMapper),
             ("humanoid", "g1", {"whole_body": True}, retarget.HumanoidWholeBody),
             ("triangle", "tangy", {}, retarget.TriangleMapper),
             ("fabrik", "baxter", {}, lambda r: retarget.PicMapper(r, "fabrik")),
             ("pics", "yumi", {"softening": 2}, lambda r: retarget.PicMapper(r, "pics", softening=2)),
             ("pf", "nao", {"particles": 50, "seed": 3}, lambda r: retarget.JointSpaceParticleFilter(r, particles=50, seed=3))]
    for method, robot_name, settings, make in cases:
        robot = retarget.Robot(robot_name)
        by_name = retarget.Mapper(robot, method, **settings)
        assert by_name.method == method
        Q, statuses = by_name.map_motion(m)
        Q_class, statuses_class = make(robot).map_motion(m)
        assert np.array_equal(Q, Q_class), (method, settings)
        assert np.array_equal(statuses, statuses_class), (method, settings)
    with pytest.raises(retarget.InvalidArgument, match="no triangle map fits robot 'baxter'"):
        retarget.Mapper(retarget.Robot("baxter"), "triangle")
    with pytest.raises(retarget.InvalidArgument, match="unknown method 'warp'"):
        retarget.Mapper(retarget.Robot("nao"), "warp")
    with pytest.raises(retarget.InvalidArgument, match="goes with ga-lvvj and humanoid only"):
        retarget.Mapper(retarget.Robot("nao"), "pf", whole_body=True)
    with pytest.raises(retarget.InvalidArgument, match="EulerMapper"):
        retarget.Mapper(retarget.Robot("inmoov"), "euler")
    with pytest.raises(retarget.InvalidArgument, match="unknown option 'particle'"):
        retarget.Mapper(retarget.Robot("nao"), "pf", particle=3)


def test_bvh_round_trip(data, tmp_path):
    bvh = retarget.read_bvh(str(data / "bvh" / "cmu_skeleton31_deepmotionediting_example.bvh"))
    retarget.write_bvh(bvh, str(tmp_path / "copy.bvh"))
    back = retarget.read_bvh(str(tmp_path / "copy.bvh"))
    assert back.joint_names == bvh.joint_names and np.array_equal(back.channels, bvh.channels)
    assert len(bvh.to_motion()) == bvh.frame_count


def test_joint_trajectory_round_trip(tmp_path):
    nao = retarget.Robot("nao")
    m = retarget.demo_motion("wave", duration=1.0)
    Q, _ = retarget.GaLvvjMapper(nao).map_motion(m)
    retarget.write_joint_trajectory(str(tmp_path / "q.csv"), nao, m.times, Q)
    times, back, names = retarget.read_joint_trajectory(str(tmp_path / "q.csv"), nao)
    assert names == nao.joint_names and np.array_equal(back, Q) and np.array_equal(times, m.times)


def test_filters_and_single_metrics():
    smooth = retarget.ExponentialSmoothing(3, alpha=0.5)
    smooth.update(np.zeros(3))
    value, status = smooth.update(np.ones(3))
    assert np.allclose(value, 0.5) and status == retarget.Status.OK
    limiter = retarget.RateLimiter(2, max_rate=1.0)
    limiter.update(np.zeros(2), 0.1)
    value, status = limiter.update(np.ones(2), 0.1)
    assert np.allclose(value, 0.1) and retarget.Status.RATE_LIMITED in status
    distance, length = retarget.dtw(np.arange(5.0)[:, None], np.arange(5.0)[:, None])
    assert distance == 0 and length == 5
    nao = retarget.Robot("nao")
    m = retarget.demo_motion("arms-raise", duration=1.0)
    Q, _ = retarget.GaLvvjMapper(nao).map_motion(m)
    w = retarget.joint_similarity(nao, Q, Q)
    assert w["mean"] == 1.0 and w["min"] == 1.0 and w["per_frame"].shape == (len(m),)
    # W of Eq. 11 written out here, on a copy moved by known amounts (every other frame more): a
    # formula that is right only for identical inputs, or a wrong range or power, fails.
    moved = Q.copy()
    moved[:, 0] += 0.1
    moved[::2, 1] -= 0.2
    ranges = nao.upper_limits - nao.lower_limits
    ranges = np.where(np.isfinite(ranges) & (ranges > 0), ranges, 2 * np.pi)
    expected = 1.0 / (1.0 + (((Q - moved) / ranges) ** 2).sum(axis=1))
    w = retarget.joint_similarity(nao, Q, moved)
    assert expected.min() < expected.max() < 1.0
    assert np.allclose(w["per_frame"], expected, rtol=0, atol=1e-12)
    assert w["mean"] == pytest.approx(expected.mean(), abs=1e-12) and w["min"] == pytest.approx(expected.min(), abs=1e-12)
    s = retarget.frame_similarity(m[10], retarget.virtual_skeleton(nao, Q[10]))
    assert 0.9 < s["wbf"] <= 1.0 + 1e-12


def test_status_reads_as_flags():
    s = retarget.Status(3)
    assert retarget.Status.CLAMPED in s and retarget.Status.DEGENERATE_INPUT in s
    assert str(s) == "Status.CLAMPED|DEGENERATE_INPUT"
    assert retarget.Status(0) == retarget.Status.OK


def test_pyproject_version_is_the_librarys():
    text = (pathlib.Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    line = next(l for l in text.splitlines() if l.startswith("version = "))
    assert line.split('"')[1] == retarget.__version__


def test_per_frame_safety_stages_match_apply_safety(data):
    """SafetyPipeline and CartesianSpeedLimiter frame by frame give apply_safety's rows."""
    motion = retarget.read_motion(str(data / "kinect" / "laban_ges01_wavehand_kinect2.csv"))
    dts = np.diff(motion.times, prepend=motion.times[0] - 1.0)
    tangy, nao = retarget.Robot("tangy"), retarget.Robot("nao")
    Q, _ = retarget.TriangleMapper(tangy).map_motion(motion)
    expected, _ = retarget.apply_safety(tangy, Q, motion.times, avoid_collisions=True, max_joint_speed=1.0)
    pipeline = retarget.SafetyPipeline(tangy, max_joint_speed=1.0)
    out = np.empty(tangy.nq)
    rows = [pipeline.update(Q[k], dts[k], out=out)[0].copy() for k in range(len(motion))]
    assert np.array_equal(np.array(rows), expected)
    Q, _ = retarget.TriangleMapper(nao).map_motion(motion)
    expected, _ = retarget.apply_safety(nao, Q, motion.times, max_hand_speed=0.5, max_joint_speed=2.0)
    limiter = retarget.CartesianSpeedLimiter(nao, 0.5, max_joint_speed=2.0)
    rows = [limiter.update(Q[k], dts[k])[0].copy() for k in range(len(motion))]
    assert np.array_equal(np.array(rows), expected)


def test_humanoid_mapper_reads_options_and_a_robot_schema():
    g1 = retarget.Robot("g1")
    # max_step 0.05 rad: below the 0.081 rad the unlimited mapping steps on this motion.
    mapper = retarget.HumanoidMapper(g1, max_step=0.05, restarts=False)
    assert mapper.options["max_step"] == 0.05 and mapper.options["restarts"] is False
    with pytest.raises(retarget.ParseError, match="grond_weight"):
        retarget.HumanoidMapper(g1, grond_weight=1)
    motion = retarget.demo_motion(retarget.demo_motion_names()[0], duration=2.0)
    q, _ = retarget.HumanoidMapper(g1).map_motion(motion)
    steps = np.abs(np.diff(q[1:], axis=0)).max()
    q_slow, _ = mapper.map_motion(motion)
    # The motion needs steps above max_step (else the option is not exercised), and with it set
    # no step exceeds it (the first frame, from rest, is exempt).
    assert steps > 0.05, f"largest unlimited step {steps:.3f} rad: the motion does not exercise max_step"
    assert np.abs(np.diff(q_slow[1:], axis=0)).max() <= 0.05 + 1e-9
    # A schema declaring the left leg absent: its joints stay at the rest pose.
    pinned = retarget.HumanoidMapper(g1, schema={"limbs": {"left_leg": {"end_link": "-"}}})
    q_pinned, _ = pinned.map_motion(motion)
    left_leg = [i for i, n in enumerate(pinned.joint_names) if n.startswith("left_") and
                any(part in n for part in ("hip", "knee", "ankle"))]
    assert len(left_leg) == 6
    assert np.ptp(q_pinned[:, left_leg], axis=0).max() == 0.0
    assert np.ptp(q[:, left_leg], axis=0).max() > 0.0


def test_map_floating_base_gives_the_cli_file_as_arrays(data, cli, scratch):
    # The Python arrays equal the command line's files: our CSV at the motion's frames and
    # Unitree's layout at 30 fps (np.loadtxt with delimiter="," and columns 3:7 x y z w, as
    # BeyondMimic reads it).
    walk = data / "bvh" / "xia_cmu_skeleton31_strutting_walk_01_000.bvh"
    g1 = retarget.Robot("g1")
    motion = retarget.read_motion(str(walk))
    out = retarget.map_floating_base(g1, motion)
    n = len(motion)
    assert out["root_position"].shape == (n, 3)
    assert out["root_quaternion_xyzw"].shape == (n, 4)
    assert out["joint_positions"].shape == (n, g1.nq)
    assert out["contacts"].shape == (n, 2) and out["contacts"].dtype == bool
    assert out["joint_names"] == g1.joint_names
    assert np.allclose(np.linalg.norm(out["root_quaternion_xyzw"], axis=1), 1.0)
    cli("map", walk, "--robot", "g1", "--method", "humanoid", "--floating-base", "-o", scratch / "fb.csv")
    ours = np.genfromtxt(scratch / "fb.csv", delimiter=",", names=True)
    assert np.array_equal(ours["root_x"], out["root_position"][:, 0])
    assert np.array_equal(ours["root_qw"], out["root_quaternion_xyzw"][:, 3])
    assert np.array_equal(ours["contact_left"].astype(bool), out["contacts"][:, 0])
    cli("map", walk, "--robot", "g1", "--method", "humanoid", "--floating-base", "--format", "unitree",
        "--fps", "30", "-o", scratch / "fb_unitree.csv")
    unitree = np.loadtxt(scratch / "fb_unitree.csv", delimiter=",")
    resampled = retarget.map_floating_base(g1, motion, fps=30)
    assert unitree.shape == (len(resampled["time"]), 7 + g1.nq)
    assert np.array_equal(unitree[:, 0:3], resampled["root_position"])
    assert np.array_equal(unitree[:, 3:7], resampled["root_quaternion_xyzw"])
    assert np.array_equal(unitree[:, 7:], resampled["joint_positions"])
    assert resampled["fps"] == 30


def test_datasets_doc_pickle_snippet_runs(data, scratch):
    # docs/datasets.md's two lines, on a shared walk, read back.
    import pickle
    walk = str(data / "bvh" / "xia_cmu_skeleton31_strutting_walk_01_000.bvh")
    out = retarget.map_floating_base(retarget.Robot("g1"), retarget.read_motion(walk), fps=30)
    pickle.dump({"fps": out["fps"], "root_pos": out["root_position"], "root_rot": out["root_quaternion_xyzw"],
                 "dof_pos": out["joint_positions"]}, open(scratch / "walk_g1.pkl", "wb"))
    back = pickle.load(open(scratch / "walk_g1.pkl", "rb"))
    assert back["fps"] == 30 and back["root_rot"].shape[1] == 4 and back["dof_pos"].shape[1] == 29
    qpos = np.hstack([out["root_position"], out["root_quaternion_xyzw"][:, [3, 0, 1, 2]], out["joint_positions"]])
    np.savez(scratch / "walk_g1.npz", qpos=qpos, fps=out["fps"])
    saved = np.load(scratch / "walk_g1.npz")
    # MuJoCo's order puts w first: the xyzw array's last column.
    assert np.array_equal(saved["qpos"][:, 3], out["root_quaternion_xyzw"][:, 3])
    assert saved["qpos"].shape == (len(out["time"]), 7 + 29)
