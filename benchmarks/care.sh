#!/usr/bin/env bash
# Care-label benchmark: `atl-classify --task care` on an independent test set, for accuracy and
# speed.
#
#   swift build -c release && benchmarks/care.sh
#   LABELS=60 SINGLES=124 NEGATIVES=40 benchmarks/care.sh      # a quick run (its own cached set)
#
# Test set (benchmarks/care/render_test.py; matplotlib drawing, numpy/scipy photo effects, a
# renderer independent of the training one): 620 crops of single symbols (every code 10 times),
# 300 photos of whole care labels (1000 px wide, 2–7 symbols, boxes), 200 negatives (no symbol).
# Seed fixed. Made once into ${CARE_TESTSET:-.build-bench/care-testset} and reused; remade when
# render_test.py, the counts or the Python library versions change (a hash in .stamp). It takes
# a few minutes on 2 cores.
#
# Runs, all from inside the test set directory (so the paths are relative to it) and pinned to
# one core with `taskset -c 0`:
#   singles    one atl-classify --task care invocation over the 620 crops
#   labels     one invocation over the 300 label photos: wall time / 300 = time per label photo
#   negatives  one invocation over the 200 negatives
#   one by one the first 20 label photos, one invocation each (process start and model loading
#              included); the slowest is reported
# Wall time from bash's clock around each invocation; peak RSS from `/usr/bin/time -f %M` when
# present. Then benchmarks/care/evaluate.py scores the output (singles top-1, labels exact set and
# F1, negatives empty) and prints a table for benchmarks/RESULTS.md.
#
# Targets (the care-label issue): singles top-1 ≥ 0.98; labels exact set ≥ 0.90 and symbol F1
# ≥ 0.97; negatives empty ≥ 0.95; ≤ 50 ms per label photo on one core. A missed target is
# reported, not an error: the exit status is 0 unless something failed (BENCH_STRICT=1 makes a
# missed target exit 2).
#
# Environment: ATL_BIN (.build/release), CARE_TESTSET (.build-bench/care-testset), SINGLES (620),
# LABELS (300), NEGATIVES (200), ONE_BY_ONE (20), WORK (benchmarks/work/care), PYTHON (python3),
# BENCH_STRICT (0).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
ATL_BIN=${ATL_BIN:-$ROOT/.build/release}
WORK=${WORK:-$HERE/work/care}
SEED=20261123
SINGLES=${SINGLES:-620}
LABELS=${LABELS:-300}
NEGATIVES=${NEGATIVES:-200}
# a quick run with other counts keeps its own set, so the full one stays cached
DEFAULT_SET=$ROOT/.build-bench/care-testset
[[ "$SINGLES $LABELS $NEGATIVES" == "620 300 200" ]] || DEFAULT_SET+="-$SINGLES-$LABELS-$NEGATIVES"
TESTSET=${CARE_TESTSET:-$DEFAULT_SET}
ONE_BY_ONE=${ONE_BY_ONE:-20}
PYTHON=${PYTHON:-python3}
RESULTS=$WORK/results.md

SCRIPT=care.sh
. "$HERE/lib.sh"

for n in "$SINGLES" "$LABELS" "$NEGATIVES" "$ONE_BY_ONE"; do
    [[ $n =~ ^[0-9]+$ ]] || die "SINGLES, LABELS, NEGATIVES and ONE_BY_ONE must be whole numbers"
done
[[ -x $ATL_BIN/atl-classify ]] || die "$ATL_BIN/atl-classify not found; build it first: swift build -c release"
mkdir -p "$WORK"
# absolute paths: the runs cd into the test set
ATL_BIN=$(cd "$ATL_BIN" && pwd)
WORK=$(cd "$WORK" && pwd)

