"""Every ```python snippet of docs/python.md runs, in order, in one namespace, from a copy of the
repository's samples (so that relative paths read as they do from the repository root)."""

import re
import shutil

from conftest import SOURCE_DIR

DOC = SOURCE_DIR / "docs/python.md"


def snippets():
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_tour_runs(tmp_path, monkeypatch, capsys):
    blocks = snippets()
    assert len(blocks) >= 4
    shutil.copytree(SOURCE_DIR / "samples/models", tmp_path / "samples/models")
    shutil.copytree(SOURCE_DIR / "tests/data/example-robot-data", tmp_path / "tests/data/example-robot-data")
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "docs_python"}
    for index, block in enumerate(blocks):
        exec(compile(block, f"{DOC}:snippet{index + 1}", "exec"), namespace)
    printed = capsys.readouterr().out
    assert "sdformat world" in printed
    assert "JOINT_CHILD_LINK_INVALID" in printed
