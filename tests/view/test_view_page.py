"""`interlink view -o page.html` in a real headless Chromium (software WebGL): the page's poses are
the CLI's (`frames --json`, 1e-9) at several configurations, the canvas is drawn, the console has no
errors and the self-contained file makes no network request. Screenshots go to the build tree."""

import random
from pathlib import Path

import pytest

from cdp import DRAWN_PIXELS
from conftest import ARTIFACTS, DATA, MODELS, arguments, cli_frames, run_cli

TOLERANCE = 1e-9


def configurations(count_dofs, seed):
    rng = random.Random(seed)
    return [[0.0] * count_dofs] + [[rng.uniform(-1.2, 1.2) for _ in range(count_dofs)] for _ in range(3)]


def open_page(browser, model, tmp_path):
    page = tmp_path / (model + ".html")
    run_cli("view", *arguments(model, DATA), "-o", page)
    browser.navigate(page.as_uri())
    browser.evaluate("window.interlink.ready.then(() => true)")
    return page


@pytest.mark.parametrize("model", sorted(MODELS))
def test_page_poses_equal_the_cli_and_the_page_is_drawn(browser, model, tmp_path):
    page = open_page(browser, model, tmp_path)
    args = arguments(model, DATA)
    _, cli_dofs = cli_frames(args, None)
    dofs = browser.evaluate("window.interlink.dofs()")
    assert dofs == cli_dofs
    assert len(dofs) > 0
    checked = 0
    for q in configurations(len(dofs), seed=len(model)):
        expected, _ = cli_frames(args, q)
        browser.evaluate(f"window.interlink.setPositions({dict(zip(dofs, q))!r})".replace("'", '"'))
        names = browser.evaluate("window.interlink.frames()")
        assert sorted(names) == sorted(expected)
        poses = browser.evaluate("Object.fromEntries(window.interlink.frames().map(n => [n, window.interlink.pose(n)]))")
        for name, (position, quaternion) in expected.items():
            got = poses[name]
            for a, b in zip(got["position"], position):
                assert abs(a - b) <= TOLERANCE, (name, q, got, position)
            for a, b in zip(got["quaternion_wxyz"], quaternion):
                assert abs(a - b) <= TOLERANCE, (name, q, got, quaternion)
            checked += 1
    assert checked >= 4 * 5
    # A pose the user can see: a bent configuration, every layer on, then the visuals alone.
    bent = {name: 0.4 * (-1) ** i for i, name in enumerate(dofs)}
    browser.evaluate(f"window.interlink.setPositions({bent!r})".replace("'", '"'))
    browser.evaluate("window.interlink.fit()")
    browser.evaluate("window.interlink.settled().then(() => true)")
    drawn = browser.evaluate(DRAWN_PIXELS)
    assert drawn > 0.02, f"only {drawn:.1%} of the canvas is drawn"
    browser.screenshot(ARTIFACTS / f"view_{model}.png")
    assert browser.errors() == []
    # Self-contained: the page itself is the only request (file://); nothing else was fetched.
    assert [u for u in browser.requests() if u != page.as_uri() and not u.startswith(("data:", "blob:"))] == []


def test_meshes_are_drawn_in_metres_z_up_as_their_collision_boxes(browser, tmp_path):
    """view_bot's STL (millimetres, scaled by the URDF) and COLLADA (centimetres by its <unit>,
    and a <up_axis>Y_UP that Gazebo and RViz ignore) meshes are boxes of the same extents as the
    links' collision boxes: drawn bounds equal at several configurations."""
    open_page(browser, "urdf_ros_package", tmp_path)
    for q in ({}, {"shoulder": 0.7, "elbow": -1.1}, {"shoulder": -1.9, "elbow": 2.0}):
        browser.evaluate(f"window.interlink.setPositions({q!r})".replace("'", '"'))
        for link in ("base_link", "arm"):
            visual = browser.evaluate(f'window.interlink.bounds("{link}", "visual")')
            collision = browser.evaluate(f'window.interlink.bounds("{link}", "collision")')
            for key in ("min", "max"):
                for a, b in zip(visual[key], collision[key]):
                    assert abs(a - b) < 1e-5, (link, q, visual, collision)
    arm = browser.evaluate('window.interlink.bounds("arm", "visual")')
    assert arm["max"][2] - arm["min"][2] > 0.29  # the long side stands up: <up_axis> did not turn it


