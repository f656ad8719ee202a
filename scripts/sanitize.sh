#!/usr/bin/env bash
# The sanitizer job: the whole test suite built with clang, AddressSanitizer and UBSan
# (./build-asan, the build the fuzz harnesses also use), and the concurrency test under
# ThreadSanitizer (./build-tsan, only that test and what it loads). Each build directory is
# configured by scripts/clang-build.sh (re-running it changes no build command).
#   scripts/sanitize.sh [asan|tsan]...     default: both
# JOBS (default: the number of cores) sets the build and test parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/clang-build.sh
jobs="${JOBS:-$(nproc)}"
jobs_to_run=("$@")
[ ${#jobs_to_run[@]} -eq 0 ] && jobs_to_run=(asan tsan)
for job in "${jobs_to_run[@]}"; do
  case "$job" in
    asan)
      configure_asan
      cmake --build build-asan -j"$jobs"
      # Leaks are findings; the reference libraries some tests link (DART, libsdformat) are not ours.
      # The Python tests run the uninstrumented interpreter: the ASan runtime is preloaded for them
      # (tests/python) and Python's own allocations are not checked for leaks.
      ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        LSAN_OPTIONS=suppressions="$PWD/scripts/lsan.supp" \
        ctest --test-dir build-asan --output-on-failure -j"$jobs" --timeout 900
      ;;
    tsan)
      configure_tsan
      cmake --build build-tsan -j"$jobs" --target concurrency_test
      TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
        ctest --test-dir build-tsan --output-on-failure -R '^concurrency_test$' --timeout 900
      ;;
    *) echo "unknown job '$job' (asan, tsan)" >&2; exit 2 ;;
  esac
done
