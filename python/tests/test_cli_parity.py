"""The bindings against the command line on the shared recordings, bit for bit.

For every method (GA-LVVJ, whole body, triangle, FABRIK/PIC/PICs, joint-space PF, GPDM-PF,
Euler/BVH, and the safety stages after a mapper), `retarget map` writes a joint-angle CSV; the
same mapping through the bindings gives exactly the same doubles (the CSV holds each value's
shortest round-trip text, parsed back at full precision). Then `retarget eval --json` of that
CSV and the bindings' evaluate_* on the same angles give exactly the same figures.
"""
import numpy as np
import pytest

import retarget

K = "kinect/"
B = "bvh/"
WAVE = K + "laban_ges01_wavehand_kinect2.csv"
DRAW = K + "laban_ges03_drawlines_kinect2.csv"
COME = K + "laban_ges04_comehere_kinect2.csv"
WING = K + "laban_ges06_chickenwing_kinect2.csv"
KINECT = [WAVE, DRAW, COME, WING, K + "laban_kinectreader_joints_closerange_kinect2.csv",
          K + "keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", K + "keraal_G3_kinect2_RTK_trunk_rotation_seated.txt"]
AXIS = B + "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh"
CMU = B + "cmu_skeleton31_deepmotionediting_example.bvh"
MIXAMO = B + "mixamo_rig_55j_fingers_20tab_test_freebvh.bvh"
WALK = B + "xia_cmu_skeleton31_neutral_walk_01_000.bvh"


def ga(robot):
    return retarget.GaLvvjMapper(robot)


# (id, robot, motion, `retarget map` arguments, mapper factory, safety keyword arguments)
CASES = [(f"ga-lvvj-nao-{f.split('/')[-1][:24]}", "nao", f, ["--method", "ga-lvvj"], ga, None)
         for f in KINECT + [CMU, MIXAMO, AXIS, WALK]]
CASES += [
    ("ga-lvvj-pepper", "pepper", WAVE, ["--method", "ga-lvvj"], ga, None),
    ("ga-lvvj-nao-urdf", "urdf/nao_h25_v50.urdf", COME, ["--method", "ga-lvvj"], ga, None),
    ("whole-body-wave", "nao", WAVE, ["--method", "ga-lvvj", "--whole-body"], retarget.WholeBodyPipeline, None),
    ("whole-body-walk", "nao", WALK, ["--method", "ga-lvvj", "--whole-body"], retarget.WholeBodyPipeline, None),
    ("whole-body-no-balance", "nao", COME, ["--method", "ga-lvvj", "--whole-body", "--no-balance"],
     lambda r: retarget.WholeBodyPipeline(r, balance_enabled=False), None),
    ("humanoid-whole-body-g1-walk", "g1", WALK, ["--method", "humanoid", "--whole-body"],
     retarget.HumanoidWholeBody, None),
    ("humanoid-g1", "g1", COME, ["--method", "humanoid"], retarget.HumanoidMapper, None),
    ("humanoid-h1-walk", "h1", WALK, ["--method", "humanoid"], retarget.HumanoidMapper, None),
    ("triangle-tangy", "tangy", WAVE, ["--method", "triangle"], retarget.TriangleMapper, None),
    ("triangle-nao", "nao", WING, ["--method", "triangle"], retarget.TriangleMapper, None),
    ("triangle-pepper", "pepper", DRAW, ["--method", "triangle"], retarget.TriangleMapper, None),
    ("fabrik-baxter", "baxter", WAVE, ["--method", "fabrik"], lambda r: retarget.PicMapper(r, "fabrik"), None),
    ("pic-baxter", "baxter", DRAW, ["--method", "pic"], lambda r: retarget.PicMapper(r, "pic"), None),
    ("pic-yumi", "yumi", WING, ["--method", "pic"], lambda r: retarget.PicMapper(r), None),
    ("pic-nao-force-octants", "nao", COME, ["--method", "pic", "--force-octants"],
     lambda r: retarget.PicMapper(r, force_octants=True), None),
    ("pics-baxter-k2", "baxter", WAVE, ["--method", "pics", "--softening", "2"],
     lambda r: retarget.PicMapper(r, "pics", softening=2), None),
    ("pics-yumi-always", "yumi", DRAW, ["--method", "pics", "--soften-always"],
     lambda r: retarget.PicMapper(r, "pics", soften_always=True), None),
    ("pf-nao", "nao", WAVE, ["--method", "pf"], retarget.JointSpaceParticleFilter, None),
    ("pf-pepper-options", "pepper", COME, ["--method", "pf", "--particles", "50", "--seed", "7", "--pf-noise", "0.03"],
     lambda r: retarget.JointSpaceParticleFilter(r, particles=50, seed=7, noise=0.03), None),
    ("safety-ga-lvvj-smooth-rate", "nao", WAVE, ["--method", "ga-lvvj", "--smooth", "0.3", "--max-joint-speed", "2"],
     ga, dict(smooth=0.3, max_joint_speed=2.0)),
    ("safety-triangle-hands", "nao", WING, ["--method", "triangle", "--max-hand-speed", "0.5"],
     retarget.TriangleMapper, dict(max_hand_speed=0.5)),
    ("safety-humanoid-g1-hands", "g1", COME, ["--method", "humanoid", "--max-hand-speed", "0.3"],
     retarget.HumanoidMapper, dict(max_hand_speed=0.3)),
    ("safety-triangle-avoid", "tangy", WAVE, ["--method", "triangle", "--avoid-collisions"],
     retarget.TriangleMapper, dict(avoid_collisions=True)),
]
EULER = [("euler-axis-neuron", AXIS), ("euler-cmu", CMU), ("euler-mixamo", MIXAMO), ("euler-xia-walk", WALK)]


