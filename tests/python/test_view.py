"""Model.view() and Model._repr_html_(): the page of `interlink view` for a loaded model, made from
the model recorded as the JSON core model (same frames, same meshes)."""

import json
import re
from pathlib import Path

import interlink
from conftest import CLI, SOURCE_DIR

DATA = SOURCE_DIR / "tests" / "data" / "view"


def _scene(page: str) -> dict:
    return json.loads(re.search(r'id="interlink-scene">(.*?)</script>', page, re.S).group(1))


def test_view_writes_the_page_of_the_model(tmp_path, monkeypatch):
    monkeypatch.setenv("INTERLINK_CLI", str(CLI))
    model = interlink.load(DATA / "ros/src/view_bot/urdf/view_bot.urdf", resource_paths=[DATA / "ros/src"])
    path = model.view(tmp_path / "bot.html", open_browser=False)
    page = Path(path).read_text()
    scene = _scene(page)
    assert [d["name"] for d in scene["dofs"]] == model.dofs
    assert scene["ok"]
    meshes = json.loads(re.search(r'id="interlink-meshes">(.*?)</script>', page, re.S).group(1))
    assert len(meshes) == 2  # the STL and the COLLADA mesh, embedded
    names = {f["name"] for f in scene["frames"][1:]}
    assert {"base_link", "arm", "forearm", "tool", "finger_left", "finger_right"} <= names


def test_repr_html_is_the_page_in_an_iframe(monkeypatch):
    monkeypatch.setenv("INTERLINK_CLI", str(CLI))
    model = interlink.load(DATA / "mjcf/walker.xml")
    html = model._repr_html_()
    assert html.startswith("<iframe") and "srcdoc=" in html
    assert "interlink-scene" in html and "&lt;script" in html  # the whole page, escaped
