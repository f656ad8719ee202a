#!/usr/bin/env bash
# The sanitizer job: the whole test suite built with clang, AddressSanitizer and UBSan
# (./build-asan), and the concurrency test under ThreadSanitizer (./build-tsan). Each build
# directory is configured once; -O1 and no benchmarks keep the builds short.
#   scripts/sanitize.sh [asan|tsan]...     default: both
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
export CCACHE_BASEDIR="$PWD"
export CCACHE_NOHASHDIR=1
jobs="$(nproc)"
configure() {  # configure DIR FLAGS
  if [ ! -f "$1/build.ninja" ]; then
    CC=clang CXX=clang++ cmake -S . -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g -fno-omit-frame-pointer $2" \
      -DCMAKE_EXE_LINKER_FLAGS="$2" -DCMAKE_SHARED_LINKER_FLAGS="$2" -DCMAKE_MODULE_LINKER_FLAGS="$2" \
      -DINTERLINK_BUILD_BENCH=OFF >/dev/null
  fi
}
jobs_to_run=("$@")
[ ${#jobs_to_run[@]} -eq 0 ] && jobs_to_run=(asan tsan)
for job in "${jobs_to_run[@]}"; do
  case "$job" in
    asan)
      configure build-asan "-fsanitize=address,undefined -fno-sanitize-recover=undefined"
      cmake --build build-asan -j"$jobs"
      # Leaks are findings; the reference libraries some tests link (DART, libsdformat) are not ours.
      ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        LSAN_OPTIONS=suppressions="$PWD/scripts/lsan.supp" \
        ctest --test-dir build-asan --output-on-failure -j"$jobs" --timeout 900
      ;;
    tsan)
      configure build-tsan "-fsanitize=thread"
      cmake --build build-tsan -j"$jobs" --target concurrency_test
      TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
        ctest --test-dir build-tsan --output-on-failure -R '^Concurrency\.' --timeout 900
      ;;
    *) echo "unknown job '$job' (asan, tsan)" >&2; exit 2 ;;
  esac
done