# ---------------------------------------------------------------------------------------------
# Python: matplotlib, numpy, scipy, Pillow (from PyPI when missing; into a venv when the system
# Python refuses pip, as Debian's does)
# ---------------------------------------------------------------------------------------------
PY_LIBS=(matplotlib numpy scipy pillow)
py_ok() { "$1" -c 'import matplotlib, numpy, scipy, PIL' 2>/dev/null; }
VENV=$ROOT/.build-bench/venv
if ! py_ok "$PYTHON"; then
    if [[ -x $VENV/bin/python ]] && py_ok "$VENV/bin/python"; then
        PYTHON=$VENV/bin/python
    elif ! { say "installing ${PY_LIBS[*]} from PyPI"; "$PYTHON" -m pip install --quiet "${PY_LIBS[@]}" >&2 && py_ok "$PYTHON"; }; then
        say "pip refused to install into $PYTHON; using a venv in $VENV"
        "$PYTHON" -m venv "$VENV" >&2 || die "$PYTHON -m venv failed"
        "$VENV/bin/pip" install --quiet "${PY_LIBS[@]}" >&2 || die "pip could not install ${PY_LIBS[*]}"
        PYTHON=$VENV/bin/python
        py_ok "$PYTHON" || die "matplotlib, numpy, scipy or Pillow still does not import"
    fi
fi

# ---------------------------------------------------------------------------------------------
# Test set: made once per renderer version, seed and size
# ---------------------------------------------------------------------------------------------
RENDERER=$HERE/care/render_test.py
RENDERER_SHA=$(sha256sum < "$RENDERER" | cut -d' ' -f1)
describe() {
    echo "render_test.py $RENDERER_SHA"
    echo "seed $SEED, $SINGLES singles, $LABELS labels, $NEGATIVES negatives"
    "$PYTHON" -c 'import matplotlib, numpy, scipy, PIL; print("matplotlib", matplotlib.__version__, "numpy", numpy.__version__, "scipy", scipy.__version__, "Pillow", PIL.__version__)'
}
DESCRIPTION=$(describe)
STAMP=$(sha256sum <<< "$DESCRIPTION" | cut -d' ' -f1)
GEN_SECONDS="earlier (cached)"
if [[ -f $TESTSET/.stamp && $(head -n 1 "$TESTSET/.stamp") == "$STAMP" ]]; then
    say "test set up to date in $TESTSET"
else
    say "making the test set in $TESTSET (seed $SEED; a few minutes on 2 cores)"
    TMPSET=$TESTSET.partial
    rm -rf "$TMPSET"
    mkdir -p "$TMPSET"
    t0=$EPOCHREALTIME
    "$PYTHON" "$RENDERER" --out "$TMPSET" --seed "$SEED" --singles "$SINGLES" --labels "$LABELS" \
        --negatives "$NEGATIVES" --jobs 2 || { rm -rf "$TMPSET"; die "render_test.py failed"; }
    GEN_SECONDS=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f s", b - a }')
    printf '%s\n%s\n' "$STAMP" "$DESCRIPTION" > "$TMPSET/.stamp"
    rm -rf "$TESTSET"
    mv "$TMPSET" "$TESTSET"
fi

# ---------------------------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------------------------
PIN=()
PINNING="unpinned"
if command -v taskset > /dev/null && taskset -c 0 true 2> /dev/null; then
    PIN=(taskset -c 0)
    PINNING="taskset -c 0"
else
    say "taskset is not available; running unpinned"
fi
TIMER=()
[[ -x /usr/bin/time ]] && TIMER=(/usr/bin/time -f '%M' -o "$WORK/rss.txt")

# classify OUT PATH...: one atl-classify --task care run from the test set directory. Sets
# SECONDS_TAKEN and RSS_KB (null without /usr/bin/time). Exit status 1 is accepted (grep-like
# "nothing found", plausible on negatives); anything else stops the benchmark.
classify() {
    local out=$1 rc=0 t0
    shift
    rm -f "$WORK/rss.txt"
    t0=$EPOCHREALTIME
    (cd "$TESTSET" && exec "${PIN[@]}" "${TIMER[@]}" "$ATL_BIN/atl-classify" --task care --progress none "$@") \
        > "$out" 2> "$out.err" || rc=$?
    SECONDS_TAKEN=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f", b - a }')
    if ((rc > 1)); then
        tail -n 5 "$out.err" >&2
        die "atl-classify --task care exited $rc on ${#@} image(s) (output in $out, messages in $out.err)"
    fi
    RSS_KB=null
    if [[ -s $WORK/rss.txt ]]; then RSS_KB=$(tail -n 1 "$WORK/rss.txt"); fi
    [[ $RSS_KB =~ ^[0-9]+$ ]] || RSS_KB=null
}