def robot_arg(data, robot):
    return str(data / robot) if robot.endswith(".urdf") else robot


def map_with_cli(cli, data, scratch, case_id, robot, motion, args):
    out = scratch / f"{case_id}.csv"
    cli("map", data / motion, "--robot", robot_arg(data, robot), *args, "-o", out)
    return out


def assert_same_angles(robot, Q, times, csv):
    cli_times, cli_Q, names = retarget.read_joint_trajectory(str(csv), robot)
    assert names == robot.joint_names
    assert Q.shape == cli_Q.shape
    # Bit for bit: the same doubles, not merely close ones.
    assert np.array_equal(Q, cli_Q), f"largest difference {np.max(np.abs(Q - cli_Q))}"
    assert np.array_equal(np.asarray(times), cli_times)


@pytest.mark.parametrize("case_id,robot_name,motion,args,factory,safety", CASES, ids=[c[0] for c in CASES])
def test_map_matches_cli(cli, data, scratch, case_id, robot_name, motion, args, factory, safety):
    csv = map_with_cli(cli, data, scratch, case_id, robot_name, motion, args)
    robot = retarget.Robot(robot_arg(data, robot_name))
    m = retarget.read_motion(str(data / motion))
    Q, statuses = factory(robot).map_motion(m)
    assert statuses.shape == (len(m),) and statuses.dtype == np.uint32
    if safety:
        Q, _ = retarget.apply_safety(robot, Q, m.times, **safety)
    assert_same_angles(robot, Q, m.times, csv)


@pytest.mark.parametrize("case_id,motion", EULER, ids=[c[0] for c in EULER])
def test_euler_matches_cli(cli, data, scratch, case_id, motion):
    csv = map_with_cli(cli, data, scratch, case_id, "inmoov", motion, ["--method", "euler"])
    robot = retarget.Robot("inmoov")
    bvh = retarget.read_bvh(str(data / motion))
    Q, _ = retarget.EulerMapper(robot, bvh).map_motion(bvh)
    assert_same_angles(robot, Q, np.arange(bvh.frame_count) * bvh.frame_time, csv)


