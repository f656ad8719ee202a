"""The model as Python objects (issue 35): links, every joint, frames, models and the tree, each
compared with what the CLI says about the same file (`interlink convert --to json`, `frames
--json`, `tree`); positions by name in Python and the CLI; vectorised poses; writers."""

import json
import math

import numpy as np
import pytest

import interlink
from conftest import SOURCE_DIR, run_cli

PANDA = SOURCE_DIR / "tests/data/example-robot-data/panda.urdf"   # Franka Emika Panda, Apache-2.0
UR5 = SOURCE_DIR / "tests/data/example-robot-data/ur5_robot.urdf"
HUMANOID = SOURCE_DIR / "tests/data/mujoco/model/humanoid/humanoid.xml"  # MuJoCo's humanoid: MJCF, a free joint
WORKCELL = SOURCE_DIR / "samples/models/workcell.sdf"               # an SDFormat world of included arms


def core_json(path):
    """`interlink convert PATH -o - --to json` as a dict."""
    return json.loads(run_cli("convert", path, "-o", "-", "--to", "json").stdout)


def test_links_of_the_panda_equal_the_core_model_json():
    m = interlink.load(PANDA)
    top = core_json(PANDA)["document"]["model"]
    by_name = {link["name"]: link for link in top["links"]}
    assert [link.name for link in m.links] == [link["name"] for link in top["links"]]
    for link in m.links:
        expected = by_name[link.name]
        inertial = expected["inertial"]
        assert link.mass == inertial["mass"]
        np.testing.assert_allclose(link.com, inertial["center_of_mass"]["position"], atol=1e-15)
        np.testing.assert_allclose(link.inertia, inertial["inertia"], atol=1e-15)
        assert len(link.visuals) == len(expected.get("visuals", []))
        assert len(link.collisions) == len(expected.get("collisions", []))
    link1 = m.link("panda_link1")
    assert link1.mass == 4.970684  # panda.urdf line 37: <mass value="4.970684"/>
    assert link1.inertia.shape == (3, 3) and link1.com.shape == (3,)
    visual = link1.visuals[0]
    assert visual.kind == "visual" and visual.link == "panda_link1"
    assert visual.geometry.type == "mesh"
    assert visual.geometry.mesh_uri.startswith("package://") and visual.geometry.mesh_uri.endswith(".dae")
    assert visual.geometry.mesh_path is None  # meshes are not vendored
    with pytest.raises(KeyError):
        m.link("no_such_link")


def test_every_joint_of_the_panda_fixed_ones_included():
    m = interlink.load(PANDA)
    names = [j.name for j in m.joints]
    assert "panda_joint8" in names and "panda_hand_joint" in names  # fixed joints are listed
    assert [j.name for j in m.joints if j.dof_count] == m.dofs    # DOF joints in DOF order
    fixed = m.joint("panda_joint8")
    assert (fixed.type, fixed.dof_count, fixed.first_dof) == ("fixed", 0, -1)
    assert (fixed.parent_link, fixed.child_link) == ("panda_link7", "panda_link8")
    np.testing.assert_allclose(fixed.origin[:3, 3], [0, 0, 0.107], atol=1e-15)  # <origin xyz="0 0 0.107"/>
    j4 = m.joint("panda_joint4")
    assert j4.type == "revolute" and j4.lower == [-3.0718] and j4.upper == [-0.0698]
    assert j4.effort == [87.0] and j4.velocity == [2.175]
    np.testing.assert_allclose(j4.axis, [0, 0, 1])
    np.testing.assert_allclose(j4.origin[:3, 3], [0.0825, 0, 0], atol=1e-15)
    finger = m.joint("panda_finger_joint2")
    assert finger.mimic is not None and finger.mimic.joint == "panda_finger_joint1"
    assert (finger.mimic.multiplier, finger.mimic.offset) == (1.0, 0.0)
    assert m.joint("panda_finger_joint1").mimic is None
    # Origins compose to the CLI's zero-configuration frames.
    frames = {f["name"]: f for f in json.loads(run_cli("frames", PANDA, "--json").stdout)["frames"]}
    for j in m.joints:
        parent = m.pose(j.parent_link) if j.parent_link else np.eye(4)
        np.testing.assert_allclose((parent @ j.origin)[:3, 3], frames[j.name]["position"], atol=1e-12)


