#!/usr/bin/env python3
"""Writes plugins/mjcf/src/MjcfSchemaTable.inc, the MJCF schema the reader checks every element
against, from MuJoCo's own documentation and MuJoCo 2.2.2's printed schema.

  make-schema-table.py MUJOCO_GIT_DIR SCHEMA_222_TXT > plugins/mjcf/src/MjcfSchemaTable.inc

MUJOCO_GIT_DIR: the git directory of a clone of google-deepmind/mujoco (its .git, or a bare
repository); its HEAD is the reference followed, its release tags after 2.2.2 date each feature.
SCHEMA_222_TXT: MuJoCo 2.2.2's schema as mj_printSchema(NULL, buf, n, 0, 0) prints it (Debian's
libmujoco-dev). The current element tree comes from HEAD's doc/XMLschema.rst; the release that
introduced each element or attribute newer than 2.2.2 from the first tag whose
doc/XMLreference.rst documents it. Elements and attributes of 2.2.2 that the current reference no
longer has are kept and marked, so that files written for 2.2.2 still load.
"""
import re
import subprocess
import sys

git_dir, schema222_path = sys.argv[1], sys.argv[2]


def git_show(rev, path):
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{rev}:{path}"], capture_output=True,
                          text=True).stdout


# --- the current tree (doc/XMLschema.rst): nested dropdowns, attributes as grid items ---------------
class Node:
    def __init__(self, name, card):
        self.name, self.card, self.attrs, self.children = name, card, [], []


def parse_current(text):
    root = Node("#", "")
    stack = [(-1, root)]
    for line in text.splitlines():
        m = re.match(r"^( *)\.\. dropdown:: :ref:`([^<]+)<([^>]+)>`(.*)$", line)
        if m:
            indent, name, rest = len(m.group(1)), m.group(2), m.group(4)
            card = "*" if "|*|" in rest else "R" if "sync" in rest else "!" if "star" in rest else "?"
            while stack[-1][0] >= indent:
                stack.pop()
            node = Node(name, card)
            stack[-1][1].children.append(node)
            stack.append((indent, node))
            continue
        m = re.match(r"^( *):ref:`([^<]+)<([^>]+)>`\s*$", line)
        if m:
            while stack[-1][0] >= len(m.group(1)):
                stack.pop()
            stack[-1][1].attrs.append(m.group(2))
    return root.children[0]


def parse_222(text):
    root = Node("#", "")
    stack = [(-1, root)]
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith(" " * 30):
            stack[-1][1].attrs += line.split()
            continue
        head, attrs = line[:30], line[30:].split()
        indent = len(head) - len(head.lstrip())
        name, card = head.split()[0], head.split()[1].strip("()")
        while stack[-1][0] >= indent:
            stack.pop()
        node = Node(name, card)
        node.attrs = attrs
        stack[-1][1].children.append(node)
        stack.append((indent, node))
    return root.children[0]


# element key "parent/name" -> {"card", "attrs": [..], "children": [..]}
def flatten(node, parent, table):
    names = ["worldbody", "body"] if node.name == "(world)body" else [node.name]
    for name in names:
        key = f"{parent}/{name}"
        entry = table.setdefault(key, {"card": node.card, "attrs": [], "children": []})
        attrs = [] if name == "worldbody" else node.attrs  # the world body takes no attributes
        for a in attrs:
            if a not in entry["attrs"]:
                entry["attrs"].append(a)
        for c in node.children:
            child = "worldbody" if c.name == "(world)body" else c.name
            if child not in entry["children"]:
                entry["children"].append(child)
            flatten(c, name, table)
    return table



# What the documentation's tree leaves implicit: recursion, the world body's restrictions, and the
# body-like <frame> and <replicate> (documented in prose only).
def fix_tree(table, with_frames):
    body = table.pop("mujoco/body")  # the body element; its children were flattened under body/ and worldbody/
    world = table["mujoco/worldbody"]
    world_children = [c for c in body["children"] if c not in ("joint", "freejoint", "inertial")]
    nested = ["body"] + (["frame", "replicate"] if with_frames else [])
    body["children"] = body["children"] + nested
    world["children"] = world_children + nested
    for kind in ("joint", "freejoint", "inertial"):
        table.pop(f"worldbody/{kind}", None)
    table["worldbody/body"] = table["body/body"] = body
    if with_frames:
        frame = {"card": "*", "attrs": FRAME_ATTRS, "children": world["children"]}
        replicate = {"card": "*", "attrs": REPLICATE_ATTRS, "children": world["children"]}
        for parent in ("worldbody", "body", "frame", "replicate"):
            table[f"{parent}/frame"] = frame
            table[f"{parent}/replicate"] = replicate
        for parent in ("frame", "replicate"):
            table[f"{parent}/body"] = body
            for c in world_children:
                table[f"{parent}/{c}"] = table[f"worldbody/{c}"]
    default = table["mujoco/default"]
    default["children"].append("default")
    table["default/default"] = default
    return table


