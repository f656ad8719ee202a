#!/bin/bash
# Instructions per load of bench_xacro's descriptions (valgrind --tool=callgrind), independent of
# the machine's load: a dump before every Loader::loadFile / loadString, so each dump holds one load.
#  xacro run (^xacro/NAME): .4 FR3's first load, .5 UR5e's first load (bench_xacro loads both once
#   before its benchmarks), .7 a repeated load of NAME;
#  urdf run (^urdf_of_expansion/NAME): .9 a loadString of the expanded URDF.
# usage: bench/xacro/instructions.sh [build/bin/bench_xacro] [franka_fr3|ur5e]   (~1 min each)
set -eu
BENCH=${1:-build/bin/bench_xacro}
NAME=${2:-franka_fr3}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
total() { callgrind_annotate "$1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'; }
dumps="--dump-before=interlink::Loader::loadFile* --dump-before=interlink::Loader::loadString*"
valgrind --tool=callgrind --callgrind-out-file="$DIR/x" $dumps "$BENCH" --benchmark_filter="^xacro/$NAME" \
  --benchmark_min_time=0.0001 >/dev/null 2>&1
valgrind --tool=callgrind --callgrind-out-file="$DIR/u" $dumps "$BENCH" --benchmark_filter="^urdf_of_expansion/$NAME" \
  --benchmark_min_time=0.0001 >/dev/null 2>&1
if [ "$NAME" = franka_fr3 ]; then first=4; else first=5; fi
python3 - "$NAME" "$(total "$DIR/x.$first")" "$(total "$DIR/x.7")" "$(total "$DIR/u.9")" <<'PY'
import sys
name, first, repeated, urdf = sys.argv[1], *(int(v) / 1e6 for v in sys.argv[2:])
print(f"{name}: URDF load {urdf:.2f} M instructions; xacro load first {first:.2f} M "
      f"(expansion {first - urdf:.2f} M, ratio {(first - urdf) / urdf:.2f}), repeated {repeated:.2f} M "
      f"(expansion {repeated - urdf:.2f} M, ratio {(repeated - urdf) / urdf:.2f})")
PY
