"""Issue 26 from Python: a ROS package (pkg/urdf/robot.urdf, meshes in pkg/meshes) loads by default,
``confine=True`` refuses the mesh outside the file's directory (a warning: kinematics still
resolves), and "world" is a frame of every model."""

import numpy as np

import interlink

STL = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n"

URDF = """<robot name="arm">
  <link name="base"><visual><geometry><mesh filename="../meshes/base.stl"/></geometry></visual></link>
  <link name="upper"/>
  <joint name="base" type="revolute">
    <parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.5"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
</robot>
"""


def write_package(tmp_path):
    (tmp_path / "pkg" / "meshes").mkdir(parents=True)
    (tmp_path / "pkg" / "urdf").mkdir()
    (tmp_path / "pkg" / "meshes" / "base.stl").write_text(STL)
    robot = tmp_path / "pkg" / "urdf" / "robot.urdf"
    robot.write_text(URDF)
    return robot


def codes(model):
    return [d.code for d in model.diagnostics]


def test_paths_are_followed_by_default_and_confine_refuses_once(tmp_path):
    robot = write_package(tmp_path)
    model = interlink.load(robot)
    assert "PATH_OUTSIDE_ROOTS" not in codes(model)
    confined = interlink.load(robot, confine=True)  # a refused mesh is a warning: it still loads
    assert codes(confined).count("PATH_OUTSIDE_ROOTS") == 1
    widened = interlink.load(robot, resource_paths=[tmp_path / "pkg"], confine=True)
    assert "PATH_OUTSIDE_ROOTS" not in codes(widened)


def test_world_is_a_frame_of_a_model_file(tmp_path):
    # The joint is named like its parent link (URDF's two namespaces).
    model = interlink.load(write_package(tmp_path))
    q = [0.3]
    np.testing.assert_allclose(model.pose("upper", q, relative_to="world"), model.pose("upper", q), atol=1e-15)
