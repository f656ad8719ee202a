"""Shared fixtures of the Python tests: paths from CTest's environment, the CLI, and a guard that
turns skipped tests into a failure (a test that cannot run must not pass silently)."""

import json
import os
import subprocess
from pathlib import Path

import pytest


def _env_path(name: str) -> Path:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set; run these tests through ctest")
    return Path(value)


SOURCE_DIR = _env_path("INTERLINK_SOURCE_DIR")
BINARY_DIR = _env_path("INTERLINK_BINARY_DIR")
CLI = _env_path("INTERLINK_CLI")
# Public files vendored for the tests (tests/data/<source>/, each with its origin and licence).
DATA = SOURCE_DIR / "tests" / "data"
# The large external corpus (docs/dev/ci.md), read at run time; without it the sweeps read the
# vendored files, which tests/data keeps in the same layout (sdformat/, gazebo/, hrdf/, shift/, juice/).
_external = os.environ.get("INTERLINK_TEST_CORPUS")
CORPUS = Path(_external) if _external and Path(_external).is_dir() else DATA


def run_cli(*args, env=None, check=True):
    """Runs the interlink CLI; returns the CompletedProcess (text)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    done = subprocess.run([str(CLI), *map(str, args)], capture_output=True, text=True, env=full_env)
    if check and done.returncode != 0:
        raise AssertionError(f"interlink {' '.join(map(str, args))} exited {done.returncode}:\n{done.stderr}")
    return done


def cli_frames(path, positions=None, env=None):
    """`interlink frames PATH --json` as a dict: name -> (position, quaternion_wxyz), and the DOFs."""
    args = ["frames", path, "--json"]
    if positions is not None:
        args += ["--positions", ",".join(repr(float(v)) for v in positions)]
    data = json.loads(run_cli(*args, env=env).stdout)
    # Keyed by the frame's own name: "frame" where a joint named like a link shows its own name.
    frames = {f.get("frame", f["name"]): (f["position"], f["quaternion_wxyz"]) for f in data["frames"]}
    return frames, data["dofs"]


@pytest.fixture
def corpus():
    return CORPUS


_outcomes = {"skipped": 0, "passed": 0}


def pytest_runtest_logreport(report):
    if report.skipped:
        _outcomes["skipped"] += 1
    elif report.when == "call" and report.passed:
        _outcomes["passed"] += 1


def pytest_sessionfinish(session, exitstatus):
    # Exit 5 (nothing collected) already fails under CTest; a run where tests were skipped or
    # none passed fails too, so a missing dependency cannot turn into a green test.
    if exitstatus == 0 and (_outcomes["skipped"] or not _outcomes["passed"]):
        session.exitstatus = 1
