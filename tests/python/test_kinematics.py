"""Jacobians against finite differences of forward kinematics, and mass properties against a
hand computation and against an independent NumPy sum over the links a URDF export lists."""

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import interlink
from conftest import DATA, SOURCE_DIR

ARM = SOURCE_DIR / "samples/models/arm.sdf"
DART_SKEL = Path("/usr/share/doc/dart/data/skel")

# Every SDFormat joint type with DOFs, axes expressed in rotated frames, a screw pitch.
JOINT_ZOO = """<?xml version="1.0"?>
<sdf version="1.9">
  <model name="zoo">
    <link name="l0"><pose>0.1 0.2 0.3 0.3 -0.2 0.5</pose></link>
    <link name="l1"><pose>0.5 0 0.3 0 0.4 0</pose></link>
    <link name="l2"><pose>0.9 0.1 0.2 0.2 0 -0.3</pose></link>
    <link name="l3"><pose>1.2 0.3 0.1 0 0 0.7</pose></link>
    <link name="l4"><pose>1.5 0.2 0.4 0.1 0.1 0.1</pose></link>
    <link name="l5"><pose>1.9 0.5 0.4 0 0 0</pose></link>
    <link name="l6"><pose>2.2 0.5 0.6 0.5 0 0</pose></link>
    <link name="l7"><pose>2.5 0.7 0.6 0 0.3 0</pose></link>
    <frame name="tilted" attached_to="l0"><pose>0 0 0 0.7 0.2 -0.4</pose></frame>
    <joint name="hinge" type="revolute">
      <pose>0.05 0.02 -0.1 0 0 0</pose>
      <parent>l0</parent><child>l1</child>
      <axis><xyz expressed_in="tilted">0.3 0.4 0.866</xyz></axis>
    </joint>
    <joint name="slide" type="prismatic">
      <parent>l1</parent><child>l2</child>
      <axis><xyz expressed_in="__model__">1 1 0</xyz></axis>
    </joint>
    <joint name="cardan" type="universal">
      <pose>0 0.1 0 0.3 0 0</pose>
      <parent>l2</parent><child>l3</child>
      <axis><xyz>1 0 0</xyz></axis>
      <axis2><xyz>0 0.6 0.8</xyz></axis2>
    </joint>
    <joint name="socket" type="ball">
      <pose>0.1 0 0.05 0 0 0</pose>
      <parent>l3</parent><child>l4</child>
    </joint>
    <joint name="lead" type="screw">
      <parent>l4</parent><child>l5</child>
      <axis><xyz>0 0 1</xyz></axis>
      <thread_pitch>0.05</thread_pitch>
    </joint>
    <joint name="wheel" type="continuous">
      <parent>l5</parent><child>l6</child>
      <axis><xyz>0 1 0</xyz></axis>
    </joint>
    <joint name="wrist" type="revolute2">
      <parent>l6</parent><child>l7</child>
      <axis><xyz>0 0 1</xyz></axis>
      <axis2><xyz>1 0 0</xyz></axis2>
    </joint>
    <frame name="tip" attached_to="l7"><pose>0.2 -0.1 0.3 0.1 0.2 0.3</pose></frame>
  </model>
</sdf>
"""


def finite_difference_jacobian(model, frame, q, h=1e-6):
    q = np.asarray(q, dtype=float)
    J = np.zeros((6, len(q)))
    R = model.pose(frame, q)[:3, :3]
    for k in range(len(q)):
        dq = np.zeros(len(q))
        dq[k] = h
        plus, minus = model.pose(frame, q + dq), model.pose(frame, q - dq)
        J[:3, k] = (plus[:3, 3] - minus[:3, 3]) / (2 * h)
        dR = (plus[:3, :3] - minus[:3, :3]) / (2 * h)
        W = dR @ R.T  # skew-symmetric: the angular velocity in the root frame
        J[3:, k] = [W[2, 1], W[0, 2], W[1, 0]]
    return J


