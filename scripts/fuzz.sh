#!/usr/bin/env bash
# Runs the libFuzzer harnesses (fuzz/) for a fixed time each, seeded from the external corpus
# (INTERLINK_TEST_CORPUS, docs/dev/ci.md) or, without it, from the files tests/data vendors. They
# are built in ./build-asan, the clang ASan + UBSan build of the sanitizer job
# (scripts/clang-build.sh), so CI builds the tree with clang once for both jobs.
#   scripts/fuzz.sh [SECONDS_PER_HARNESS] [HARNESS...]     default: 60 s, every harness
# CI runs it with a short time (.ci/run). Findings (crash-*, timeout-*, leak-*, oom-*,
# slow-unit-*) are written to build-asan/fuzz/findings/<harness>/ and make the script fail.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
source scripts/clang-build.sh
configure_asan
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
  harnesses=(fuzz_sdformat fuzz_urdf fuzz_hrdf fuzz_shift fuzz_skel fuzz_juice fuzz_mjcf fuzz_core_model fuzz_hrdf_grammar fuzz_mesh fuzz_mjcf_includes fuzz_xml_readers
             fuzz_xacro fuzz_xacro_expression)
fi
cmake --build build-asan -j"${JOBS:-$(nproc)}" --target "${harnesses[@]}" interlink_cli

# The external corpus, or the vendored files in the same layout (sdformat/, gazebo/, hrdf/, shift/, juice/).
corpus="${INTERLINK_TEST_CORPUS:-tests/data}"
[ -d "$corpus" ] || corpus=tests/data
# The seeds of each harness: the corpus files of its format (read-only; new inputs go elsewhere).
seed_files() {
  case "$1" in
    fuzz_sdformat) find "$corpus/sdformat" "$corpus/gazebo" -name '*.sdf' -size -64k 2>/dev/null ;;
    fuzz_urdf) find "$corpus/sdformat" "$corpus/gazebo" tests/urdf/data -name '*.urdf' -size -64k 2>/dev/null ;;
    fuzz_hrdf) find "$corpus/hrdf" -name '*.hrdf' -size -64k 2>/dev/null ;;
    fuzz_shift) find "$corpus/shift" tests/shift/data -name '*.json' -size -64k 2>/dev/null ;;
    fuzz_skel) find /usr/share/doc/dart/data/skel -name '*.skel' -size -64k 2>/dev/null ;;
    fuzz_juice) find "$corpus/juice" -name '*.jm' -size -64k 2>/dev/null ;;
    fuzz_mjcf) grep -rl --include='*.xml' '<mujoco' tests/data/mujoco tests/data/menagerie 2>/dev/null |
                 while IFS= read -r f; do [ "$(stat -c %s "$f")" -lt 65536 ] && echo "$f"; done ;;
    fuzz_core_model) find build-asan/fuzz/core_model_seeds -name '*.json' -size -64k 2>/dev/null ;;
    fuzz_hrdf_grammar) printf '%s\n' ;;
    fuzz_xacro) find tests/data -name '*.xacro' -size -64k 2>/dev/null ;;
    fuzz_mesh | fuzz_mjcf_includes | fuzz_xml_readers | fuzz_xacro_expression) find "build-asan/fuzz/$1_seeds" -type f 2>/dev/null ;;
  esac
}

# The JSON core model has no corpus of its own: its seeds are what `convert` writes for a few
# corpus files of other formats.
mkdir -p build-asan/fuzz/core_model_seeds
while IFS= read -r model; do
  out="build-asan/fuzz/core_model_seeds/$(basename "$model").json"
  [ -f "$out" ] || build-asan/bin/interlink convert "$model" -o "$out" >/dev/null 2>&1 || rm -f "$out"
