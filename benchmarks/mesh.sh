#!/usr/bin/env bash
# Mesh benchmark: photos → USDZ with `atl-reconstruct --detail LEVEL | atl-export --format usdz`,
# per detail level, on synthetic captures whose true surface is known; and, side by side, COLMAP's
# CPU meshing where pycolmap offers it (no CUDA here, so no COLMAP PatchMatch: its screened
# Poisson mesher on the two point clouds it can be given, see below).
#
#   swift build -c release && benchmarks/mesh.sh
#   CAPTURES=textured-24 LEVELS=preview benchmarks/mesh.sh        # a quick run
#   benchmarks/mesh.sh --large                                    # also 12 MP: 24 photos per level, 40 at full
#
# Captures: rendered with $ATL_BIN/synth-capture (seed 1) into benchmarks/work/mesh/NAME, reused
# while the command line (NAME.stamp) is unchanged: textured-24 and fabric-30 at 1024×768 (see
# docs/synthetic-captures.md), and with --large textured-24 at 4032×3024 (every level) and the same
# garment from 40 views at 4032×3024 (full: the issue's memory bound, 40 photos of 12 MP).
#
# Per capture and level (LEVELS, default "preview medium full"), one run each, under
# `/usr/bin/time -f "%e %M"` (wall seconds, peak RSS): atl-reconstruct (fabric-30 with
# --feature-sensitivity high) then atl-export --format usdz; then scripts/usdcheck.py (Pixar's
# validators) and benchmarks/mesh_eval.py: Chamfer distance and F-score at 1% (and at 0.5%) of the true mesh's
# bounding-box diagonal, for the mesh and the dense cloud, after aligning the cameras to the truth.
#
# COLMAP side (COLMAP=1, the default; pycolmap 4.2.1): pycolmap.poisson_meshing (screened Poisson,
# COLMAP's defaults but no density trim, POISSON_TRIM=0: the default 10 leaves a handful of
# triangles of a sparse cloud) on (a) COLMAP's own sparse points from benchmarks/reconstruct.sh's model,
# with each point's normal pointing to the mean of the cameras that see it (COLMAP's sparse points
# carry none), and (b) our dense cloud (dense/points.ply of the medium run): the first is COLMAP's
# CPU-only route from its own model, the second compares the meshers on the same points.
#
# Output: Markdown on stdout and in benchmarks/results-mesh-latest.md; logs in benchmarks/work/mesh.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
ATL_BIN=${ATL_BIN:-$ROOT/.build/release}
WORK=${WORK:-$HERE/work/mesh}
CAPTURES=${CAPTURES:-textured-24 fabric-30}
LEVELS=${LEVELS:-preview medium full}
COLMAP=${COLMAP:-1}
PYTHON=${PYTHON:-python3}
RESULTS=${RESULTS:-$HERE/results-mesh-latest.md}
[ "${1:-}" = "--large" ] && CAPTURES="$CAPTURES textured-24-12mp textured-40-12mp"
mkdir -p "$WORK"
"$PYTHON" -c 'import trimesh, scipy, pxr' 2>/dev/null || "$PYTHON" -m pip install --quiet trimesh scipy usd-core
[ "$COLMAP" = 1 ] && { "$PYTHON" -c 'import pycolmap' 2>/dev/null || "$PYTHON" -m pip install --quiet pycolmap==4.2.1; }

render() {   # NAME
    local name=$1 preset=$1 size=(--width 1024 --height 768)
    [ "$name" = textured-24-12mp ] && { preset=textured-24; size=(--width 4032 --height 3024); }
    [ "$name" = textured-40-12mp ] && { preset=textured-24; size=(--width 4032 --height 3024 --views 40); }
    local stamp="synth-capture --preset $preset ${size[*]} --seed 1"
    if [ "$(cat "$WORK/$name.stamp" 2>/dev/null)" != "$stamp" ]; then
        echo "rendering $name" >&2
        "$ATL_BIN/synth-capture" --preset "$preset" "${size[@]}" --seed 1 --out "$WORK/$name" --overwrite -q > /dev/null
        echo "$stamp" > "$WORK/$name.stamp"
    fi
}

