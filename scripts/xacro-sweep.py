#!/usr/bin/env python3
"""Expands every robot xacro file under some source trees with ROS's xacro and with Interlink, and
compares the two expansions element by element (tags, sorted attributes, trimmed texts, comments).

A developer's tool, not a test: it needs ROS 2's xacro from source (pure Python, branch `ros2` of
https://github.com/ros/xacro; Debian's python3-yaml) and the repositories to sweep, none of which
the checkout holds. `$(find PKG)` is answered the same way for both: every directory with a
package.xml is a package (by its <name>), linked under WORK/packages, which is Interlink's
ROS_PACKAGE_PATH and what a stand-in `ament_index_python` returns to xacro.

    scripts/xacro-sweep.py --xacro ~/src/xacro --cli build/bin/interlink TREE...

Prints a count per outcome and every file whose expansions differ or that only one side expands.
Outcomes: same; DIFF (both expanded, first difference shown); REFUSED-ROBOT (xacro's expansion has
links and loads in Interlink, which did not expand it); invalid-urdf (xacro's expansion is no
valid URDF either: a part whose joints name links of another file); interlink-refused (a library
of macros or a fragment without links: nothing to load); xacro-failed (ROS's xacro
stopped: usually an install layout the trees do not have).
Exit status: 1 when a file differs or a robot is refused, else 0.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

STAND_IN = '''import json, os
class PackageNotFoundError(KeyError):
    pass
_packages = json.load(open(os.environ["XACRO_SWEEP_PACKAGES"]))
def get_package_share_directory(name, print_warning=True):
    if name not in _packages:
        raise PackageNotFoundError(name)
    return _packages[name]
'''


def packages_under(trees, links):
    """Every package.xml's package, linked as links/NAME; {name: link}."""
    found = {}
    for tree in trees:
        for root, _, files in os.walk(tree):
            if 'package.xml' not in files:
                continue
            text = open(os.path.join(root, 'package.xml'), errors='replace').read()
            name = re.search(r'<name>\s*([^<\s]+)\s*</name>', text)
            if name and name.group(1) not in found:
                link = os.path.join(links, name.group(1))
                if not os.path.lexists(link):
                    os.symlink(os.path.abspath(root), link)
                found[name.group(1)] = link
    return found


def robot_xacro_files(trees):
    """Xacro files whose root is <robot> and that hold a link or a xacro element."""
    out = []
    for tree in trees:
        for root, _, files in os.walk(tree):
            for name in files:
                if not name.endswith('.xacro'):
                    continue
                path = os.path.join(root, name)
                text = open(path, errors='replace').read()
                if re.search(r'<robot[\s>]', text) and re.search(r'<link[\s>]|xacro:[A-Za-z_]+[\s/>]', text):
                    out.append(path)
    return sorted(out)


def canonical(path):
    """The document as nested tuples: tag, sorted attributes, trimmed text, children; comments kept."""
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))

    def node(e):
        if e.tag is ET.Comment:
            return ('<!-->', (e.text or '').strip())
        return (e.tag, sorted(e.attrib.items()), (e.text or '').strip(), [node(c) for c in e])

    return node(ET.parse(path, parser=parser).getroot())


def first_difference(a, b, where='robot'):
    if a[0] != b[0]:
        return f'{where}: <{a[0]}> against <{b[0]}>'
    if a[0] == '<!-->':
        return None if a[1] == b[1] else f'{where}: comment {a[1][:60]!r} against {b[1][:60]!r}'
    if a[1] != b[1]:
        return f'{where}: attributes {dict(a[1])} against {dict(b[1])}'
    if a[2] != b[2]:
        return f'{where}: text {a[2][:80]!r} against {b[2][:80]!r}'
    if len(a[3]) != len(b[3]):
        return f'{where}: {len(a[3])} children against {len(b[3])}'
    for i, (x, y) in enumerate(zip(a[3], b[3])):
        found = first_difference(x, y, f'{where}/{x[0]}[{i}]')
        if found:
            return found
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--xacro', required=True, help='a checkout of ros/xacro, branch ros2')
    parser.add_argument('--cli', default='build/bin/interlink')
    parser.add_argument('--work', help='where outputs go (default: a new temporary directory)')
    parser.add_argument('trees', nargs='+')
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix='xacro-sweep-')
    links = os.path.join(work, 'packages')
    stand_in = os.path.join(work, 'stand_in', 'ament_index_python')
    os.makedirs(links, exist_ok=True)
    os.makedirs(stand_in, exist_ok=True)
    open(os.path.join(stand_in, '__init__.py'), 'w').close()
    open(os.path.join(stand_in, 'packages.py'), 'w').write(STAND_IN)
    packages = packages_under(args.trees, links)
    json.dump(packages, open(os.path.join(work, 'packages.json'), 'w'))
    env = dict(os.environ, PYTHONPATH=f'{os.path.abspath(args.xacro)}:{os.path.dirname(stand_in)}',
               XACRO_SWEEP_PACKAGES=os.path.join(work, 'packages.json'), ROS_PACKAGE_PATH=links)
    env.pop('AMENT_PREFIX_PATH', None)
    cli = os.path.abspath(args.cli)

    def one(path):
        key = re.sub(r'[^A-Za-z0-9]+', '_', path)[-150:]
        theirs, ours = os.path.join(work, key + '.xacro.urdf'), os.path.join(work, key + '.interlink.urdf')
        run = dict(env=env, capture_output=True, text=True, timeout=120, cwd=os.path.dirname(path))
        try:
            r = subprocess.run([sys.executable, '-c', 'import xacro; xacro.main()', path, '-o', theirs], **run)
        except subprocess.TimeoutExpired:
            return path, 'xacro-failed', 'timeout'
        if r.returncode != 0 or not os.path.exists(theirs):
            return path, 'xacro-failed', (r.stderr.strip().splitlines() or [''])[0]
        try:
            o = subprocess.run([cli, 'convert', path, '-o', ours], **run)
        except subprocess.TimeoutExpired:
            return path, 'interlink-refused', 'timeout'
        if o.returncode != 0 or not os.path.exists(ours):
            # Refusing a library of macros, a fragment or what is no valid URDF after xacro is
            # right; refusing a robot whose expansion by xacro Interlink loads is not.
            why = (o.stderr.strip().splitlines() or [''])[-1]
            if not any(e.tag == 'link' for e in ET.parse(theirs).getroot()):
                return path, 'interlink-refused', why
            if subprocess.run([cli, 'check', theirs], **run).returncode != 0:
                return path, 'invalid-urdf', why
            return path, 'REFUSED-ROBOT', why
        difference = first_difference(canonical(theirs), canonical(ours))
        return path, 'same' if difference is None else 'DIFF', difference or ''

    files = robot_xacro_files(args.trees)
    with ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = list(pool.map(one, files))
    print(f'{len(files)} robot xacro files, {len(packages)} packages; outputs in {work}')
    for outcome, count in sorted(Counter(r[1] for r in results).items()):
        print(f'  {outcome}: {count}')
    for path, outcome, detail in results:
        if outcome in ('DIFF', 'REFUSED-ROBOT'):
            print(f'{outcome} {path}\n     {detail}')
    return 1 if any(r[1] in ('DIFF', 'REFUSED-ROBOT') for r in results) else 0


if __name__ == '__main__':
    sys.exit(main())