done < <(ls samples/models/*.sdf; find "$corpus/hrdf" "$corpus/juice" -name '*.hrdf' -o -name '*.jm' 2>/dev/null | sort | head -30)

# Mesh seeds: the first byte picks the format (0 STL, 1 OBJ, 2 COLLADA, 3 glTF, 4 GLB, 5 PLY), then
# small real files of the tests. MJCF include seeds: main file, NUL, included file.
mkdir -p build-asan/fuzz/fuzz_mesh_seeds build-asan/fuzz/fuzz_mjcf_includes_seeds
seed_mesh() { { printf "\\$(printf '%03o' "$1")"; cat "$2"; } > "build-asan/fuzz/fuzz_mesh_seeds/$(basename "$2")"; }
for f in $(find tests -name '*.stl' -size -16k | head -5); do seed_mesh 0 "$f"; done
for f in $(find tests -name '*.obj' -size -16k | head -5); do seed_mesh 1 "$f"; done
for f in $(find tests -name '*.dae' -size -16k | head -5); do seed_mesh 2 "$f"; done
for f in $(find tests -name '*.gltf' -size -16k | head -3); do seed_mesh 3 "$f"; done
for f in $(find tests -name '*.ply' -size -16k | head -3); do seed_mesh 5 "$f"; done
# Small valid files of every format written for the fuzzer (fuzz/seeds/mesh/README.md).
seed_mesh 2 fuzz/seeds/mesh/tetra.dae
seed_mesh 3 fuzz/seeds/mesh/tetra.gltf
seed_mesh 4 fuzz/seeds/mesh/tetra.glb
seed_mesh 5 fuzz/seeds/mesh/tetra.ply
# XML reader seeds: the first byte picks the options (bit 0: comments collected; bits 1-2: leniency).
mkdir -p build-asan/fuzz/fuzz_xml_readers_seeds
for f in $(find tests/data -name '*.urdf' -size -16k | sort | head -20) $(find tests/data -name '*.xacro' -size -16k | sort | head -20) \
         $(find tests/data -name '*.sdf' -size -16k | sort | head -20); do
  { printf '\001'; cat "$f"; } > "build-asan/fuzz/fuzz_xml_readers_seeds/$(basename "$f")"
done
printf '\000<a x="1" y=\047&amp;&#x41;\047>t<!--c--><b/>u &lt; v\n  <c/>\n</a>' > build-asan/fuzz/fuzz_xml_readers_seeds/mixed.xml
printf '\002 <?xml version="1.0"?><robot><!-- a -- b --><link name="l"/></robot>' > build-asan/fuzz/fuzz_xml_readers_seeds/tinyxml.xml
# A byte-order mark before a comment on line 1 (expat counts the mark as a column; a finding of CI's fuzz run).
printf '\001\357\273\277<robot><!-- a --><link name="l"/></robot>' > build-asan/fuzz/fuzz_xml_readers_seeds/bom.xml
printf '<mujoco><worldbody><body><include file="inc.xml"/></body></worldbody></mujoco>\0<mujoco><body><body><include file="inc.xml"/></body></body></mujoco>' \
  > build-asan/fuzz/fuzz_mjcf_includes_seeds/self.xml
printf '<mujoco><asset><include file="inc.xml"/></asset></mujoco>\0<mujoco><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></mujoco>' \
  > build-asan/fuzz/fuzz_mjcf_includes_seeds/asset.xml

# xacro expression seeds: the text of every distinct ${...} of the vendored descriptions, and a
# few that reach the builtins, comprehensions and the value budget.
mkdir -p build-asan/fuzz/fuzz_xacro_expression_seeds
find tests/data -name '*.xacro' -size -64k -print0 | xargs -0 grep -oh '\${[^}]*}' 2>/dev/null | sort -u | head -400 |
  while IFS= read -r e; do
    e="${e#\$\{}"; e="${e%\}}"
    printf '%s' "$e" > "build-asan/fuzz/fuzz_xacro_expression_seeds/$(printf '%s' "$e" | md5sum | cut -c1-16)"
  done || true  # grep finds nothing in some files; head may stop sort early
for e in "[x * 2 for x in range(n) if x != 1]" "'%s_%d' % (s, n)" "d['a'][0] ** -0.5" "sorted(d.keys())" \
         "s * 100000 + str(len(s))" "radians(90) if n > 2 else degrees(pi)" "{'k': [1, 2.5]}['k'][1:]"; do
  printf '%s' "$e" > "build-asan/fuzz/fuzz_xacro_expression_seeds/$(printf '%s' "$e" | md5sum | cut -c1-16)"
done

status=0
for harness in "${harnesses[@]}"; do
  work="build-asan/fuzz/corpus/$harness"
  seeds="build-asan/fuzz/seeds/$harness"
  findings="build-asan/fuzz/findings/$harness"
  mkdir -p "$work" "$seeds" "$findings"
  while IFS= read -r file; do
    [ -n "$file" ] && cp -f "$file" "$seeds/$(echo "$file" | md5sum | cut -c1-16)$(basename "$file" | sed 's/.*\(\.[^.]*\)$/\1/')"
  done < <(seed_files "$harness" | sort | head -200)
  if [ "$harness" = fuzz_hrdf_grammar ]; then
    for s in "1.5" "pi/2" "-(3*pi)/4 + 2" "Rx(pi/2)*Ry(0.1)*Rz(-pi)" "1 0 0 0 1 0 0 0 1" "0.1 0.2 0.3"; do
      printf '%s' "$s" > "$seeds/$(printf '%s' "$s" | md5sum | cut -c1-16)"
    done
  fi
  echo "== $harness: ${seconds}s, $(ls "$seeds" | wc -l) seeds"
  # Large inputs are allowed so that the algorithmic limits are reached; a unit slower than
  # -timeout or a process above -rss_limit_mb is a finding like a crash.
  # The harness links libFuzzer's C++ runtime, which puts libstdc++ before the shared ASan runtime
  # in its library list; the runtime still interposes malloc (libstdc++ defines none), so the
  # start-up check of that order is turned off.
  # Assimp (Debian's, not instrumented, no frame pointers) leaks on some broken files: only the
  # slow unwinder follows an allocation into it, so that scripts/lsan.supp can name the library.
  unwind=""
  [ "$harness" = fuzz_mesh ] && unwind=":fast_unwind_on_malloc=0"
  if ! ASAN_OPTIONS="detect_leaks=1:verify_asan_link_order=0$unwind" UBSAN_OPTIONS=print_stacktrace=1 LSAN_OPTIONS=suppressions="$PWD/scripts/lsan.supp" \
      "build-asan/bin/$harness" "$work" "$seeds" -max_total_time="$seconds" -max_len=262144 -timeout=10 \
      -rss_limit_mb=2048 -artifact_prefix="$findings/" -print_final_stats=1 >"$findings/log.txt" 2>&1; then
    echo "!! $harness found a problem: see $findings/ (log.txt)"
    tail -40 "$findings/log.txt"
    status=1
  else
    grep -E "stat::number_of_executed_units|cov:" "$findings/log.txt" | tail -2 || true
  fi
done
exit $status
