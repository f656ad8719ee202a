# Sourced by scripts/sanitize.sh and scripts/fuzz.sh: configures a clang build directory once.
#   configure_clang DIR SANITIZER_FLAGS [CMAKE_ARGS...]
# -O1 with line tables only: sanitizer reports keep file:line, the build stays short. No
# benchmarks. ccache is used but the CI machine starts cold (a GCC build's cache does not help).
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
export CCACHE_BASEDIR="$PWD"
export CCACHE_NOHASHDIR=1
configure_clang() {
  local dir="$1" flags="$2"
  shift 2
  if [ ! -f "$dir/build.ninja" ]; then
    CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -fno-omit-frame-pointer $flags" \
      -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" -DCMAKE_MODULE_LINKER_FLAGS="$flags" \
      -DINTERLINK_BUILD_BENCH=OFF "$@" >/dev/null
  fi
}
# The ASan + UBSan build (build-asan) serves the whole test suite and the fuzz harnesses: libFuzzer's
# coverage instrumentation (fuzzer-no-link) costs the tests little, and one clang build instead
# of two halves the CI time of the sanitizer and fuzz jobs. The Python package is left out: the
# uninstrumented interpreter cannot load an ASan-built module without preloading the runtime,
# and its tests exercise the same core through thin bindings that the C++ tests cover.
configure_asan() {
  configure_clang build-asan "-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined" \
    -DINTERLINK_FUZZ=ON -DINTERLINK_BUILD_PYTHON=OFF
}
