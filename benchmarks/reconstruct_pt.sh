#!/usr/bin/env bash
# Reconstruction benchmark on INDEPENDENT captures: photos rendered with the path tracer Mitsuba 3
# by benchmarks/pt_capture.py (no code, texture or idea shared with synth-capture), scored by
# benchmarks/pt_eval.py against the true surface and cameras; pycolmap's sparse model + screened
# Poisson side by side.
#
#   benchmarks/reconstruct_pt.sh
#   CAPTURES="dressform-24 knit-30" LEVELS=medium PYTHON=/path/to/venv/bin/python benchmarks/reconstruct_pt.sh
#
# Captures (CAPTURES, default "dressform-24 knit-30 shoe-24 jersey-30 denim-30"): rendered with
# `nice -n 10 pt_capture.py --scene NAME --seed 1 --spp $SPP --width 1024 --height 768 --check 1`
# into $WORK/NAME (default benchmarks/work/pt/NAME), and reused while that command line (NAME.stamp)
# is unchanged. Rendering is slow: about 20-45 s a photo on 2 cores (SPP=16), so 10-25 min a capture.
#
# Per capture and level (LEVELS, default "medium"), one run under `/usr/bin/time -f "%e %M"` (wall
# seconds, peak RSS): $ATL_BIN/atl-reconstruct $WORK/NAME --detail LEVEL -o $WORK/ours-NAME-LEVEL,
# then pt_eval.py: registered photos, rotation error after a similarity alignment of the camera
# centres, F-score at 1 % and 0.5 % of the true bounding-box diagonal, area ratio and the share of
# the area visible from outside (see pt_eval.py's docstring).
#
# Peer (PEER=1, the default; pycolmap 4.2.1, CPU): benchmarks/reconstruct_colmap.py (SIFT,
# exhaustive matching, incremental mapping, 2 threads) into $WORK/colmap-NAME, then pycolmap's
# screened Poisson (trim 0) on its sparse points with normals towards their cameras
# (pt_eval.py --make-peer-mesh), scored the same way in its own frame aligned by its own cameras.
#
# REUSE=1 scores the models of an earlier run again instead of running atl-reconstruct (a run
# that wrote a mesh); the pycolmap side is always reused while its capture is.
#
# Output: Markdown on stdout and in benchmarks/results-pt-latest.md (RESULTS); logs in $WORK.
# Python: PYTHON (default python3) needs mitsuba==3.6.0 numpy pillow trimesh scipy (and
# pycolmap==4.2.1 for the peer); missing ones are installed with pip.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
ATL_BIN=${ATL_BIN:-$ROOT/.build/release}
WORK=${WORK:-$HERE/work/pt}
CAPTURES=${CAPTURES:-dressform-24 knit-30 shoe-24 jersey-30 denim-30}
LEVELS=${LEVELS:-medium}
PEER=${PEER:-1}
REUSE=${REUSE:-0}
SPP=${SPP:-16}
PYTHON=${PYTHON:-python3}
RESULTS=${RESULTS:-$HERE/results-pt-latest.md}
mkdir -p "$WORK"
"$PYTHON" -c 'import mitsuba, numpy, PIL, trimesh, scipy' 2>/dev/null \
    || "$PYTHON" -m pip install --quiet mitsuba==3.6.0 numpy pillow trimesh scipy
[ "$PEER" = 1 ] && { "$PYTHON" -c 'import pycolmap' 2>/dev/null || "$PYTHON" -m pip install --quiet pycolmap==4.2.1; }
[ -x "$ATL_BIN/atl-reconstruct" ] || { echo "reconstruct_pt.sh: no $ATL_BIN/atl-reconstruct (swift build -c release first)" >&2; exit 1; }

render() {   # NAME
    local name=$1
    local args=(--scene "$name" --seed 1 --spp "$SPP" --width 1024 --height 768 --check 1)
    local stamp="pt_capture.py ${args[*]}"
    if [ "$(cat "$WORK/$name.stamp" 2>/dev/null)" != "$stamp" ] || [ ! -f "$WORK/$name/truth/scene.json" ]; then
        echo "rendering $name (pt_capture.py, log in $WORK/$name.capture.log)" >&2
        rm -f "$WORK/$name.stamp"
        nice -n 10 "$PYTHON" "$HERE/pt_capture.py" "${args[@]}" --out "$WORK/$name" --overwrite \
            > "$WORK/$name.capture.json" 2> "$WORK/$name.capture.log" \
            || { echo "reconstruct_pt.sh: rendering $name failed:" >&2; tail -5 "$WORK/$name.capture.log" >&2; return 1; }
        echo "$stamp" > "$WORK/$name.stamp"
    fi
}

peer() {   # NAME: pycolmap sparse + Poisson, once per capture (reused while the capture is)
    local name=$1 dir=$WORK/colmap-$name
    if [ ! -f "$dir.done" ] || [ "$(cat "$dir.done")" != "$(cat "$WORK/$name.stamp")" ]; then
        rm -rf "$dir" "$dir.done"
        /usr/bin/time -f "%e %M" -o "$dir.time" "$PYTHON" "$HERE/reconstruct_colmap.py" "$WORK/$name" --out "$dir" --threads 2 \
            > "$dir.json" 2> "$dir.err" || { echo "reconstruct_pt.sh: pycolmap failed on $name" >&2; return 0; }
        if [ -d "$dir/sparse" ]; then
            "$PYTHON" "$HERE/pt_eval.py" --make-peer-mesh "$dir/poisson.ply" --peer-sparse "$dir/sparse" > "$dir.mesh.json" 2>> "$dir.err" \
                || echo "reconstruct_pt.sh: Poisson failed on $name" >&2
        fi
        cat "$WORK/$name.stamp" > "$dir.done"
    fi
}

