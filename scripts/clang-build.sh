# Sourced by scripts/run-tests.sh, scripts/sanitize.sh and scripts/fuzz.sh: configures a clang
# build directory with sanitizers.
#   configure_clang DIR COMPILE_FLAGS LINK_FLAGS [CMAKE_ARGS...]
# -O1 with line tables only: sanitizer reports keep file:line, the build stays short. No
# benchmarks. ccache is used but the CI machine starts cold (a GCC build's cache does not help).
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
export CCACHE_BASEDIR="$PWD"
export CCACHE_NOHASHDIR=1
configure_clang() {
  local dir="$1" flags="$2" link_flags="$3"
  shift 3
  # Re-running cmake with the same values changes no build command, so nothing is rebuilt.
  CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -fno-omit-frame-pointer $flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags $link_flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags $link_flags" \
    -DCMAKE_MODULE_LINKER_FLAGS="$flags $link_flags" \
    -DINTERLINK_SANITIZER_FLAGS="$flags" -DINTERLINK_SANITIZER_LINK_FLAGS="$link_flags" \
    -DINTERLINK_BUILD_BENCH=OFF "$@" >/dev/null
}
# The ASan + UBSan build (build-asan) serves the whole test suite and the fuzz harnesses: libFuzzer's
# coverage instrumentation (fuzzer-no-link) costs the tests little, and one clang build instead
# of two halves the CI time of the sanitizer and fuzz jobs. Every program and library uses the
# shared sanitizer runtime, so that the (uninstrumented) Python interpreter can preload it and
# load the Interlink module, and what that interpreter starts (the CLI, a second interpreter)
# shares the same runtime.
configure_asan() {
  local runtime_dir
  runtime_dir="$(dirname "$(clang++ -print-file-name=libclang_rt.asan-x86_64.so)")"
  configure_clang build-asan "-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined" \
    "-shared-libasan -Wl,-rpath,$runtime_dir" -DINTERLINK_FUZZ=ON -DINTERLINK_BUILD_PYTHON=ON
}
configure_tsan() {
  configure_clang build-tsan "-fsanitize=thread" ""
}
