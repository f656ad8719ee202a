"""Every format of the corpus loads from Python with the same frames as `interlink frames --json`,
at the zero configuration and at a non-zero one; files the CLI rejects raise LoadError with the
same error codes."""

import re
from pathlib import Path

import numpy as np
import pytest

import interlink
from conftest import CORPUS, cli_frames, run_cli

DART_SKEL = Path("/usr/share/doc/dart/data/skel")  # Debian dart-doc, as tests/skel uses

# format plugin -> files of that format (corpus folders, and DART's own SKEL examples)
SOURCES = {
    "sdformat": sorted(CORPUS.glob("sdformat/test/integration/model/**/*.sdf"))
    + sorted(CORPUS.glob("sdformat/test/sdf/*.sdf"))
    + sorted(CORPUS.glob("gazebo/**/*.sdf")),
    "urdf": sorted(CORPUS.glob("**/*.urdf")),
    "hrdf": sorted(CORPUS.glob("hrdf/**/*.hrdf")),
    "juice": sorted(CORPUS.glob("juice/**/*.jm")),
    "shift": sorted(CORPUS.glob("shift/**/*.json")),
    "skel": sorted(DART_SKEL.glob("*.skel")),
}
PER_FORMAT = 8


def sample(files, count):
    """`count` files spread evenly over the sorted list (deterministic)."""
    if len(files) <= count:
        return files
    step = len(files) / count
    return [files[int(i * step)] for i in range(count)]


CASES = [(fmt, path) for fmt, files in SOURCES.items() for path in sample(files, PER_FORMAT)]
VALID_FORMATS = set()


def rotation_from_wxyz(q):
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def assert_same_frames(python_frames, cli):
    assert set(python_frames) == set(cli)
    for name, (position, wxyz) in cli.items():
        pose = python_frames[name]
        np.testing.assert_allclose(pose[:3, 3], position, atol=1e-9, err_msg=name)
        np.testing.assert_allclose(pose[:3, :3], rotation_from_wxyz(wxyz), atol=1e-9, err_msg=name)
        np.testing.assert_allclose(pose[3], [0, 0, 0, 1])


@pytest.mark.parametrize("fmt,path", CASES, ids=[f"{f}:{p.name}" for f, p in CASES])
def test_python_frames_equal_cli_frames(fmt, path):
    done = run_cli("frames", path, "--json", check=False)
    if done.returncode != 0:
        with pytest.raises(interlink.LoadError) as caught:
            interlink.load(path)
        cli_codes = set(re.findall(r"error\[([A-Z_]+)\]", done.stderr))
        assert cli_codes and {d.code for d in caught.value.errors} == cli_codes
        assert all(d.file for d in caught.value.errors)
        return
    m = interlink.load(path)
    assert m.format == fmt
    VALID_FORMATS.add(fmt)
    cli, dofs = cli_frames(path)
    assert dofs == m.dofs
    assert_same_frames(m.frames(), cli)
    if dofs:
        q = [0.1 + 0.07 * (i % 9) for i in range(len(dofs))]
        cli_q, _ = cli_frames(path, positions=q)
        assert_same_frames(m.frames(q), cli_q)
        assert_same_frames(m.frames(np.array(q)), cli_q)


def test_every_format_had_a_valid_file():
    # Runs after the parametrized cases (pytest keeps file order).
    assert all(SOURCES.values()), {k: len(v) for k, v in SOURCES.items()}
    assert VALID_FORMATS == set(SOURCES), VALID_FORMATS
