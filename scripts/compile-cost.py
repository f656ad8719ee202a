#!/usr/bin/env python3
"""CPU time (user + sys) of compiling sample translation units without ccache, in two configured
build directories, to project the cold build time of each (docs/dev/ci.md).
  scripts/compile-cost.py [SAMPLES] [BUILD_DIR_A] [BUILD_DIR_B]     default: 12 build build-asan
Units are evenly spaced over the sources both directories compile; objects go to a scratch file."""
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile

samples = int(sys.argv[1]) if len(sys.argv) > 1 else 12
dirs = sys.argv[2:4] if len(sys.argv) > 3 else ["build", "build-asan"]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
databases = [{e["file"]: e for e in json.load(open(os.path.join(root, d, "compile_commands.json")))} for d in dirs]
common = sorted(set(databases[0]) & set(databases[1]))
picks = [common[int(i * len(common) / samples)] for i in range(samples)]
env = dict(os.environ, CCACHE_DISABLE="1")
totals = [0.0, 0.0]
with tempfile.TemporaryDirectory() as scratch:
    for source in picks:
        row = []
        for index, db in enumerate(databases):
            entry = db[source]
            args = shlex.split(entry["command"])
            if "ccache" in os.path.basename(args[0]):
                args = args[1:]
            args[args.index("-o") + 1] = os.path.join(scratch, "unit.o")
            for flag in ("-MF", "-MT"):
                if flag in args:
                    del args[args.index(flag):args.index(flag) + 2]
            args = [a for a in args if a != "-MD"]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run(args, cwd=entry["directory"], env=env, capture_output=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if done.returncode:
                sys.exit(f"{source} failed in {dirs[index]}:\n{done.stderr.decode()[-2000:]}")
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            totals[index] += cpu
            row.append(f"{cpu:.1f}")
        print(f"| {os.path.relpath(source, root)} | {' | '.join(row)} |", flush=True)
for index, d in enumerate(dirs):
    mean = totals[index] / len(picks)
    print(f"{d}: mean {mean:.1f} s per unit; {len(databases[index])} units / 2 cores = {mean * len(databases[index]) / 120:.1f} min")
