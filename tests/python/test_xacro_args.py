"""xacro from Python: interlink.load(path, args={...}) passes $(arg NAME) values (docs/xacro.md)."""

import pytest

import interlink
from conftest import SOURCE_DIR

DATA = SOURCE_DIR / "tests/data"
FR3 = DATA / "franka_description/robots/fr3/fr3.urdf.xacro"


def test_load_xacro_with_arguments():
    default = interlink.load(FR3, resource_paths=[DATA])
    assert "fr3_hand" in default.frames()
    arm_only = interlink.load(FR3, resource_paths=[DATA], args={"hand": "false", "arm_prefix": "left"})
    frames = arm_only.frames()
    assert "left_fr3_link7" in frames
    assert "fr3_hand" not in frames and "left_fr3_hand" not in frames
    assert len(arm_only.dofs) == 7


def test_undefined_argument_raises_with_location():
    with pytest.raises(interlink.LoadError) as raised:
        interlink.load(DATA / "ur_description/urdf/ur.urdf.xacro", resource_paths=[DATA], args={"ur_type": "ur99"})
    assert any("ur99" in d.message or "ur99" in d.file for d in raised.value.diagnostics)
