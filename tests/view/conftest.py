"""Fixtures of the `interlink view` browser tests: paths from CTest's environment, one headless
Chromium per test file, the CLI."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from cdp import Browser

SOURCE_DIR = Path(os.environ["INTERLINK_SOURCE_DIR"])
CLI = Path(os.environ["INTERLINK_CLI"])
ARTIFACTS = Path(os.environ["INTERLINK_VIEW_ARTIFACTS"])
DATA = SOURCE_DIR / "tests" / "data" / "view"

# The models of the tests: (file, extra CLI arguments) relative to a data directory.
MODELS = {
    "urdf_ros_package": ("ros/src/view_bot/urdf/view_bot.urdf", ["-I", "ros/src"]),
    "sdf_world_urdf_hrdf": ("world.sdf", ["-I", "ros/src"]),
    "mjcf": ("mjcf/walker.xml", []),
}


def arguments(model, data_dir):
    file, extra = MODELS[model]
    return [str(data_dir / file)] + [str(data_dir / a) if i % 2 else a for i, a in enumerate(extra)]


def run_cli(*args, check=True):
    done = subprocess.run([str(CLI), *map(str, args)], capture_output=True, text=True, timeout=120)
    if check and done.returncode != 0:
        raise AssertionError(f"interlink {' '.join(map(str, args))} exited {done.returncode}:\n{done.stderr}")
    return done


def cli_frames(args, q):
    """`interlink frames --json` at configuration q: {name: (position, quaternion_wxyz)}, dofs."""
    positions = ",".join(repr(float(v)) for v in q) if q else "zero"
    out = json.loads(run_cli("frames", *args, "--json", "--positions=" + positions).stdout)
    # Keyed by the frame's own name: "frame" where a joint named like a link shows its own name.
    return {f.get("frame", f["name"]): (f["position"], f["quaternion_wxyz"]) for f in out["frames"]}, out["dofs"]


@pytest.fixture(scope="module")
def browser():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    b = Browser()
    yield b
    b.close()