row() {   # SCORE_JSON LABEL NAME SECONDS RSS_MB EXTRA
    "$PYTHON" - "$@" <<'PY'
import json, sys
path, label, name, seconds, rss, extra = sys.argv[1:7]
try:
    s = json.load(open(path))
except Exception as error:
    print(f"| {name} | {label} | | | | | | | | | {seconds} | {rss} | no score ({error}) |"); sys.exit(0)
s = s.get("peer", s) if label.startswith("pycolmap") else s
rot = s.get("rotationErrorDeg") or {}
m = s.get("mesh") or {}
def g(d, *keys):
    for k in keys:
        d = (d or {}).get(k)
    return "" if d is None else (f"{d:.3f}" if isinstance(d, float) else str(d))
rots = f"{rot['median']:.2f} / {rot['max']:.2f}" if rot else ""
pr = f"{g(m, 'tau1pct', 'precision')} / {g(m, 'tau1pct', 'recall')} / {g(m, 'tau1pct', 'recallObservable')}" if m else ""
print(f"| {name} | {label} | {s.get('registered', '')}/{s.get('images', '')} | {rots} | {g(m, 'tau1pct', 'fscore')} | "
      f"{g(m, 'tau0.5pct', 'fscore')} | {pr} | {g(m, 'areaRatio')} | {g(m, 'visibleShare')} | {g(m, 'faces')} | {seconds} | {rss} | {extra or s.get('meshNote', '')} |")
PY
}

{
echo "### Path-traced captures (Mitsuba 3, pt_capture.py), $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo
echo "| capture | method | registered | rotation error median / max ° | F-score 1 % | F-score 0.5 % | P / R / R seen at 1 % | area ratio | visible share | faces | seconds | peak RSS MB | note |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
} | tee "$RESULTS"
for name in $CAPTURES; do
    render "$name" || { echo "| $name | (render failed) | | | | | | | | | | | $(tail -1 "$WORK/$name.capture.log") |" | tee -a "$RESULTS"; continue; }
    for level in $LEVELS; do
        out="$WORK/ours-$name-$level"
        status=0
        if [ "$REUSE" = 1 ] && [ -f "$out.time" ] && grep -q meshFromSparse "$out.record" 2>/dev/null && [ -d "$out/mesh" ]; then
            echo "reusing $out (REUSE=1)" >&2
        else
            rm -rf "$out"
            /usr/bin/time -f "%e %M" -o "$out.time" "$ATL_BIN/atl-reconstruct" "$WORK/$name" --detail "$level" \
                -o "$out" --overwrite --progress none > "$out.record" 2> "$out.err" || status=$?
        fi
        secs=$(awk '{print $1}' "$out.time" | tail -1); rss=$(awk '{print int($2/1024)}' "$out.time" | tail -1)
        if [ "$status" != 0 ]; then
            echo "| $name | atl-reconstruct $level | exit $status | | | | | | | | $secs | $rss | $(tail -1 "$out.err") |" | tee -a "$RESULTS"
            continue
        fi
        "$PYTHON" "$HERE/pt_eval.py" --truth "$WORK/$name" --model "$out" --record "$out.record" > "$out.score" 2> "$out.score.err" || true
        row "$out.score" "atl-reconstruct $level" "$name" "$secs" "$rss" "" | tee -a "$RESULTS"
    done
    if [ "$PEER" = 1 ]; then
        peer "$name"
        dir=$WORK/colmap-$name
        psecs=$(awk '{print $1}' "$dir.time" 2>/dev/null | tail -1); prss=$(awk '{print int($2/1024)}' "$dir.time" 2>/dev/null | tail -1)
        if [ -f "$dir/poisson.ply" ]; then
            pmesh=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["seconds"])' "$dir.mesh.json" 2>/dev/null || echo "?")
            "$PYTHON" "$HERE/pt_eval.py" --truth "$WORK/$name" --peer-mesh "$dir/poisson.ply" --peer-sparse "$dir/sparse" > "$dir.score" 2> "$dir.score.err" || true
            row "$dir.score" "pycolmap sparse + Poisson" "$name" "$psecs + $pmesh" "$prss" "" | tee -a "$RESULTS"
        else
            reg=$("$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(str(d["registered"]) + "/" + str(d["images"]))' "$dir.json" 2>/dev/null || echo "?")
            echo "| $name | pycolmap sparse + Poisson | $reg | | | | | | | | $psecs | $prss | no model (see $dir.err) |" | tee -a "$RESULTS"
        fi
    fi
done
{
echo
echo "Seconds: atl-reconstruct's wall time; for pycolmap, SfM (features, matching, mapping) + Poisson. Rotation error after a similarity alignment of the camera centres (Umeyama). F-score at 1 % / 0.5 % of the true bounding-box diagonal, exact point-to-triangle distances, samples below the ground counted as imprecise; "R seen": recall over the part of the true surface that at least two true photos see (the bottom cap of a torso photographed from above is in the truth but in no photo). Area ratio: area in the truth frame / true area. Visible share: share of the mesh's area seen from outside (orthographic depth buffers from 200 directions). The true surface: the object (dress form or torso with both caps, pole, base disc side and top; the shoe without its underside), floor excluded."
} | tee -a "$RESULTS"