def check_jacobians(model, frames, seed):
    rng = np.random.default_rng(seed)
    checked = 0
    for frame in frames:
        for _ in range(2):
            q = rng.uniform(-1.2, 1.2, len(model.dofs))
            J = model.jacobian(frame, q)
            assert J.shape == (6, len(model.dofs))
            expected = finite_difference_jacobian(model, frame, q)
            np.testing.assert_allclose(J, expected, atol=2e-6 * max(1.0, np.abs(expected).max()), err_msg=frame)
            checked += 1
    return checked


def test_arm_jacobian_matches_the_closed_form():
    m = interlink.load(ARM)
    a, b = 0.4, -0.9
    J = m.jacobian("tool", [a, b])
    # tool = 0.1 z + R_y(a) (0.5 z + R_y(b) 0.4 z); rotation about y maps z to (sin, 0, cos).
    expected = np.array([
        [0.5 * math.cos(a) + 0.4 * math.cos(a + b), 0.4 * math.cos(a + b)],
        [0, 0],
        [-0.5 * math.sin(a) - 0.4 * math.sin(a + b), -0.4 * math.sin(a + b)],
        [0, 0],
        [1, 1],
        [0, 0],
    ])
    np.testing.assert_allclose(J, expected, atol=1e-12)
    np.testing.assert_allclose(m.jacobian("base", [a, b]), np.zeros((6, 2)), atol=0)


def test_jacobian_of_every_sdformat_joint_type_matches_finite_differences():
    m = interlink.loads(JOINT_ZOO, format="sdformat", file_name="zoo.sdf")
    types = {j.type for j in m.joints}
    assert types == {"revolute", "prismatic", "universal", "ball", "screw", "continuous", "revolute2"}
    assert check_jacobians(m, ["tip", "l4", "socket", "l1", "hinge"], seed=1) == 10


@pytest.mark.parametrize("path", [
    DATA / "shift/kuka_lbr_iiwa_14_r820/kuka_iiwa.json",
    DATA / "shift/slider_crank/slider_crank_rotating_base.json",
    DATA / "hrdf/hebi-hrdf/A-2085-06G.hrdf",
    SOURCE_DIR / "samples/models/workcell.sdf",
    DART_SKEL / "freeChain.skel",
    DART_SKEL / "fullbody1.skel",
], ids=lambda p: p.name)
def test_jacobian_of_real_models_matches_finite_differences(path):
    m = interlink.load(path)
    assert m.dofs
    frames = list(m.frames())
    last_links = [n for n in frames if m.frame_kinds[n] == "link"][-3:]
    assert check_jacobians(m, last_links + frames[-1:], seed=len(frames)) >= 2


DART_JOINTS = ["biped.skel", "chain.skel", "test/planar_joint.skel", "test/joint_dynamics_elements_test.skel"]


def test_jacobian_of_dart_multi_dof_joints_matches_finite_differences():
    types = set()
    for name in DART_JOINTS:
        m = interlink.load(DART_SKEL / name)
        types |= {j.type for j in m.joints}
        links = [n for n, kind in m.frame_kinds.items() if kind == "link"]
        assert check_jacobians(m, links[:2] + links[-2:], seed=len(links)) >= 2
    assert {"free", "euler", "universal", "ball", "planar", "translational"} <= types, types


def rpy_matrix(r, p, y):
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    Rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    Ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    Rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return Rz @ Ry @ Rx


