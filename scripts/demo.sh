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

step "atl-reconstruct \$DEMO/capture --out \$DEMO/model | jq -c '{images, registered, points, metrics: .metrics | {meanTrackLength, meanReprojectionErrorPixels}}'"
atl-reconstruct "$DEMO/capture" --out "$DEMO/model" | jq -c '{images, registered, points, metrics: .metrics | {meanTrackLength, meanReprojectionErrorPixels}}'
echo "(cameras and a sparse point cloud as a COLMAP text model in \$DEMO/model/sparse)" >&2

printf '\nThe demo catalog is %s; try: ATELIER_DB=%s %s/atl-query outfits --expand --limit 1\n' "$ATELIER_DB" "$ATELIER_DB" "$BIN" >&2
