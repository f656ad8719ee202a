#!/usr/bin/env bash
# Prints the counts of the MJCF differentials against MuJoCo 2.2.2 (models, frames, configurations,
# bodies weighed, exceptions) from an existing build: the figures of issue 18's closing note.
# Usage: scripts/mjcf-differential-counts.sh [build-dir]   (exit status: non-zero if a test fails)
set -uo pipefail
bin="${1:-$(dirname "$0")/../build}/bin"
status=0
for test in mjcf_differential_test mjcf_menagerie_test mjcf_mesh_inertia_test mjcf_writer_roundtrip_test mjcf_current_test \
    mjcf_schema_test; do
  if [[ ! -x "$bin/$test" ]]; then
    echo "missing $bin/$test: build it first (scripts/build.sh)" >&2
    status=1
    continue
  fi
  output=$("$bin/$test" 2>/dev/null) || status=1
  grep -E '^(\[(differential|menagerie|mesh inertia|mjcf round trip)\]|  [a-z]+: )' <<<"$output"
  grep -q '\[  PASSED  \]' <<<"$output" && ! grep -q '\[  FAILED  \]' <<<"$output" || { echo "$test FAILED"; status=1; }
done
exit $status