def test_arm_mass_properties_match_a_hand_computation():
    m = interlink.load(ARM)
    a, b = 0.6, -0.4
    mass, com, inertia = m.mass_properties([a, b])
    assert mass == pytest.approx(7.0)
    Ry = lambda t: np.array([[math.cos(t), 0, math.sin(t)], [0, 1, 0], [-math.sin(t), 0, math.cos(t)]])
    z = np.array([0, 0, 1.0])
    bodies = [  # (mass, com in the root frame, rotation, inertia about its com)
        (4.0, np.zeros(3), np.eye(3), np.diag([0.02, 0.02, 0.03])),
        (2.0, 0.1 * z + Ry(a) @ (0.25 * z), Ry(a), np.eye(3)),  # SDFormat's default unit inertia
        (1.0, 0.1 * z + Ry(a) @ (0.5 * z + Ry(b) @ (0.2 * z)), Ry(a + b), np.eye(3)),
    ]
    c = sum(mi * pi for mi, pi, _, _ in bodies) / 7.0
    np.testing.assert_allclose(com, c, atol=1e-12)
    I = sum(R @ Ii @ R.T + mi * ((pi - c) @ (pi - c) * np.eye(3) - np.outer(pi - c, pi - c)) for mi, pi, R, Ii in bodies)
    np.testing.assert_allclose(inertia, I, atol=1e-12)
    # The subtree below the elbow is the forearm alone.
    fmass, fcom, finertia = m.mass_properties([a, b], subtree="fore")
    assert fmass == pytest.approx(1.0)
    np.testing.assert_allclose(fcom, bodies[2][1], atol=1e-12)
    np.testing.assert_allclose(finertia, bodies[2][2] @ bodies[2][2].T, atol=1e-12)


def urdf_mass_properties(urdf_text, link_poses):
    """Mass, COM and inertia about the COM from a URDF's <inertial> elements and link poses."""
    bodies = []
    for link in ET.fromstring(urdf_text).iter("link"):
        inertial = link.find("inertial")
        if inertial is None or link.get("name") not in link_poses:
            continue
        origin = inertial.find("origin")
        xyz = np.array([float(v) for v in (origin.get("xyz", "0 0 0") if origin is not None else "0 0 0").split()])
        rpy = [float(v) for v in (origin.get("rpy", "0 0 0") if origin is not None else "0 0 0").split()]
        mass = float(inertial.find("mass").get("value"))
        i = inertial.find("inertia").attrib
        Ic = np.array([[float(i["ixx"]), float(i["ixy"]), float(i["ixz"])],
                       [float(i["ixy"]), float(i["iyy"]), float(i["iyz"])],
                       [float(i["ixz"]), float(i["iyz"]), float(i["izz"])]])
        X = link_poses[link.get("name")]
        R = X[:3, :3] @ rpy_matrix(*rpy)
        bodies.append((mass, X[:3, :3] @ xyz + X[:3, 3], R @ Ic @ R.T))
    total = sum(b[0] for b in bodies)
    com = sum(b[0] * b[1] for b in bodies) / total
    inertia = sum(Ii + mi * ((pi - com) @ (pi - com) * np.eye(3) - np.outer(pi - com, pi - com)) for mi, pi, Ii in bodies)
    return total, com, inertia


@pytest.mark.parametrize("path", [
    DATA / "shift/kuka_lbr_iiwa_14_r820/kuka_iiwa.json",
    DATA / "hrdf/hebi-hrdf/A-2085-06G.hrdf",
    DATA / "sdformat/test/integration/model/double_pendulum.sdf",
], ids=lambda p: p.name)
def test_mass_properties_match_an_independent_sum_over_the_urdf_export(path, tmp_path):
    m = interlink.load(path)
    q = np.linspace(0.2, 1.1, len(m.dofs))
    out = tmp_path / "model.urdf"
    m.convert(str(out))
    poses = {name.replace("::", "__"): X for name, X in m.frames(q).items() if m.frame_kinds[name] == "link"}
    mass, com, inertia = m.mass_properties(q)
    expected = urdf_mass_properties(out.read_text(), poses)
    assert mass == pytest.approx(expected[0], rel=1e-9) and mass > 0
    np.testing.assert_allclose(com, expected[1], atol=1e-7)
    np.testing.assert_allclose(inertia, expected[2], atol=1e-7 * max(1.0, np.abs(expected[2]).max()))
    # Mass properties move with q: at zero the centre of mass is elsewhere.
    assert not np.allclose(m.mass_properties()[1], com)
