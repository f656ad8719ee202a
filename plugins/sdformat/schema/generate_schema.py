#!/usr/bin/env python3
"""Generates SchemaData.cpp: the SDFormat 1.0-1.12 schema as C++ tables.

Input: the sdf/1.x/*.sdf description files of gazebosim/sdformat (Apache-2.0), from a checkout
or a bare git mirror. Usage:
  generate_schema.py --git-dir /path/to/sdformat.git --rev REV -o SchemaData.cpp
  generate_schema.py --source-dir /path/to/sdformat -o SchemaData.cpp

Every description file becomes one node; <include filename=...> and ref="..." become edges to the
node of that file, so the recursive parts of the schema (model in model) stay finite. An element
whose description lists the values it accepts ("supports types a, b and c", as //sensor/@type does)
gets that list; lists are merged over all versions because older descriptions were partial and
libsdformat reads older files against the newest list after converting them.
"""
import argparse
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

VERSIONS = ["1.0", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11", "1.12"]
TYPES = {None: "None", "string": "String", "bool": "Bool", "int": "Int", "unsigned int": "UnsignedInt",
         "uint64_t": "UnsignedInt", "double": "Double", "float": "Double", "vector3": "Vector3",
         "vector2d": "Vector2d", "vector2i": "Vector2i", "color": "Color", "pose": "Pose", "time": "Time",
         "quaternion": "Quaternion", "char": "Char"}
# Values libsdformat's DOM accepts although no description lists them (sdf::Sensor::Load reads
# "wideanglecamera" and "wide_angle_camera"; gazebo_models use the former).
EXTRA_VALUES = {("sensor", "type"): ["wideanglecamera", "wide_angle_camera"]}
# libsdformat reads a file of an older version after converting it to the newest version it knows
# (1.9 for libsdformat 12, the reference): value bounds of older versions come from 1.9's
# description of the same element. Older descriptions carry bounds no reader ever enforced
# (1.3 says 0 <= //friction/ode/mu <= 1 with a default of -1).
BOUNDS_VERSION = "1.9"
OCCURRENCE = {"0": "Optional", "1": "One", "+": "OneOrMore", "*": "Any", "-1": "Deprecated"}


class Source:
    def __init__(self, args):
        self.args = args

    def files(self, version):
        if self.args.git_dir:
            out = subprocess.run(["git", "--git-dir", self.args.git_dir, "ls-tree", "--name-only",
                                  self.args.rev + ":sdf/" + version], check=True, capture_output=True, text=True)
            return [n for n in out.stdout.split() if n.endswith(".sdf")]
        return sorted(p.name for p in (Path(self.args.source_dir) / "sdf" / version).glob("*.sdf"))

    def read(self, version, name):
        if self.args.git_dir:
            return subprocess.run(["git", "--git-dir", self.args.git_dir, "show",
                                   f"{self.args.rev}:sdf/{version}/{name}"], check=True,
                                  capture_output=True, text=True).stdout
        return (Path(self.args.source_dir) / "sdf" / version / name).read_text()


def listed_values(description):
    match = re.search(r"supports types(.*?)\.(\s|$)", " ".join((description or "").split()))
    if not match:
        return []
    words = re.findall(r"[a-z_][a-z0-9_]*", match.group(1))
    return [w for w in words if w != "and"]


class Version:
    """One version's nodes: element descriptions reachable from the root description."""

    def __init__(self, source, version):
        self.source = source
        self.version = version
        self.roots = {}  # file name -> node index
        self.nodes = []
        self.enumerations = {}  # (node, attribute) -> values

    def file_node(self, name):
        if name not in self.roots:
            text = self.source.read(self.version, name)
            element = ET.fromstring(text)
            self.roots[name] = None  # reserve against recursion
            self.roots[name] = self.element_node(element)
        return self.roots[name]

    def element_node(self, element):
        index = len(self.nodes)
        node = {"name": element.get("name", ""), "type": TYPES[element.get("type")],
                "default": element.get("default"), "min": element.get("min"), "max": element.get("max"),
                "copy": element.get("copy_data") == "true", "attributes": [], "children": []}
        self.nodes.append(node)
        for child in element:
            if child.tag == "attribute":
                values = listed_values(child.findtext("description"))
                node["attributes"].append({"name": child.get("name"), "type": TYPES[child.get("type")],
                                           "required": child.get("required", "0").strip() == "1",
                                           "values": values})
            elif child.tag == "element":
                if child.get("copy_data") == "true" and not child.get("name"):
                    node["copy"] = True
                    continue
                required = OCCURRENCE[child.get("required", "0").strip()]
                if child.get("ref"):
                    reference = child.get("ref") + ".sdf"
                    target = self.file_node(reference)
                    if target is None:  # a reference to a file being read: resolved by build()
                        node["children"].append({"name": child.get("name"), "pending": reference,
                                                 "occurrence": required})
                        continue
                else:
                    target = self.element_node(child)
                node["children"].append({"name": child.get("name"), "node": target, "occurrence": required})
            elif child.tag == "include":
                target = self.file_node(child.get("filename"))
                name = self.nodes[target]["name"] if target is not None else None
                if target is None:  # an include of a file being read: resolved below
                    node["children"].append({"name": None, "pending": child.get("filename"),
                                             "occurrence": OCCURRENCE[child.get("required", "0").strip()]})
                else:
                    node["children"].append({"name": name, "node": target,
                                             "occurrence": OCCURRENCE[child.get("required", "0").strip()]})
        return index

    def build(self):
        root = "gazebo.sdf" if self.version in ("1.0", "1.2") else "root.sdf"
        self.root = self.file_node(root)
        for node in self.nodes:
            for child in node["children"]:
                if "pending" in child:
                    child["node"] = self.roots[child.pop("pending")]
                    if not child.get("name"):
                        child["name"] = self.nodes[child["node"]]["name"]


def renames(text):
    """The <rename> rules of a .convert file as (element path, from element, from attribute, to element)."""
    rules = []

    def walk(element, path):
        for child in element:
            if child.tag == "convert":
                walk(child, path + [child.get("name")])
            elif child.tag == "rename" and child.find("from") is None:
                walk(child, path)  # upstream nests a <rename> in a <rename> twice; read the inner one
            elif child.tag == "rename":
                source, target = child.find("from"), child.find("to")
                rules.append(("/".join(path[1:]), source.get("element"), source.get("attribute"), target.get("element")))

    root = ET.fromstring(text)
    walk(root, [root.get("name")])
    return rules


def nodes_by_parent(version):
    """(parent element name, element name) -> indices of the nodes so placed."""
    placed = {}
    for node in version.nodes:
        for child in node["children"]:
            placed.setdefault((node["name"], child["name"]), set()).add(child["node"])
    return placed


def bounds_by_parent(version):
    out = {}
    for key, indices in nodes_by_parent(version).items():
        for index in indices:
            node = version.nodes[index]
            out[key] = (node["min"], node["max"])
    return out


def c_string(value):
    if value is None:
        return "nullptr"
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--git-dir")
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--source-dir")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    if not args.git_dir and not args.source_dir:
        parser.error("give --git-dir or --source-dir")
    source = Source(args)
    versions = []
    for v in VERSIONS:
        version = Version(source, v)
        version.build()
        versions.append(version)
    # Bounds of versions before BOUNDS_VERSION from that version, by element and parent name.
    reference = versions[VERSIONS.index(BOUNDS_VERSION)]
    reference_bounds = {}
    for key, bounds in bounds_by_parent(reference).items():
        reference_bounds.setdefault(key, set()).add(bounds)
    for version in versions[:VERSIONS.index(BOUNDS_VERSION)]:
        for key, indices in nodes_by_parent(version).items():
            candidates = reference_bounds.get(key, set())
            bounds = next(iter(candidates)) if len(candidates) == 1 else (None, None)
            for index in indices:
                version.nodes[index]["min"], version.nodes[index]["max"] = bounds
    # Enumerated attribute values by version (older versions read with BOUNDS_VERSION's list, as
    # libsdformat converts them), keyed by element and attribute name.
    def listed(version):
        out = {key: list(values) for key, values in EXTRA_VALUES.items()}
        for node in version.nodes:
            for attribute in node["attributes"]:
                for value in attribute["values"]:
                    values = out.setdefault((node["name"], attribute["name"]), [])
                    if value not in values:
                        values.append(value)
        return out
    lists = {}  # (version index, key) -> C name
    value_arrays = []
    for vi, version in enumerate(versions):
        listing = version if vi >= VERSIONS.index(BOUNDS_VERSION) else reference
        for key, values in sorted(listed(listing).items()):
            if key not in [(n["name"], a["name"]) for n in version.nodes for a in n["attributes"]]:
                continue
            if values in [v for _, v in value_arrays]:
                name = value_arrays[[v for _, v in value_arrays].index(values)][0]
            else:
                name = f"kValues{len(value_arrays)}"
                value_arrays.append((name, values))
            lists[(vi, key)] = name
    revision = args.rev
    if args.git_dir:
        revision = subprocess.run(["git", "--git-dir", args.git_dir, "rev-parse", args.rev], check=True,
                                  capture_output=True, text=True).stdout.strip()
    out = []
    out.append("// GENERATED by plugins/sdformat/schema/generate_schema.py from the sdf/1.x/*.sdf description")
    out.append(f"// files of gazebosim/sdformat (Apache-2.0), revision {revision}. Do not edit.")
    out.append('#include "SchemaData.hpp"')
    out.append("")
    out.append("namespace interlink::sdformat::schema {")
    out.append("namespace {")
    out.append("using T = ValueType;")
    out.append("using O = Occurrence;")
    for name, values in value_arrays:
        out.append(f"constexpr const char* {name}[] = {{{', '.join(c_string(v) for v in values)}, nullptr}};")
    table = []
    for vi, version in enumerate(versions):
        attributes, children = [], []
        nodes = []
        for node in version.nodes:
            first_attribute, first_child = len(attributes), len(children)
            for a in node["attributes"]:
                values = lists.get((vi, (node["name"], a["name"])), "nullptr")
                attributes.append(f"{{{c_string(a['name'])}, T::{a['type']}, {str(a['required']).lower()}, {values}}}")
            for c in node["children"]:
                children.append(f"{{{c_string(c['name'])}, {c['node']}, O::{c['occurrence']}}}")
            nodes.append(f"{{{c_string(node['name'])}, T::{node['type']}, {c_string(node['default'])}, "
                         f"{c_string(node['min'])}, {c_string(node['max'])}, {str(node['copy']).lower()}, "
                         f"{first_attribute}, {len(node['attributes'])}, {first_child}, {len(node['children'])}}}")
        out.append(f"constexpr SchemaAttribute kAttributes{vi}[] = {{\n    " + ",\n    ".join(attributes) + "};")
        out.append(f"constexpr SchemaChild kChildren{vi}[] = {{\n    " + ",\n    ".join(children) + "};")
        out.append(f"constexpr SchemaNode kNodes{vi}[] = {{\n    " + ",\n    ".join(nodes) + "};")
        major, minor = version.version.split(".")
        table.append(f"{{{major}, {minor}, kNodes{vi}, kAttributes{vi}, kChildren{vi}, {version.root}}}")
    out.append("constexpr VersionSchema kVersions[] = {\n    " + ",\n    ".join(table) + "};")
    rules = renames(source.read("1.2", "1_0.convert"))
    out.append("constexpr RenameRule kRenames1_0[] = {\n    " + ",\n    ".join(
        "{" + ", ".join(c_string(v) for v in rule) + "}" for rule in rules) + "};")
    out.append("}  // namespace")
    out.append("")
    out.append("RenameRules upgradeRules1_0() { return {kRenames1_0, sizeof kRenames1_0 / sizeof kRenames1_0[0]}; }")
    out.append("")
    out.append("const VersionSchema* versionSchema(int major, int minor) {")
    out.append("  for (const VersionSchema& version : kVersions) {")
    out.append("    if (version.major == major && version.minor == minor) return &version;")
    out.append("  }")
    out.append("  return nullptr;")
    out.append("}")
    out.append("")
    out.append("}  // namespace interlink::sdformat::schema")
    Path(args.output).write_text("\n".join(out) + "\n")
    for version in versions:
        print(f"SDFormat {version.version}: {len(version.nodes)} element descriptions", file=sys.stderr)


if __name__ == "__main__":
    main()