def test_joint_dynamics_and_limits_of_the_ur5():
    m = interlink.load(UR5)
    top = core_json(UR5)["document"]["model"]
    by_name = {j["name"]: j for j in top["joints"]}
    assert sorted(j.name for j in m.joints) == sorted(by_name)
    for j in m.joints:
        expected = by_name[j.name]
        assert j.type == expected["type"]
        assert len(j.lower) == len(expected["axes"])
        for axis, written in enumerate(expected["axes"]):
            for field in ("lower", "upper", "effort", "velocity", "damping", "friction",
                          "spring_reference", "spring_stiffness"):
                value = written[field]
                if value is None:  # the JSON writes an unlimited bound as null
                    assert math.isinf(getattr(j, field)[axis]), (j.name, field)
                else:
                    assert getattr(j, field)[axis] == value, (j.name, field)


def test_tree_parents_and_children_by_name():
    m = interlink.load(PANDA)
    tree = m.tree
    assert tree.roots == ["panda_link0"]
    assert tree.parent("panda_link1") == "panda_link0" and tree.parent("panda_link0") is None
    assert tree.parent_joint("panda_link1") == "panda_joint1"
    assert tree.children("panda_hand") == ["panda_hand_tcp", "panda_leftfinger", "panda_rightfinger"]
    assert tree.child_joints("panda_link7") == ["panda_joint8"]
    assert str(tree) == run_cli("tree", PANDA).stdout.split("DOF order")[0]
    assert tree() == str(tree)  # `m.tree()` of earlier releases still gives the text
    with pytest.raises(KeyError):
        tree.children("nope")


def test_mjcf_free_joint_and_sites():
    m = interlink.load(HUMANOID)
    free = [j for j in m.joints if j.type == "free"]
    assert len(free) == 1 and free[0].dof_count == 6 and free[0].first_dof == 0 and free[0].name == "root"
    assert m.dofs[:6] == [f"root[{k}]" for k in range(6)]
    assert free[0].parent_link == "worldbody"  # the MJCF world body is a link of the model
    cli = json.loads(run_cli("frames", HUMANOID, "--json").stdout)
    assert m.dofs == cli["dofs"]
    frames = {f["name"]: f["kind"] for f in cli["frames"]}
    assert all(frames[f.name] == "frame" for f in m.frames_list)
    q = {name: 0.1 * (i + 1) for i, name in enumerate(m.dofs)}
    spec = ",".join(f"{name}={value!r}" for name, value in q.items())
    by_name = json.loads(run_cli("frames", HUMANOID, "--json", "--positions", spec).stdout)
    for f in by_name["frames"]:
        np.testing.assert_allclose(m.pose(f["name"], q)[:3, 3], f["position"], atol=1e-12)


def test_composed_world_models_and_frames():
    m = interlink.load(WORKCELL)
    names = [model.name for model in m.models]
    assert "left_arm" in names and "right_arm" in names
    left = next(model for model in m.models if model.name == "left_arm")
    assert left.format == "sdformat" and left.file.endswith("arm.sdf")
    assert set(left.links) <= {link.name for link in m.links}
    np.testing.assert_allclose(left.pose, m.pose("left_arm"), atol=1e-15)
    cli = {f["name"]: f for f in json.loads(run_cli("frames", WORKCELL, "--json").stdout)["frames"]}
    assert {f.name for f in m.frames_list} == {name for name, f in cli.items() if f["kind"] == "frame"}
    for f in m.frames_list:
        assert f.attached_link == cli[f.name]["attached_to_link"]
    assert m.joints[0].name.startswith("left_arm::")


def test_positions_by_name_in_python_and_the_cli():
    m = interlink.load(PANDA)
    q = {"panda_joint2": 0.3, "panda_joint4": -1.5}
    X = m.pose("panda_hand", q=q)
    np.testing.assert_array_equal(X, m.pose("panda_hand", q="panda_joint2=0.3,panda_joint4=-1.5"))
    out = json.loads(run_cli("frames", PANDA, "--json", "--positions", "panda_joint2=0.3,panda_joint4=-1.5",
                             "--frame", "panda_hand", "--format", "matrix").stdout)
    (frame,) = out["frames"]
    np.testing.assert_allclose(np.array(frame["matrix"]).reshape(4, 4), X, atol=1e-15)
    # The others at their initial values: "initial," first (the Panda's are zero; HUMANOID's too, so compare vectors).
    np.testing.assert_array_equal(m.configuration("initial,panda_joint2=0.3"), m.configuration(q) * [1, 1, 1, 0, 1, 1, 1, 1, 1])
    bad = run_cli("frames", PANDA, "--positions", "panda_joint2=0.3,elbow=1,wrist=x", check=False)
    assert bad.returncode == 2
    assert "no DOF named 'elbow'" in bad.stderr and "wrist" in bad.stderr  # every error, not the first
    with pytest.raises(ValueError, match="no DOF named 'elbow'"):
        m.pose("panda_hand", q={"elbow": 1.0})