@pytest.fixture(scope="session")
def gpdm_model(cli, scratch):
    """A GPDM learned by the command line from NAO's GA-LVVJ mapping of the demo wave."""
    motion, angles, model = scratch / "gpdm_wave.csv", scratch / "gpdm_wave_angles.csv", scratch / "wave.gpdm"
    cli("demo", "wave", "-o", motion)
    cli("map", motion, "--robot", "nao", "--method", "ga-lvvj", "-o", angles)
    cli("learn", "gpdm", angles, "--robot", "nao", "--iterations", "30", "--every", "3", "-o", model)
    return model


def test_gpdm_pf_matches_cli(cli, data, scratch, gpdm_model):
    csv = map_with_cli(cli, data, scratch, "gpdm-pf", "nao", WAVE,
                       ["--method", "gpdm-pf", "--model", gpdm_model, "--particles", "20", "--seed", "3"])
    robot = retarget.Robot("nao")
    m = retarget.read_motion(str(data / WAVE))
    Q, _ = retarget.GpdmParticleFilter(robot, str(gpdm_model), particles=20, seed=3).map_motion(m)
    assert_same_angles(robot, Q, m.times, csv)


@pytest.fixture(scope="session")
def gpdm_model_from_recording(cli, scratch):
    """A GPDM learned by the command line from the demo wave itself (fit threshold measured)."""
    motion, model = scratch / "gpdm_wave_rec.csv", scratch / "wave_rec.gpdm"
    cli("demo", "wave", "-o", motion)
    cli("learn", "gpdm", motion, "--robot", "nao", "--iterations", "30", "--every", "3", "-o", model)
    return model


def test_gpdm_pf_fallback_matches_cli(cli, data, scratch, gpdm_model_from_recording):
    """The fit threshold and the GA-LVVJ fallback: the same angles and statuses as `retarget map`."""
    csv = map_with_cli(cli, data, scratch, "gpdm-pf-fallback", "nao", WAVE,
                       ["--method", "gpdm-pf", "--model", gpdm_model_from_recording, "--fallback", "ga-lvvj"])
    robot = retarget.Robot("nao")
    m = retarget.read_motion(str(data / WAVE))
    Q, statuses = retarget.GpdmParticleFilter(robot, str(gpdm_model_from_recording), fallback="ga-lvvj").map_motion(m)
    assert_same_angles(robot, Q, m.times, csv)
    with pytest.raises(retarget.InvalidArgument, match="fallback"):
        retarget.GpdmParticleFilter(robot, str(gpdm_model_from_recording), fallback="joint-pf")


def test_per_frame_map_equals_map_motion(data):
    """map() frame by frame after reset() gives map_motion()'s rows, for a mapper with state."""
    robot = retarget.Robot("baxter")
    m = retarget.read_motion(str(data / DRAW))
    mapper = retarget.PicMapper(robot, "pics")
    Q, statuses = mapper.map_motion(m)
    mapper.reset()
    for k in range(len(m)):
        q, status = mapper.map(m[k])
        assert np.array_equal(q, Q[k])
        assert status == retarget.Status(int(statuses[k]))


# --- metrics: `retarget eval --json` against evaluate_* on the same angles

METRIC_CASES = [
    ("similarity", "ga-lvvj-nao-laban_ges01", "nao", WAVE, None),
    ("similarity", "pf-nao", "nao", WAVE, None),
    ("similarity", "ga-lvvj-pepper", "pepper", WAVE, None),
    # The humanoids the automatic binding gives a virtual skeleton (one code path since issue 58:
    # Python refused them before while the command line measured them).
    ("similarity", "humanoid-g1", "g1", COME, None),
    ("similarity", "humanoid-h1-walk", "h1", WALK, None),
    ("physical", "humanoid-g1", "g1", COME, None),
    ("pose", "pic-baxter", "baxter", DRAW, None),
    ("pose", "fabrik-baxter", "baxter", WAVE, None),
    ("pose", "pics-yumi-always", "yumi", DRAW, None),
    ("physical", "ga-lvvj-nao-laban_ges01", "nao", WAVE, None),
    ("physical", "whole-body-walk", "nao", WALK, None),
    ("physical", "safety-triangle-avoid", "tangy", WAVE, None),
]