images_of() {  # images_of SUBSET: its image paths relative to the test set, sorted
    (cd "$TESTSET" && find "$1" -maxdepth 1 -type f \( -name '*.png' -o -name '*.jpg' \) | LC_ALL=C sort)
}

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
STARTED=$(date -u '+%Y-%m-%d %H:%M UTC')
commit=$(git -C "$ROOT" rev-parse --short HEAD 2> /dev/null || echo "?")
[[ -n $(git -C "$ROOT" status --porcelain -- Sources Package.swift 2> /dev/null) ]] && commit+=" (with uncommitted changes)"
say "$STARTED, load $LOAD_START, $(nproc) cores; atl from $ATL_BIN ($commit); $PINNING"

TIMING_PARTS=()
OUTPUTS=()
for subset in singles labels negatives; do
    mapfile -t files < <(images_of "$subset")
    if ((${#files[@]} == 0)); then
        say "$subset: no images, skipped"
        continue
    fi
    say "$subset: ${#files[@]} images in one run"
    # warm the page cache so the first run does not pay for the disk
    (cd "$TESTSET" && cat "${files[@]}" > /dev/null)
    classify "$WORK/$subset.jsonl" "${files[@]}"
    OUTPUTS+=("$WORK/$subset.jsonl")
    TIMING_PARTS+=("\"$subset\": {\"images\": ${#files[@]}, \"seconds\": $SECONDS_TAKEN, \"maxRssKB\": $RSS_KB}")
    say "$subset: $SECONDS_TAKEN s"
done

mapfile -t files < <(images_of labels | head -n "$ONE_BY_ONE")
if ((${#files[@]})); then
    say "one by one: ${#files[@]} label photos, one run each"
    rm -f "$WORK/one-by-one.jsonl.new"
    secs=()
    slowest=""
    slowest_s=0
    for f in "${files[@]}"; do
        classify "$WORK/one-by-one.jsonl.tmp" "$f"
        cat "$WORK/one-by-one.jsonl.tmp" >> "$WORK/one-by-one.jsonl.new"
        secs+=("$SECONDS_TAKEN")
        if awk -v a="$SECONDS_TAKEN" -v b="$slowest_s" 'BEGIN { exit !(a > b) }'; then
            slowest=$f
            slowest_s=$SECONDS_TAKEN
        fi
    done
    mv "$WORK/one-by-one.jsonl.new" "$WORK/one-by-one.jsonl"
    rm -f "$WORK/one-by-one.jsonl.tmp" "$WORK/one-by-one.jsonl.tmp.err"
    TIMING_PARTS+=("\"oneByOne\": {\"seconds\": [$(IFS=,; echo "${secs[*]}")], \"slowestPath\": \"$slowest\"}")
fi
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
{
    printf '{"pinning": "%s"' "$PINNING"
    for part in "${TIMING_PARTS[@]}"; do printf ', %s' "$part"; done
    printf '}\n'
} > "$WORK/timing.json"

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
((${#OUTPUTS[@]})) || die "the test set has no images"
"$PYTHON" "$HERE/care/evaluate.py" --truth "$TESTSET" --output "${OUTPUTS[@]}" --timing "$WORK/timing.json" \
    --json "$WORK/metrics.json" > "$WORK/table.md" || die "evaluate.py failed"
{
    echo "Run: $STARTED; load average at start $LOAD_START, at end $LOAD_END; $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), Linux $(uname -r); atl at $commit; atl-classify pinned with $PINNING."
    echo "Test set: benchmarks/care/render_test.py, seed $SEED: $SINGLES singles, $LABELS label photos, $NEGATIVES negatives (render_test.py sha256 ${RENDERER_SHA:0:12}; made in $TESTSET: $GEN_SECONDS)."
    echo
    cat "$WORK/table.md"
} | tee "$RESULTS.partial"
mv "$RESULTS.partial" "$RESULTS"
say "table also in $RESULTS; the tool's output in $WORK/{singles,labels,negatives}.jsonl, every number in $WORK/metrics.json"

missed_target() {
    "$PYTHON" -c 'import json, sys; t = json.load(open(sys.argv[1]))["targets"]; sys.exit(0 if any(v["met"] is False for v in t.values()) else 1)' "$WORK/metrics.json"
}
if [[ ${BENCH_STRICT:-0} == 1 ]] && missed_target; then exit 2; fi