def test_mimic_joint_follows_and_diagnostics_name_their_element(browser, tmp_path):
    source = (DATA / "ros/src/view_bot/urdf/view_bot.urdf").read_text()
    # An inertia that breaks the triangle inequality: the load warns at the link's inertia.
    bad = source.replace('<inertia ixx="0.0083" ixy="0" ixz="0" iyy="0.0083" iyz="0" izz="0.0017"/>',
                         '<inertia ixx="0.0083" ixy="0" ixz="0" iyy="0.0083" iyz="0" izz="0.05"/>')
    assert bad != source
    urdf = tmp_path / "bad_inertia.urdf"
    urdf.write_text(bad.replace("package://view_bot/", str(DATA / "ros/src/view_bot") + "/"))
    page = tmp_path / "bad.html"
    run_cli("view", urdf, "-o", page, check=False)
    browser.navigate(page.as_uri())
    browser.evaluate("window.interlink.ready.then(() => true)")
    diagnostics = browser.evaluate("window.interlink.diagnostics()")
    inertia = [d for d in diagnostics if d["code"] == "LINK_INERTIA_INVALID"]
    assert inertia, diagnostics
    assert inertia[0]["file"].endswith("bad_inertia.urdf") and inertia[0]["line"] > 0
    assert set(inertia[0]) == {"severity", "code", "message", "file", "line"}
    # The link whose inertia is invalid carries a badge in the tree.
    marked = browser.evaluate("[...document.querySelectorAll('#il-tree div')].filter(d => d.querySelector('.il-badge'))"
                              ".map(d => d.firstChild.textContent)")
    assert "arm" in marked, marked
    browser.evaluate('window.interlink.setPositions({"finger_left_joint": 0.03})')
    assert browser.evaluate("window.interlink.positions()")["finger_right_joint"] == pytest.approx(0.03)


def test_pointer_names_and_picks_links_and_the_tree_selects(browser, tmp_path):
    """Hover shows a link's name, a click on it selects it in the tree, a click in the tree
    selects (highlights) the link."""
    open_page(browser, "urdf_ros_package", tmp_path)
    browser.evaluate("window.interlink.fit()")
    browser.evaluate("window.interlink.settled().then(() => true)")
    # A point of base_link's top face, in front of the arm as the camera sees it.
    x, y = browser.evaluate("window.interlink.screenPoint([-0.15, -0.12, 0.05])")
    browser.call("Input.dispatchMouseEvent", session=True, type="mouseMoved", x=x, y=y)
    assert browser.evaluate("window.interlink.hovered()") == "base_link"
    for kind in ("mousePressed", "mouseReleased"):
        browser.call("Input.dispatchMouseEvent", session=True, type=kind, x=x, y=y, button="left", clickCount=1)
    assert browser.evaluate("window.interlink.selected()") == "base_link"
    selected = browser.evaluate("[...document.querySelectorAll('#il-tree .il-selected')].map(d => d.firstChild.textContent)")
    assert selected == ["base_link"]
    # A click in the tree selects that link.
    browser.evaluate("[...document.querySelectorAll('#il-tree div')].find(d => d.firstChild.textContent === 'forearm').click()")
    assert browser.evaluate("window.interlink.selected()") == "forearm"
    assert browser.errors() == []


WAM = Path("/usr/share/doc/dart/data/urdf/wam")  # Debian's dart-doc (scripts/install-deps.sh)


def test_a_real_robots_collada_meshes_match_its_collision_meshes(browser, tmp_path):
    """The Barrett WAM of DART's data: COLLADA visuals that declare <up_axis>Y_UP (drawn as Gazebo
    and RViz draw them, coordinates as written) and STL collision meshes. Drawn bounds agree
    within 4 cm per link at two configurations; turning the COLLADA meshes Y to Z would put them
    tens of centimetres off."""
    assert "<up_axis>Y_UP</up_axis>" in (WAM / "meshes/wam/wam1.dae").read_text()
    packages = tmp_path / "packages"
    packages.mkdir()
    (packages / "herb_description").symlink_to(WAM)
    page = tmp_path / "wam.html"
    run_cli("view", WAM / "wam.urdf", "-I", packages, "-o", page)
    browser.navigate(page.as_uri())
    browser.evaluate("window.interlink.ready.then(() => true)")
    for q in ({}, {"/j1": 0.5, "/j2": -0.7, "/j4": 1.2}):
        browser.evaluate(f"window.interlink.setPositions({q!r})".replace("'", '"'))
        for link in ["/wam_base"] + [f"/wam{i}" for i in range(1, 8)]:
            visual = browser.evaluate(f'window.interlink.bounds("{link}", "visual")')
            collision = browser.evaluate(f'window.interlink.bounds("{link}", "collision")')
            assert None not in visual["min"] + collision["min"], link
            gap = max(abs(a - b) for key in ("min", "max") for a, b in zip(visual[key], collision[key]))
            assert gap < 0.04, (link, q, visual, collision)
    browser.evaluate("window.interlink.fit()")
    browser.evaluate("window.interlink.settled().then(() => true)")
    browser.screenshot(ARTIFACTS / "view_wam.png")
    assert browser.errors() == []