FRAME_ATTRS = ["name", "childclass", "pos", "quat", "axisangle", "xyaxes", "zaxis", "euler"]
REPLICATE_ATTRS = ["count", "offset", "euler", "sep"]
current = fix_tree(flatten(parse_current(git_show("HEAD", "doc/XMLschema.rst")), "", {}), True)
old = fix_tree(flatten(parse_222(open(schema222_path).read()), "", {}), False)

# --- the release that introduced each element and attribute newer than 2.2.2 -----------------------
tags = [t for t in subprocess.run(["git", "--git-dir", git_dir, "tag"], capture_output=True, text=True).stdout.split()
        if re.fullmatch(r"\d+\.\d+\.\d+", t)]
tags = sorted((t for t in tags if tuple(map(int, t.split("."))) > (2, 2, 2)), key=lambda t: tuple(map(int, t.split("."))))


def documented(rev):
    """Section key 'parent/name' -> attributes documented there."""
    text = git_show(rev, "doc/XMLreference.rst").splitlines()
    sections, key = {}, None
    for i, line in enumerate(text[:-1]):
        if re.fullmatch(r"[~^=\-+*#]{3,}", text[i + 1].strip() or "x") and "**" in line:
            m = re.search(r"\*\*([^*]+)\*\*", line)
            p = re.search(r":el-prefix:`([^`]*)/`", line)
            name = m.group(1).replace("(world)", "")
            parent = p.group(1).split("/")[-1] if p else "mujoco"
            key = f"{parent}/{name}"
            sections.setdefault(key, set())
            continue
        if key:
            for a in re.findall(r":at:`([A-Za-z_0-9]+)`:", line):
                sections[key].add(a)
    return sections


history = [(t, documented(t)) for t in tags]


def introduced(key, attr=None):
    """The first release whose reference documents the element (or its attribute): in its own
    section, else in a section of an element of the same name, else (an attribute) anywhere, as
    actuator shortcuts document their shared attributes under <general>."""
    parent, name = key.split("/")
    if parent in ("", "worldbody", "frame", "replicate") or name in ("body", "frame", "replicate"):
        parent = "body" if parent in ("worldbody", "frame", "replicate") else parent
    candidates = [f"{parent}/{name}", f"mujoco/{name}" if parent in ("mujoco", "body") else None]
    for tag, sections in history:
        for k in candidates:
            if k in sections and (attr is None or attr in sections[k]):
                return tag
        body_like = parent in ("mujoco", "body", "default")
        same_name = [v for k, v in sections.items() if body_like and k.split("/")[1] == name]
        if same_name and (attr is None or any(attr in v for v in same_name)):
            return tag
        if attr is not None and parent == "actuator" and attr in sections.get("actuator/general", ()):
            return tag
    for tag, sections in history:
        if attr is not None and any(attr in v for v in sections.values()):
            return tag
    return "after-2.2.2"


# --- output: one line per element ------------------------------------------------------------------
out = []
describe = subprocess.run(["git", "--git-dir", git_dir, "describe", "--tags", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
out.append("// Generated by plugins/mjcf/schema/make-schema-table.py from MuJoCo's XML reference (google-deepmind/")
out.append(f"// mujoco {describe}) and MuJoCo 2.2.2's printed schema; do not edit.")
out.append("// One line per element: 'parent/name card: attribute... | child...'. card: ! once, ? at most once,")
out.append("// * any number. 'attribute@X.Y.Z': introduced by MuJoCo X.Y.Z (newer than 2.2.2); 'attribute~': read")
out.append("// by MuJoCo 2.2.2 but no longer in the current reference. An element marked the same way on its name.")
out.append('R"MJCF_SCHEMA(')
keys = sorted(set(current) | set(old))
for key in keys:
    cur, was = current.get(key), old.get(key)
    name = key
    if cur is None:
        name += "~"
    elif was is None:
        name += "@" + introduced(key)
    entry = cur or was
    card = "*" if entry["card"] == "R" else entry["card"]
    attrs = []
    for a in entry["attrs"]:
        if cur is not None and was is not None and a not in was["attrs"]:
            attrs.append(a + "@" + introduced(key, a))
        else:
            attrs.append(a)
    if cur is not None and was is not None:
        attrs += [a + "~" for a in was["attrs"] if a not in cur["attrs"]]
    children = list(entry["children"])
    if cur is not None and was is not None:
        children += [c for c in was["children"] if c not in children]
    out.append(f"{name} {card}: {' '.join(attrs)} | {' '.join(children)}")
out.append(')MJCF_SCHEMA"')
print("\n".join(out))
