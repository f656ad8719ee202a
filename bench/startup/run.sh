#!/usr/bin/env bash
# Start-up benchmark (whole process, hyperfine): the ratio of `interlink check` to the reference
# checker on the same small file, in one run. Targets: <= 1.5 for a small URDF (check_urdf) and
# for a small SDFormat file (libsdformat, bench_sdf_check). The plugin metadata cache is warmed
# first (bench/startup/common.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=bench/startup/common.sh
source bench/startup/common.sh "${1:-build}"

ratio() {  # name reference-command interlink-command
  # ROUNDS hyperfine runs of both commands, the order swapped each round, all samples pooled: a
  # change of machine load during the benchmark then weighs on both commands alike (one hyperfine
  # call times all runs of one command before the other's).
  local rounds="${ROUNDS:-5}" per=$(( (${RUNS:-40} + ${ROUNDS:-5} - 1) / ${ROUNDS:-5} )) r
  for ((r = 0; r < rounds; r++)); do
    if ((r % 2 == 0)); then
      hyperfine -N --warmup 3 --runs "$per" --export-json "$OUT/$1.$r.json" "$2" "$3" >/dev/null
    else
      hyperfine -N --warmup 3 --runs "$per" --export-json "$OUT/$1.$r.json" "$3" "$2" >/dev/null
    fi
  done
  python3 - "$OUT" "$1" "$2" <<'PY'
import glob, json, statistics, sys
out, name, reference = sys.argv[1:]
wall = {True: [], False: []}
cpu = {True: [], False: []}
for path in sorted(glob.glob(f"{out}/{name}.*.json")):
    for result in json.load(open(path))["results"]:
        ref = result["command"] == reference
        wall[ref] += result["times"]
        # hyperfine gives CPU time (user + system) as means per command: weighted by run count.
        cpu[ref] += [result["user"] + result["system"]] * len(result["times"])
# Medians: the machine is shared, means are dragged by other processes.
ref_ms, ours_ms = statistics.median(wall[True]) * 1e3, statistics.median(wall[False]) * 1e3
ratio = ours_ms / ref_ms
# CPU time as well: on a loaded machine wall time is mostly waiting.
cpu_ratio = statistics.mean(cpu[False]) / statistics.mean(cpu[True])
print(f"{name:5s} reference {ref_ms:7.1f} ms  interlink {ours_ms:7.1f} ms  "
      f"ratio {ratio:4.2f}  (target <= 1.5: {'MET' if ratio <= 1.5 else 'NOT MET'})  CPU-time ratio {cpu_ratio:4.2f}"
      f"  ({len(wall[True])} runs each)")
PY
}

ratio urdf "check_urdf $URDF" "$CLI check $URDF"
if [ -x "$BUILD/bin/bench_sdf_check" ]; then
  ratio sdf "$BUILD/bin/bench_sdf_check $SDF" "$CLI check $SDF"
fi
# What the process costs before reading anything (the dynamic libraries it links).
hyperfine -N --warmup 5 --runs "${RUNS:-40}" "$CLI --version" --export-json "$OUT/floor.json" >/dev/null
python3 -c "import json,sys; r=json.load(open('$OUT/floor.json'))['results'][0]; print(f'floor interlink --version {r[\"median\"]*1e3:7.1f} ms')"
