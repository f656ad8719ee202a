#!/usr/bin/env bash
# A user's clone passes the README's test command: clones this checkout's HEAD into an empty
# temporary directory (nothing beside it: no corpus, no build), removes the external corpus from
# the environment and runs ./scripts/run-tests.sh there. Fails when that fails. .ci/run calls it
# after the main run, so the ccache is warm (scripts/build.sh and scripts/clang-build.sh set
# CCACHE_BASEDIR, so a clone elsewhere hits the cache); docs/dev/ci.md has what it costs.
#   scripts/clean-clone-test.sh            FUZZ_SECONDS (default here 2) is passed on
# Only committed work is tested: the clone is of HEAD.
set -euo pipefail
cd "$(dirname "$0")/.."

# The run inside the clone must not start another clone (a .ci/run there would).
if [ -n "${INTERLINK_CLEAN_CLONE_RUN:-}" ]; then
  echo "clean-clone-test: already inside a clean-clone run; not cloning again" >&2
  exit 0
fi

head="$(git rev-parse HEAD)"
parent="$(mktemp -d)"
trap 'rm -rf "$parent"' EXIT
git clone --quiet --no-local "$PWD" "$parent/x"
git -C "$parent/x" checkout --quiet --detach "$head"
echo "=== clean clone of $head in $parent/x (beside it: $(ls -A "$parent" | tr '\n' ' '))"

cd "$parent/x"
start=$SECONDS
env -u INTERLINK_TEST_CORPUS INTERLINK_CLEAN_CLONE_RUN=1 FUZZ_SECONDS="${FUZZ_SECONDS:-2}" \
  bash ./scripts/run-tests.sh
echo "=== clean clone: the README's test command passed in $((SECONDS - start)) s"
