#!/usr/bin/env bash
# Installs every Debian bookworm package the build, the tests and the benchmarks need.
# Idempotent: packages already present are skipped, so a second run costs one dpkg query.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libboost-dev libboost-filesystem-dev libboost-graph-dev
  libxerces-c-dev libexpat1-dev libeigen3-dev libjansson-dev libassimp-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libsdformat-dev                                  # reference implementation for differential tests
  libdart-utils-dev libdart-external-ikfast-dev dart-doc   # DART SkelParser + its SKEL corpus
  liburdfdom-tools graphviz
  liborocos-kdl-dev libkdl-parser-dev              # URDF forward-kinematics references (tests/urdf, bench/fk)
  libcli11-dev                                     # argument parsing of the interlink command
  libmimalloc-dev                                  # the interlink command's heap, in huge pages (cli/ProcessHeap.cpp)
  hyperfine                                        # whole-process start-up benchmark (bench/startup)
  libxerces-c-samples                              # SAX2Count: the raw-parse floor of bench/parse_floor
  time                                             # GNU time: peak memory of a child not counting its launcher (bench/parse_floor)
  python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pytest   # the Python package and its tests
  python3-setuptools python3-wheel python3-pip python3-venv   # `pip install .` offline (pyproject.toml, setup.py) and its wheel test
  libmujoco-dev                                    # MuJoCo 2.2.2: the MJCF reference (tests only)
  libyaml-dev                                      # xacro.load_yaml (plugins/xacro; libyaml, the parser PyYAML uses: 6x yaml-cpp)
  libqhull-dev                                     # convex hulls of MJCF meshes, as MuJoCo builds them (plugins/mjcf)
  libjs-three                                      # three.js r111 (+ GLTFLoader, OrbitControls) compiled into `interlink view`'s page
  libcpp-httplib-dev zlib1g-dev                    # `interlink view`: the live mode's HTTP server; meshes deflated into the page
  chromium                                         # headless browser of the `interlink view` tests (tests/view)
  clang libclang-rt-14-dev                         # fuzzing (libFuzzer) and sanitizer builds: scripts/fuzz.sh, scripts/sanitize.sh
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