{
echo "### Mesh benchmark, $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo
echo "| capture | level | photos→USDZ s | peak RSS MB | faces | usdchecker | mesh F-score | mesh F-score at 0.5 % | mesh Chamfer % diag | dense F-score | seconds by stage |"
echo "|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|"
} | tee "$RESULTS"
for name in $CAPTURES; do
    render "$name"
    levels=$LEVELS
    [ "$name" = textured-40-12mp ] && levels=full
    extra=()
    [ "$name" = fabric-30 ] && extra=(--feature-sensitivity high)
    for level in $levels; do
        out="$WORK/ours-$name-$level"
        rm -rf "$out" "$out.usdz"
        start=$(date +%s.%N)
        /usr/bin/time -f "%e %M" -o "$out.time" "$ATL_BIN/atl-reconstruct" "$WORK/$name" --detail "$level" "${extra[@]}" \
            -o "$out" --overwrite --progress none > "$out.record" 2> "$out.err" || { echo "| $name | $level | exit $? | | | | | | | | $(tail -1 "$out.err") |" | tee -a "$RESULTS"; continue; }
        /usr/bin/time -f "%e %M" -o "$out.export.time" "$ATL_BIN/atl-export" --format usdz -o "$out.usdz" < "$out.record" > "$out.json"
        total=$("$PYTHON" -c "print(round($(date +%s.%N) - $start, 1))")
        rss=$(awk '{print int($2/1024)}' "$out.time")
        check=$("$PYTHON" "$ROOT/scripts/usdcheck.py" "$out.usdz" > /dev/null 2>&1 && echo passes || echo FAILS)
        score=$("$PYTHON" "$HERE/mesh_eval.py" --truth "$WORK/$name" --model "$out" --record "$out.json")
        echo "$score" > "$out.score"
        "$PYTHON" - "$out.json" "$out.score" "$name" "$level" "$total" "$rss" "$check" <<'PY' | tee -a "$RESULTS"
import json, sys
record, score = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
name, level, total, rss, check = sys.argv[3:8]
stages = ", ".join(f"{k} {v:.1f}" for k, v in record["metrics"]["seconds"].items())
print(f"| {name} | {level} | {total} | {rss} | {record['faces']} | {check} | {score['mesh']['fscore']:.3f} | {score['mesh']['fscoreHalf']:.3f} | {score['mesh']['chamferPercent']:.3f} | {score['dense']['fscore']:.3f} | {stages} |")
PY
    done
done

# A held-out view: textured-24 at medium without img_0012.jpg, rendered from that photo's true
# camera and compared with it (benchmarks/mesh_psnr.py).
if [[ " $CAPTURES " == *" textured-24 "* ]]; then
    held=$WORK/textured-24-without-12
    rm -rf "$held" "$WORK/ours-held-out"
    mkdir -p "$held"
    for f in "$WORK"/textured-24/img_*.jpg; do [ "$(basename "$f")" = img_0012.jpg ] || ln "$f" "$held/" 2>/dev/null || cp "$f" "$held/"; done
    "$ATL_BIN/atl-reconstruct" "$held" --detail medium -o "$WORK/ours-held-out" --progress none > "$WORK/ours-held-out.json" 2> "$WORK/ours-held-out.err"
    psnr=$("$PYTHON" "$HERE/mesh_psnr.py" --capture "$WORK/textured-24" --model "$WORK/ours-held-out" --record "$WORK/ours-held-out.json" \
        --view img_0012.jpg --save "$WORK/held-out-img_0012.png")
    {
    echo
    echo "Held-out view (textured-24, medium, made from the other 23 photos, rendered from img_0012.jpg's true camera): $psnr"
    } | tee -a "$RESULTS"
fi

if [ "$COLMAP" = 1 ]; then
    {
    echo
    echo "COLMAP's screened Poisson (pycolmap.poisson_meshing, trim 0) on the same captures:"
    echo
    echo "| capture | cloud | input points | points | faces | seconds | mesh F-score | mesh F-score at 0.5 % | mesh Chamfer % diag |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
    } | tee -a "$RESULTS"
    for name in $CAPTURES; do
        [[ "$name" = *-12mp ]] && continue
        "$PYTHON" "$HERE/mesh_colmap.py" --truth "$WORK/$name" --name "$name" --work "$WORK" \
            --colmap-model "$HERE/work/reconstruct/colmap-$name/sparse" --ours "$WORK/ours-$name-medium" | tee -a "$RESULTS"
    done
fi
