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

# After a failed run: how each failed test ended (CTest's status line: a failure, a signal, a
# timeout), the kernel's out-of-memory kills if this machine lets us read them, and the memory
# left. A test killed from outside leaves no message of its own in its output.
report_failed_tests() {
  echo "=== how the failed tests ended"
  grep -E '\*\*\*|Not Run' "$1" || true
  if dmesg >/dev/null 2>&1; then
    dmesg | grep -iE 'out of memory|oom-kill|killed process' | tail -n 20 || true
  fi
  free -m || true
}
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
      # Memory bounds the parallelism, so that the kernel's OOM killer never ends a test silently
      # on a machine with many cores and little memory. Under ASan one program peaks far above
      # the rest (/usr/bin/time, a sampler of RSS): the Gazebo differential at 11.6 GB, while
      # libsdformat loads gz-sim's 3k_shapes.sdf (8.1 GB even in a plain Release process); the
      # others stay under 1.5 GB. So 12 GB are kept for that one and 2 GB for each test beside it.
      available_gb=$(awk '/^MemAvailable:/ {print int($2 / 1048576)}' /proc/meminfo)
      # A container's own limit: cgroup v2's memory.max, or v1's memory.limit_in_bytes.
      limit=$(cat /sys/fs/cgroup/memory.max 2>/dev/null ||
              cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || echo max)
      if [[ "$limit" =~ ^[0-9]+$ ]] && [ $((limit / 1073741824)) -lt "$available_gb" ]; then
        available_gb=$((limit / 1073741824))
      fi
      test_jobs=$(( 1 + (available_gb - 12) / 2 ))
      [ "$test_jobs" -gt "$jobs" ] && test_jobs=$jobs
      [ "$test_jobs" -lt 1 ] && test_jobs=1
      echo "tests: $test_jobs at once ($(nproc) cores, ${available_gb} GB available)"
      status=0
      ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        LSAN_OPTIONS=suppressions="$PWD/scripts/lsan.supp" \
        ctest --test-dir build-asan --output-on-failure -j"$test_jobs" --timeout 900 2>&1 |
        tee build-asan/ctest-output.log || status=$?
      if [ "$status" -ne 0 ]; then
        report_failed_tests build-asan/ctest-output.log
        exit "$status"
      fi
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