@pytest.mark.parametrize("family,case_id,robot_name,motion,_", METRIC_CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in METRIC_CASES])
def test_metrics_match_cli_eval(cli, eval_json, data, scratch, family, case_id, robot_name, motion, _):
    case = next(c for c in CASES if c[0].startswith(case_id))
    case_id = case[0]
    csv = scratch / f"{case_id}.csv"
    if not csv.exists():
        map_with_cli(cli, data, scratch, case_id, robot_name, motion, case[3])
    expected = eval_json(data / motion, csv, robot_name, family)
    robot = retarget.Robot(robot_name)
    m = retarget.read_motion(str(data / motion))
    times, Q, _ = retarget.read_joint_trajectory(str(csv), robot)
    if family == "similarity":
        got = retarget.evaluate_similarity(robot, m, Q)
    elif family == "pose":
        got = retarget.evaluate_pose(robot, m, Q)
    else:
        got = retarget.evaluate_physical(robot, m, Q, times)
    assert got == expected


@pytest.mark.parametrize("case_id,motion", EULER[:3], ids=[c[0] for c in EULER[:3]])
def test_dtw_matches_cli_eval(cli, eval_json, data, scratch, case_id, motion):
    csv = scratch / f"{case_id}.csv"
    if not csv.exists():
        map_with_cli(cli, data, scratch, case_id, "inmoov", motion, ["--method", "euler"])
    expected = eval_json(data / motion, csv, "inmoov", "dtw")
    robot = retarget.Robot("inmoov")
    bvh = retarget.read_bvh(str(data / motion))
    _, Q, names = retarget.read_joint_trajectory(str(csv))
    assert retarget.evaluate_dtw(robot, bvh, Q, joint_names=names) == expected


def test_collision_matches_cli_eval(cli, eval_json, data, scratch):
    """W of the avoided angles against the plain triangle mapping (the method named in the file)."""
    csv = scratch / "wave_triangle.csv"
    cli("map", data / WAVE, "--robot", "tangy", "--method", "triangle", "--avoid-collisions", "-o", csv)
    expected = eval_json(data / WAVE, csv, "tangy", "collision")
    robot = retarget.Robot("tangy")
    m = retarget.read_motion(str(data / WAVE))
    plain, _ = retarget.TriangleMapper(robot).map_motion(m)
    safe, _ = retarget.apply_safety(robot, plain, m.times, avoid_collisions=True)
    got = retarget.evaluate_collision(robot, safe, plain=plain, reference=expected["reference"])
    assert got == expected
    assert expected["reference"] == "triangle"


def test_bvh_schema_file_matches_cli(cli, data, scratch):
    """A rig schema file (`retarget schema suggest`), applied as `retarget --schema` applies it."""
    schema = scratch / "mixamo.schema"
    schema.write_text(cli("schema", "suggest", data / MIXAMO).stdout)
    csv = scratch / "schema_ga-lvvj.csv"
    cli("--schema", schema, "map", data / MIXAMO, "--robot", "nao", "--method", "ga-lvvj", "-o", csv)
    robot = retarget.Robot("nao")
    m = retarget.read_motion(str(data / MIXAMO), schema=str(schema))
    Q, _ = retarget.GaLvvjMapper(robot).map_motion(m)
    assert_same_angles(robot, Q, m.times, csv)
    assert m.extra_positions.shape == (len(m), len(m.extra_joint_names), 3)
