#!/usr/bin/env bash
# Start-up benchmark (whole process, hyperfine): the ratio of `interlink check` to the reference
# checker on the same small file, in one run. Targets: <= 1.5 for a small URDF (check_urdf) and
# for a small SDFormat file (libsdformat, bench_sdf_check). The plugin metadata cache is warmed
# first (a first run after installing or changing plugins opens every library once).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-build}"
CLI="$BUILD/bin/interlink"
SHARED="${INTERLINK_SHARED_DIR:-$(cd .. && pwd)/shared}"
URDF="$SHARED/corpus/sdformat/test/integration/model/test_include_urdf/model.urdf"
SDF="samples/models/arm.sdf"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
export XDG_CACHE_HOME="$OUT/cache"
"$CLI" plugins >/dev/null

ratio() {  # name reference-command interlink-command
  hyperfine -N --warmup 5 --runs "${RUNS:-40}" --export-json "$OUT/$1.json" "$2" "$3" >/dev/null
  python3 - "$OUT/$1.json" "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
ref, ours = r[0], r[1]
# Medians: the machine is shared, means are dragged by other processes.
ratio = ours["median"] / ref["median"]
# CPU time (user + system, means) as well: on a loaded machine wall time is mostly waiting.
cpu = (ours["user"] + ours["system"]) / (ref["user"] + ref["system"])
print(f"{sys.argv[2]:5s} reference {ref['median']*1e3:7.1f} ms  interlink {ours['median']*1e3:7.1f} ms  "
      f"ratio {ratio:4.2f}  (target <= 1.5: {'MET' if ratio <= 1.5 else 'NOT MET'})  CPU-time ratio {cpu:4.2f}")
PY
}

ratio urdf "check_urdf $URDF" "$CLI check $URDF"
if [ -x "$BUILD/bin/bench_sdf_check" ]; then
  ratio sdf "$BUILD/bin/bench_sdf_check $SDF" "$CLI check $SDF"
fi
# What the process costs before reading anything (the dynamic libraries it links).
hyperfine -N --warmup 5 --runs "${RUNS:-40}" "$CLI --version" --export-json "$OUT/floor.json" >/dev/null
python3 -c "import json,sys; r=json.load(open('$OUT/floor.json'))['results'][0]; print(f'floor interlink --version {r[\"median\"]*1e3:7.1f} ms')"
