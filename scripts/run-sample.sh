#!/usr/bin/env bash
# Installs what is missing, builds Interlink, and runs `interlink check` and `interlink frames`
# on the bundled sample work cell.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
sample=samples/models/workcell.sdf
echo "== interlink check $sample"
./build/bin/interlink check "$sample"
echo "== interlink frames $sample --positions 0.3,-0.6,0,0"
./build/bin/interlink frames "$sample" --positions 0.3,-0.6,0,0
echo "== interlink tree $sample"
./build/bin/interlink tree "$sample"
