#!/usr/bin/env bash
# The test command (README, .ci/run): installs what is missing, then
#   1. builds the whole tree once with clang, AddressSanitizer + UBSan and libFuzzer's coverage
#      instrumentation (./build-asan) and runs the whole suite under the sanitizers;
#   2. runs every libFuzzer harness (fuzz/) for FUZZ_SECONDS (default 10) on that build;
#   3. builds the concurrency test under ThreadSanitizer (./build-tsan) and runs it.
# Each step prints its wall time. Why one sanitizer build instead of a GCC test build plus a
# sanitizer build, and the measured times: docs/dev/ci.md. The quick loop of a developer is the
# GCC Release build: `scripts/build.sh && ctest --test-dir build -j2`.
set -euo pipefail
cd "$(dirname "$0")/.."

timed() {  # timed NAME COMMAND...: runs it, then prints its wall time
  local name="$1" start=$SECONDS
  shift
  echo "=== $name"
  "$@"
  echo "=== $name: $((SECONDS - start)) s"
}

timed "install what is missing" bash scripts/install-deps.sh
timed "ASan + UBSan build and the whole suite" bash scripts/sanitize.sh asan
timed "fuzzing" bash scripts/fuzz.sh "${FUZZ_SECONDS:-10}"
timed "ThreadSanitizer concurrency test" bash scripts/sanitize.sh tsan
echo "=== all tests passed in $SECONDS s"