@pytest.mark.parametrize("fmt", ["quaternion", "rpy", "matrix"])
def test_cli_formats_print_shortest_round_trip_numbers(fmt):
    out = run_cli("frames", PANDA, "--positions", "panda_joint1=0.12779", "--frame", "panda_link1", "--format", fmt).stdout
    line = next(l for l in out.splitlines() if not l.startswith("#"))
    fields = line.split()
    assert fields[:2] == ["panda_link1", "link"]
    numbers = [float(t) for t in fields[2:]]
    assert len(numbers) == {"quaternion": 7, "rpy": 6, "matrix": 16}[fmt]
    for text, value in zip(fields[2:], numbers):
        assert len(text) <= len(repr(value)), text  # Python's repr is the shortest round-trip text too
    X = interlink.load(PANDA).pose("panda_link1", q={"panda_joint1": 0.12779})
    if fmt == "rpy":
        assert numbers[5] == pytest.approx(0.12779, abs=1e-15)
    if fmt == "matrix":
        np.testing.assert_allclose(np.array(numbers).reshape(4, 4), X, atol=1e-15)


def test_vectorised_poses_equal_one_by_one():
    m = interlink.load(PANDA)
    rng = np.random.default_rng(35)
    Q = rng.uniform(-1, 1, size=(50, len(m.dofs)))
    P = m.poses("panda_hand_tcp", Q)
    assert P.shape == (50, 4, 4)
    for q, X in zip(Q, P):
        np.testing.assert_array_equal(X, m.pose("panda_hand_tcp", q))
        np.testing.assert_allclose(X, m.frames(q)["panda_hand_tcp"], atol=1e-14)
    rel = m.poses("panda_hand_tcp", Q[:3], relative_to="panda_link3")
    np.testing.assert_allclose(rel[2], np.linalg.inv(m.pose("panda_link3", Q[2])) @ m.pose("panda_hand_tcp", Q[2]), atol=1e-14)
    with pytest.raises(ValueError, match=r"shape \(N, 9\)"):
        m.poses("panda_hand_tcp", np.zeros((4, 3)))
    with pytest.raises(ValueError, match="no frame named"):
        m.poses("nope", Q)


def test_convert_with_every_writer_of_the_cli(tmp_path):
    names = [name for name, _ in interlink.writers()]
    for expected in ("sdformat", "urdf", "mjcf", "json"):
        assert expected in names
    for name, extensions in interlink.writers():
        out = tmp_path / f"panda{extensions[0]}"
        warnings = interlink.convert(PANDA, out)
        assert all(d.severity != "error" for d in warnings)
        if name == "dot":
            continue
        cli_out = tmp_path / f"cli{extensions[0]}"
        run_cli("convert", PANDA, "-o", cli_out, "--to", name)
        assert out.read_text() == cli_out.read_text(), name
    again = interlink.load(tmp_path / "panda.mjcf")
    q = {"panda_joint2": 0.4}
    np.testing.assert_allclose(again.pose("panda_link7", q), interlink.load(PANDA).pose("panda_link7", q), atol=1e-9)
    m = interlink.load(PANDA)
    m.convert(tmp_path / "as.xml", to="mjcf")
    assert (tmp_path / "as.xml").read_text() == (tmp_path / "panda.mjcf").read_text()
    with pytest.raises(ValueError, match="unknown output format 'step'"):
        m.convert(tmp_path / "x.step", to="step")
    with pytest.raises(ValueError, match="refusing to overwrite"):
        interlink.convert(PANDA, PANDA)
    with pytest.raises(interlink.LoadError):
        interlink.convert(tmp_path / "missing.urdf", tmp_path / "x.sdf")


