# Sourced by the start-up scripts (run from the repository root): the build, the small files both
# measure, a scratch directory and a private plugin metadata cache, warmed (a first run after
# installing or changing plugins opens every library once).
BUILD="$(cd "${1:-build}" && pwd)"
CLI="$BUILD/bin/interlink"
URDF="tests/data/sdformat/test/integration/model/test_include_urdf/model.urdf"  # libsdformat's, vendored
SDF="samples/models/arm.sdf"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
export XDG_CACHE_HOME="$OUT/cache"
"$CLI" plugins >/dev/null
