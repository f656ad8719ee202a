"""Loading from Python: files and strings, named formats, LoadError with located diagnostics,
joint information, conversion, plugins and the hardware catalog."""

import math
from pathlib import Path

import numpy as np
import pytest

import interlink
from conftest import DATA, SOURCE_DIR, cli_frames

ARM = SOURCE_DIR / "samples/models/arm.sdf"
WORKCELL = SOURCE_DIR / "samples/models/workcell.sdf"

URDF_TEXT = """<robot name="two">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="prismatic">
    <parent link="a"/><child link="b"/>
    <origin xyz="0 0 1" rpy="0 0 0"/>
    <axis xyz="1 0 0"/>
    <limit lower="-0.5" upper="0.25" effort="10" velocity="2"/>
  </joint>
</robot>
"""

BROKEN_SDF = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="m">
    <link name="a"/>
    <joint name="j1" type="revolute">
      <parent>a</parent>
      <child>missing</child>
      <axis><xyz>0 0 1</xyz></axis>
    </joint>
    <frame name="f" attached_to="nowhere"/>
  </model>
</sdf>
"""


def test_load_file_gives_dofs_frames_and_no_errors():
    m = interlink.load(ARM)
    assert m.ok
    assert m.format == "sdformat"
    assert m.root == "arm"
    assert m.dofs == ["shoulder", "elbow"]
    assert not [d for d in m.diagnostics if d.severity == "error"]
    frames = m.frames()
    assert set(frames) == {"base", "upper", "fore", "shoulder", "elbow", "tool"}
    assert all(pose.shape == (4, 4) for pose in frames.values())
    np.testing.assert_allclose(frames["tool"][:3, 3], [0, 0, 1.0], atol=1e-12)
    assert isinstance(m.pose("tool"), np.ndarray)


def test_load_accepts_pathlib_and_resource_paths():
    m = interlink.load(Path(WORKCELL), resource_paths=[SOURCE_DIR / "samples/models"])
    assert m.root == "world"
    assert "left_arm::tool" in m.frames()
    assert m.dofs == ["left_arm::shoulder", "left_arm::elbow", "right_arm::shoulder", "right_arm::elbow"]


def test_configuration_forms_agree():
    m = interlink.load(ARM)
    by_list = m.pose("tool", q=[0.3, -0.7])
    by_array = m.pose("tool", q=np.array([0.3, -0.7]))
    by_dict = m.pose("tool", q={"elbow": -0.7, "shoulder": 0.3})
    np.testing.assert_array_equal(by_list, by_array)
    np.testing.assert_array_equal(by_list, by_dict)
    # Partial dicts leave the other DOFs at zero.
    np.testing.assert_array_equal(m.pose("tool", q={"shoulder": 0.3}), m.pose("tool", q=[0.3, 0.0]))
    np.testing.assert_array_equal(m.configuration("zero"), [0.0, 0.0])


def test_relative_pose_is_inverse_composition():
    m = interlink.load(WORKCELL)
    q = [0.4, -0.2, 0.9, 0.1]
    X_WA = m.pose("left_arm::tool", q)
    X_WB = m.pose("right_arm::fore", q)
    X_BA = m.pose("left_arm::tool", q, relative_to="right_arm::fore")
    np.testing.assert_allclose(X_BA, np.linalg.inv(X_WB) @ X_WA, atol=1e-12)
    frames = m.frames(q, relative_to="right_arm::fore")
    np.testing.assert_allclose(frames["left_arm::tool"], X_BA, atol=1e-12)
    np.testing.assert_allclose(frames["right_arm::fore"], np.eye(4), atol=1e-12)


def test_bad_queries_raise_value_error_naming_the_problem():
    m = interlink.load(ARM)
    with pytest.raises(ValueError, match="no frame named 'nope'"):
        m.pose("nope")
    with pytest.raises(ValueError, match="expected 2"):
        m.pose("tool", q=[1.0])
    with pytest.raises(ValueError, match="no DOF named 'wrist'"):
        m.frames(q={"wrist": 1.0})
    with pytest.raises(TypeError, match="DOF names"):
        m.pose("tool", q={"shoulder": "fast"})
    with pytest.raises(ValueError, match="non-finite"):
        m.jacobian("tool", q=[math.nan, 0.0])
    with pytest.raises(ValueError, match="subtree"):
        m.mass_properties(subtree="shoulder")


def test_invalid_file_raises_load_error_with_every_located_diagnostic(tmp_path):
    path = tmp_path / "broken.sdf"
    path.write_text(BROKEN_SDF)
    with pytest.raises(interlink.LoadError) as caught:
        interlink.load(path)
    errors = caught.value.errors
    assert len(errors) >= 2, [str(d) for d in errors]  # every error, not the first
    codes = {d.code for d in errors}
    assert "JOINT_CHILD_LINK_INVALID" in codes
    assert "FRAME_ATTACHED_TO_INVALID" in codes
    for d in errors:
        assert d.file.endswith("broken.sdf")
        assert d.line > 0 and d.column > 0
        assert str(d).startswith(f"{d.file}:{d.line}:{d.column}: error[{d.code}]")
    joint_error = next(d for d in errors if d.code == "JOINT_CHILD_LINK_INVALID")
    assert joint_error.line == 5
    assert "broken.sdf" in str(caught.value)


def test_missing_file_and_unknown_format_are_load_errors(tmp_path):
    with pytest.raises(interlink.LoadError) as caught:
        interlink.load(tmp_path / "absent.sdf")
    assert caught.value.errors[0].code == "FILE_READ"
    with pytest.raises(interlink.LoadError) as caught:
        interlink.loads(URDF_TEXT, format="no_such_format")
    assert caught.value.errors[0].code == "NO_PARSER"
    assert "urdf" in caught.value.errors[0].message  # lists what is loaded


def test_loads_with_named_format_ignores_the_extension():
    m = interlink.loads(URDF_TEXT, format="urdf")
    assert m.format == "urdf"
    assert m.dofs == ["j"]
    np.testing.assert_allclose(m.pose("b", q=[0.25])[:3, 3], [0.25, 0, 1], atol=1e-12)
    by_name = interlink.loads(URDF_TEXT, file_name="two.urdf")
    np.testing.assert_array_equal(by_name.pose("b", q=[0.1]), m.pose("b", q=[0.1]))
    # An extension no plugin claims: the sniffers recognise the URDF content.
    assert interlink.loads(URDF_TEXT, file_name="two.txt").format == "urdf"
    # Content no plugin recognises, under such an extension, is refused by name.
    with pytest.raises(interlink.LoadError) as caught:
        interlink.loads("neither XML nor JSON", file_name="two.txt")
    assert caught.value.errors[0].code == "NO_PARSER"


def test_load_file_with_named_format(tmp_path):
    path = tmp_path / "robot.description"
    path.write_text(URDF_TEXT)
    m = interlink.load(path, format="urdf")
    assert m.dofs == ["j"]
    with pytest.raises(interlink.LoadError):
        interlink.load(path, format="sdformat")  # the named plugin is used, and refuses a <robot> root


def test_joint_information_in_dof_order():
    m = interlink.loads(URDF_TEXT, format="urdf")
    (j,) = m.joints
    assert (j.name, j.type, j.first_dof, j.dof_count) == ("j", "prismatic", 0, 1)
    np.testing.assert_allclose(j.axis, [1, 0, 0])
    assert (j.lower, j.upper, j.effort, j.velocity) == ([-0.5], [0.25], [10.0], [2.0])
    assert (j.parent_link, j.child_link) == ("a", "b")
    arm = interlink.load(ARM)
    assert [j.name for j in arm.joints] == arm.dofs
    assert arm.joints[1].lower == [-2.0] and arm.joints[1].upper == [2.0]
    np.testing.assert_allclose(arm.joints[0].axes, [[0, 1, 0]])


def test_initial_positions_from_the_file():
    path = DATA / "shift/slider_crank/slider_crank.json"
    m = interlink.load(path)
    q0 = m.configuration("initial")
    assert len(q0) == len(m.dofs) and np.any(q0 != 0)
    for j in m.joints:
        np.testing.assert_array_equal(q0[j.first_dof:j.first_dof + j.dof_count], j.initial)
    expected, _ = cli_frames(path, positions=q0)
    frames = m.frames("initial")
    for name, (position, _) in expected.items():
        np.testing.assert_allclose(frames[name][:3, 3], position, atol=1e-9)


@pytest.mark.parametrize("extension", [".sdf", ".urdf", ".json", ".dot"])
def test_convert_writes_the_format_of_the_extension(tmp_path, extension):
    m = interlink.load(ARM)
    out = tmp_path / f"arm{extension}"
    warnings = m.convert(str(out))
    assert all(d.severity != "error" for d in warnings)
    text = out.read_text()
    assert text
    if extension in (".sdf", ".urdf"):
        again = interlink.load(out)
        q = [0.5, -1.0]
        for name in ("base", "upper", "fore"):
            np.testing.assert_allclose(again.pose(name, q), m.pose(name, q), atol=1e-9)
    if extension == ".json":
        assert '"frames"' in text
    if extension == ".dot":
        assert text.startswith("digraph")


def test_convert_refuses_an_unknown_extension(tmp_path):
    m = interlink.load(ARM)
    with pytest.raises(ValueError, match=r"\.sdf.*\.urdf.*\.json.*\.dot"):
        m.convert(str(tmp_path / "arm.xyz"))


def test_plugins_lists_every_bundled_format_and_hardware_family():
    report = interlink.plugins()
    names = report.names()
    for expected in ("sdformat", "urdf", "hrdf", "juice", "shift", "skel"):
        assert expected in names
    assert all(p.path and p.version for p in report)
    sdformat = next(p for p in report if p.name == "sdformat")
    assert sdformat.kind == "format" and ".sdf" in sdformat.extensions
    assert report.refused == []
    families = interlink.hardware.families()
    assert {"hebi_x", "hebi_r", "hebi_t"} <= {f.plugin for f in families}
    x = next(f for f in families if f.plugin == "hebi_x")
    assert "X5-4" in x.types


def test_docstrings_everywhere():
    public = [interlink.load, interlink.loads, interlink.plugins, interlink.hardware.families, interlink.LoadError,
              interlink.Model, interlink.Diagnostic, interlink.JointInfo, interlink.Plugin, interlink.PluginReport]
    for item in public:
        assert item.__doc__ and item.__doc__.strip(), item
    for name in ("frames", "pose", "mass_properties", "jacobian", "convert", "tree", "configuration"):
        assert getattr(interlink.Model, name).__doc__, name
    stubs = Path(interlink.__file__).parent / "_interlink.pyi"
    assert stubs.exists() and "def jacobian" in stubs.read_text()
    assert (Path(interlink.__file__).parent / "py.typed").exists()


def test_frames_match_the_cli_at_a_nonzero_configuration():
    m = interlink.load(ARM)
    q = [0.3, -1.1]
    expected, dofs = cli_frames(ARM, positions=q)
    assert dofs == m.dofs
    frames = m.frames(q)
    assert set(frames) == set(expected)
    for name, (position, _) in expected.items():
        np.testing.assert_allclose(frames[name][:3, 3], position, atol=1e-9)