def test_convert_writes_a_floating_base_to_urdf_only_when_asked(tmp_path):
    # MuJoCo's humanoid floats on a free joint: URDF output leaves its root free unless asked for
    # a `floating` joint from the world (here the link for <worldbody>), as `interlink convert
    # --urdf-floating-joint` writes it.
    m = interlink.load(HUMANOID)
    m.convert(tmp_path / "default.urdf")
    assert 'type="floating"' not in (tmp_path / "default.urdf").read_text()
    m.convert(tmp_path / "floating.urdf", urdf_floating_joint=True)
    text = (tmp_path / "floating.urdf").read_text()
    assert text.count('type="floating"') == 1
    assert '<parent link="worldbody"/>' in text  # MJCF's world body is a link of the model
    run_cli("convert", HUMANOID, "-o", tmp_path / "cli.urdf", "--urdf-floating-joint")
    assert text == (tmp_path / "cli.urdf").read_text()
    interlink.convert(HUMANOID, tmp_path / "module.urdf", urdf_floating_joint=True)
    assert (tmp_path / "module.urdf").read_text() == text
    # The floating joint reads back as the one floating joint of the model.
    again = interlink.load(tmp_path / "floating.urdf")
    assert [j.name for j in again.joints if j.type == "free"] == ["root"]


GEN3_LITE = SOURCE_DIR / "tests/data/ros_kortex/kortex_description/arms/gen3_lite/6dof/urdf/GEN3-LITE.urdf"  # BSD-3-Clause


def test_joint_named_like_a_link_keeps_its_name_and_gives_its_frame():
    # Kinova's Gen3 lite: joint END_EFFECTOR (fixed, 0.13 m along z) joins link END_EFFECTOR to DUMMY.
    m = interlink.load(GEN3_LITE)
    joint = m.joint("END_EFFECTOR")
    assert joint.name == "END_EFFECTOR" and joint.type == "fixed"
    assert joint.frame == "END_EFFECTOR_joint"
    assert m.frame_kinds["END_EFFECTOR"] == "link" and m.frame_kinds[joint.frame] == "joint"
    q = {"J0": 0.3, "J1": -0.4, "J2": 0.5, "J3": 0.2, "J4": -0.7, "J5": 1.1}
    np.testing.assert_allclose(m.pose(joint.frame, q), m.pose("DUMMY", q), atol=1e-12)
    np.testing.assert_allclose(np.linalg.inv(m.pose("END_EFFECTOR", q)) @ m.pose(joint.frame, q)[:, 3],
                               [0, 0, 0.13, 1], atol=1e-12)
    # The CLI's JSON names it the same way, with the frame's name beside it.
    frames = json.loads(run_cli("frames", GEN3_LITE, "--json").stdout)["frames"]
    entry = [f for f in frames if f["kind"] == "joint" and f["name"] == "END_EFFECTOR"]
    assert len(entry) == 1 and entry[0]["frame"] == joint.frame


def test_every_public_class_has_docstrings():
    for cls in (interlink.Link, interlink.Joint, interlink.Shape, interlink.Geometry, interlink.Frame,
                interlink.ModelElement, interlink.Tree, interlink.Mimic, interlink.Model):
        assert cls.__doc__
        for name, member in vars(cls).items():
            if name.startswith("_"):
                continue
            assert getattr(member, "__doc__", None), f"{cls.__name__}.{name}"


def test_stubs_name_every_public_member():
    stubs = (SOURCE_DIR / "python/interlink/_interlink.pyi").read_text()
    for cls in (interlink.Link, interlink.Joint, interlink.Shape, interlink.Geometry, interlink.Frame,
                interlink.ModelElement, interlink.Tree, interlink.Mimic, interlink.Model):
        assert f"class {cls.__name__}" in stubs
        for name in vars(cls):
            if not name.startswith("_"):
                assert f" {name}" in stubs, f"{cls.__name__}.{name} missing from _interlink.pyi"


def test_python_m_interlink_mirrors_the_cli():
    import subprocess
    import sys
    for args in (["check", str(PANDA)], ["check", "--format", "json", str(PANDA)], ["check", str(SOURCE_DIR / "nope.urdf")]):
        py = subprocess.run([sys.executable, "-m", "interlink", *args], capture_output=True, text=True)
        cli = run_cli(*args, check=False)
        assert (py.returncode, py.stdout) == (cli.returncode, cli.stdout)


def test_model_gravity_and_reading_notes_are_typed_and_apart_from_parameters():
    bug = interlink.load(SOURCE_DIR / "tests/data/juice/models/Bug.jm").models[0]
    np.testing.assert_array_equal(bug.gravity, [0.0, 0.0, -50.0])  # Juice's <Gravity>50</Gravity>
    assert bug.reading_notes == {"juice.file_version": "1", "juice.gravity_source": "file"}
    assert bug.parameters["juice.Friction"] == "100"
    assert not any(key.startswith("gravity") or key == "juice.Gravity" for key in bug.parameters)
    # A model whose format gives it no gravity of its own has none.
    assert interlink.load(HUMANOID).models[0].gravity is None
