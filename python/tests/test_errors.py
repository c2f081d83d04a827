"""retarget's errors as Python exceptions, with the library's message (file, line, field)."""
import json

import numpy as np
import pytest

import retarget


def test_exception_hierarchy():
    assert issubclass(retarget.Error, RuntimeError)
    for error in (retarget.InvalidArgument, retarget.ParseError):
        assert issubclass(error, retarget.Error) and issubclass(error, ValueError)


def test_broken_bvh_names_file_and_line(tmp_path):
    path = tmp_path / "broken.bvh"
    path.write_text("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 zz\n")
    for read in (retarget.read_motion, retarget.read_bvh):
        with pytest.raises(retarget.ParseError) as caught:
            read(str(path))
        assert f"{path}:4:" in str(caught.value) and "OFFSET" in str(caught.value)
        assert caught.value.file == str(path) and caught.value.line == 4


def test_broken_kinect_csv_names_file_and_line(data, tmp_path):
    lines = (data / "kinect" / "laban_ges01_wavehand_kinect2.csv").read_text().splitlines()
    fields = lines[6].split(",")
    fields[5] = "not-a-number"
    lines[6] = ",".join(fields)
    path = tmp_path / "broken_kinect.csv"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(retarget.ParseError) as caught:
        retarget.read_motion(str(path))
    assert caught.value.line == 7 and f"{path}:7:" in str(caught.value)


def test_missing_and_unrecognised_files(tmp_path):
    with pytest.raises(retarget.ParseError, match="cannot open"):
        retarget.read_motion(str(tmp_path / "missing.bvh"))
    (tmp_path / "x.dat").write_text("hello\n")
    with pytest.raises(retarget.ParseError, match="unrecognised motion file"):
        retarget.read_motion(str(tmp_path / "x.dat"))


def test_bad_urdf_names_the_file(tmp_path):
    path = tmp_path / "bad.urdf"
    path.write_text("<robot name='r'><link name='a'/><joint name='j' type='revolute'><parent link='a'/>"
                    "<child link='missing'/></joint></robot>")
    with pytest.raises(retarget.ParseError) as caught:
        retarget.Robot(str(path))
    assert str(path) in str(caught.value)


def test_bad_mjcf_names_the_file_and_line(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text("<mujoco>\n<worldbody>\n<body name='b'><joint type='ball'/></body>\n</worldbody>\n</mujoco>\n")
    with pytest.raises(retarget.ParseError, match="bad.xml:3: <joint>: ball joints are not supported"):
        retarget.Robot(str(path))


def test_unknown_robot_lists_the_builtin_names():
    with pytest.raises(retarget.InvalidArgument, match="unknown built-in robot 'nao2'.*nao, pepper"):
        retarget.Robot("nao2")


def test_option_errors_name_the_field(tmp_path):
    nao = retarget.Robot("nao")
    with pytest.raises(retarget.ParseError, match="/jump_cost.*got -1"):
        retarget.GaLvvjMapper(nao, jump_cost=-1)
    with pytest.raises(retarget.ParseError, match='unknown key "jump_costt"'):
        retarget.GaLvvjMapper(nao, jump_costt=1)
    with pytest.raises(retarget.InvalidArgument, match="unknown option 'foo'"):
        retarget.PicMapper(retarget.Robot("baxter"), foo=1)
    with pytest.raises(retarget.InvalidArgument, match="algorithm"):
        retarget.PicMapper(retarget.Robot("baxter"), algorithm="pix")
    with pytest.raises(retarget.InvalidArgument, match=r"PicOptions::continuity_weight \(got -1"):
        retarget.PicMapper(retarget.Robot("baxter"), continuity_weight=-1)
    retarget.PicMapper(retarget.Robot("baxter"), continuity_weight=0, continuity_gain=10)  # 0 = the fit as before
    with pytest.raises(retarget.InvalidArgument, match="no triangle map fits robot 'baxter'"):
        retarget.TriangleMapper(retarget.Robot("baxter"))


def test_json_config_file_error_has_its_line(tmp_path):
    """The file `retarget map --config` takes: the same message, file and line."""
    config = tmp_path / "options.json"
    config.write_text('{\n  "jump_cost": 0.2,\n  "continuity_gain": "fast"\n}\n')
    with pytest.raises(retarget.ParseError) as caught:
        retarget.GaLvvjMapper(retarget.Robot("nao"), options=str(config))
    assert caught.value.file == str(config) and caught.value.line == 3
    assert "continuity_gain" in str(caught.value)
    # A good file, then a keyword argument on top of it.
    config.write_text(json.dumps({"jump_cost": 0.2}))
    mapper = retarget.GaLvvjMapper(retarget.Robot("nao"), options=str(config), continuity_gain=2.0)
    assert mapper.options["jump_cost"] == 0.2 and mapper.options["continuity_gain"] == 2.0


def test_wrong_shapes_are_value_errors():
    mapper = retarget.GaLvvjMapper(retarget.Robot("nao"))
    with pytest.raises(ValueError):
        mapper.map(np.zeros((3, 3)))
    with pytest.raises(ValueError):
        mapper.map(np.zeros((25, 3)), out=np.zeros(3))
    with pytest.raises(TypeError):
        mapper.map("frame")
    with pytest.raises(retarget.InvalidArgument):
        retarget.evaluate_similarity(retarget.Robot("nao"), retarget.demo_motion("wave"), np.zeros((3, 25)))


def test_per_frame_call_never_raises_on_bad_values():
    """NaN and inf positions: the real-time call reports, it does not raise."""
    mapper = retarget.GaLvvjMapper(retarget.Robot("nao"))
    q, status = mapper.map(np.full((25, 3), np.nan))
    assert np.all(np.isfinite(q)) and retarget.Status.DEGENERATE_INPUT in status
    q, status = mapper.map(np.full((25, 3), np.inf))
    assert np.all(np.isfinite(q))
