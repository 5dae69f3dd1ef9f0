#!/usr/bin/env bash
# The `make demo` tour: a sample wardrobe in a local catalog and pipelines over it.
set -euo pipefail
export ATELIER_DB="$DEMO/catalog.sqlite"
PATH="$BIN:$PATH"
step() { printf '\n\033[1m$ %s\033[0m\n' "$*" >&2; }
[ -n "${NO_COLOR:-}" ] || [ ! -t 2 ] && step() { printf '\n$ %s\n' "$*" >&2; }

step "atl-import --sample | wc -l"
atl-import --sample | wc -l

step "atl-query garments --where 'season=winter' --where 'category=outerwear' --sort -wearCount | jq -r .name"
atl-query garments --where 'season=winter' --where 'category=outerwear' --sort -wearCount | jq -r .name

step "atl-query stats --by category | jq -c '{group, garments, wears, costPerWear}'"
atl-query stats --by category | jq -c '{group, garments, wears, costPerWear}'

step "atl-query garments --where 'lastWornOn<today-30d' --fields name,lastWornOn"
atl-query garments --where 'lastWornOn<today-30d' --fields name,lastWornOn || true

step "atl-query laundry-plan | atl-export --format csv -o \$DEMO/loads.csv && cut -d, -f1-5 \$DEMO/loads.csv"
atl-query laundry-plan | atl-export --format csv -o "$DEMO/loads.csv"
cut -d, -f1-5 "$DEMO/loads.csv"

step "atl-query suggest | jq -r '.name, (.why.reasons[] | \"  - \" + .)'"
atl-query suggest | jq -r '.name, (.why.reasons[] | "  - " + .)'

step "atl-query garments --where 'composition.fabric=wool' | atl-export --format csv --columns name,brand,price.amount -o \$DEMO/wool.csv"
atl-query garments --where 'composition.fabric=wool' | atl-export --format csv --columns name,brand,price.amount -o "$DEMO/wool.csv"
cat "$DEMO/wool.csv"

step "atl-query garments --limit 1 | jq -c '{type:\"wear\", garment:.id}' | atl-import"
atl-query garments --limit 1 | jq -c '{type:"wear", garment:.id}' | atl-import

step "atl-export --format backup -o \$DEMO/wardrobe.atelier && atl-import --restore \$DEMO/wardrobe.atelier"
atl-export --format backup -o "$DEMO/wardrobe.atelier"
atl-import --restore "$DEMO/wardrobe.atelier"
atl-query garments | wc -l

step "synth-capture --preset small-12 --width 640 --height 480 --out \$DEMO/capture -q | jq -c '{images, width, height, preset}'"
synth-capture --preset small-12 --width 640 --height 480 --out "$DEMO/capture" -q | jq -c '{images, width, height, preset}'
echo "(12 photos around a draped garment, rendered from known cameras; the truth is in \$DEMO/capture/truth)" >&2

step "atl-classify --task quality \$DEMO/capture/img_000[1-3].jpg | jq -c '{path, verdict}'"
atl-classify --task quality "$DEMO"/capture/img_000[1-3].jpg | jq -c '{path, verdict}'

shirt=$(atl-query garments --where 'name=White Oxford Shirt' --fields id | jq -r .id)
step "atl-reconstruct \$DEMO/capture --detail preview --garment $shirt --out \$DEMO/model | atl-export --format usdz -o \$DEMO/Models/ | atl-import | jq -c '{registered, faces, usdz: .files.usdz}'"
rm -rf "$DEMO/model" "$DEMO/Models"
atl-reconstruct "$DEMO/capture" --detail preview --garment "$shirt" --out "$DEMO/model" | atl-export --format usdz -o "$DEMO/Models/" | atl-import | tee "$DEMO/model.json" | jq -c '{registered, faces, usdz: .files.usdz}'
echo "(cameras as a COLMAP model in \$DEMO/model/sparse, the dense cloud in \$DEMO/model/dense, the textured mesh in \$DEMO/model/mesh)" >&2

step "python3 scripts/usdcheck.py \$DEMO/Models/Garment_*.usdz"
# Pixar's validators come with the tests' Python references (make test puts them in
# .build/test-python); a python3 of the user's that has usd-core does as well.
python=python3
test_python="$(cd "$(dirname "$0")/.." && pwd)/.build/test-python/bin/python3"
[ -x "$test_python" ] && "$test_python" -c 'import pxr' 2>/dev/null && python="$test_python"
if "$python" -c 'import pxr' 2>/dev/null; then
    "$python" "$(dirname "$0")/usdcheck.py" "$DEMO"/Models/Garment_*.usdz
else
    echo "(Pixar's validators are not installed: run make test once, which puts usd-core in .build/test-python, or pip install usd-core)" >&2
fi


step "atl-export --format html -o \$DEMO/lookbook"
atl-export --format html -o "$DEMO/lookbook" 2> /dev/null
echo "(open it in a browser: the garments, their care labels, outfits and charts, and the shirt's 3D model turning on its page, from file:// with no server)" >&2

printf '\nThe demo catalog is %s; try: ATELIER_DB=%s %s/atl-query outfits --expand --limit 1\n' "$ATELIER_DB" "$ATELIER_DB" "$BIN" >&2
