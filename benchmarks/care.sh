#!/usr/bin/env bash
# Care-label benchmark: `atl-classify --task care` on two test sets, for accuracy and speed:
# the own test renderer (benchmarks/care/render_test.py) and an independent renderer that draws
# every symbol from the standards' descriptions (benchmarks/care/render_standards.py; see
# benchmarks/care/README-standards.md).
#
#   swift build -c release && benchmarks/care.sh
#   LABELS=60 SINGLES=124 NEGATIVES=40 STD_LABELS=40 STD_SINGLES=124 STD_NEGATIVES=40 benchmarks/care.sh
#                                                         # a quick run (its own cached sets)
#   SKIP_OWN=1 benchmarks/care.sh                         # the standards set only
#
# Own test set (render_test.py; matplotlib drawing, numpy/scipy photo effects, a renderer
# independent of the training one): 620 crops of single symbols (every code 10 times), 300
# photos of whole care labels (1000 px wide, 2–7 symbols, boxes), 200 negatives (no symbol).
# Standards test set (render_standards.py; Pillow drawing from ISO 3758 / ASTM D5489 /
# GINETEX descriptions, numpy/scipy photo effects, sharing no code with either renderer): 1240
# crops (every code 20 times), 200 label photos (half ISO, half ASTM style), 200 negatives.
# Seeds fixed. Each set is made once into ${CARE_TESTSET:-.build-bench/care-testset} and
# ${CARE_STD_TESTSET:-.build-bench/care-standards} and reused; remade when its renderer, the
# counts or the Python library versions change (a hash in .stamp). Each takes a few minutes on
# 2 cores.
#
# Runs, for each set, all from inside the test set directory (so the paths are relative to it)
# and pinned to one core with `taskset -c 0`:
#   singles    one atl-classify --task care invocation over the single-symbol crops
#   labels     one invocation over the label photos: wall time / photos = time per label photo
#   negatives  one invocation over the negatives
#   one by one (own set only, ONE_BY_ONE; STD_ONE_BY_ONE for the other) the first 20 label
#              photos, one invocation each (process start and model loading included); the
#              slowest is reported
# Wall time from bash's clock around each invocation; peak RSS from `/usr/bin/time -f %M` when
# present. Then benchmarks/care/evaluate.py scores the output (singles top-1 overall and per
# code, labels exact set, symbol count and F1, negatives empty) and prints a table for
# benchmarks/RESULTS.md; the two tables are printed one after the other at the end.
#
# Targets (the care-label issue), own set: singles top-1 ≥ 0.98; labels exact set ≥ 0.90 and
# symbol F1 ≥ 0.97; negatives empty ≥ 0.95; ≤ 50 ms per label photo on one core; and for both
# sets no code below 0.80 top-1 and the symbol count right on ≥ 0.90 of the labels. Standards
# set (evaluate.py --targets standards): singles top-1 ≥ 0.95, labels exact set ≥ 0.80, the
# rest as for the own set. A missed target is reported, not an error: the exit status is 0
# unless something failed (BENCH_STRICT=1 makes a missed target in either set exit 2).
#
# Environment: ATL_BIN (.build/release), CARE_TESTSET (.build-bench/care-testset), SINGLES (620),
# LABELS (300), NEGATIVES (200), ONE_BY_ONE (20), CARE_STD_TESTSET (.build-bench/care-standards),
# STD_SINGLES (1240), STD_LABELS (200), STD_NEGATIVES (200), STD_ONE_BY_ONE (0), SKIP_OWN (0),
# SKIP_STD (0), WORK (benchmarks/work/care; the standards set's files in WORK/standards),
# PYTHON (python3), BENCH_STRICT (0).
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
STD_SEED=20261127
STD_SINGLES=${STD_SINGLES:-1240}
STD_LABELS=${STD_LABELS:-200}
STD_NEGATIVES=${STD_NEGATIVES:-200}
DEFAULT_STD_SET=$ROOT/.build-bench/care-standards
[[ "$STD_SINGLES $STD_LABELS $STD_NEGATIVES" == "1240 200 200" ]] || DEFAULT_STD_SET+="-$STD_SINGLES-$STD_LABELS-$STD_NEGATIVES"
STD_TESTSET=${CARE_STD_TESTSET:-$DEFAULT_STD_SET}
STD_ONE_BY_ONE=${STD_ONE_BY_ONE:-0}
SKIP_OWN=${SKIP_OWN:-0}
SKIP_STD=${SKIP_STD:-0}
PYTHON=${PYTHON:-python3}
RESULTS=$WORK/results.md

SCRIPT=care.sh
. "$HERE/lib.sh"

for n in "$SINGLES" "$LABELS" "$NEGATIVES" "$ONE_BY_ONE" "$STD_SINGLES" "$STD_LABELS" "$STD_NEGATIVES" "$STD_ONE_BY_ONE"; do
    [[ $n =~ ^[0-9]+$ ]] || die "SINGLES, LABELS, NEGATIVES, ONE_BY_ONE and their STD_ forms must be whole numbers"
done
[[ $SKIP_OWN == 1 && $SKIP_STD == 1 ]] && die "SKIP_OWN=1 and SKIP_STD=1: nothing to run"
[[ -x $ATL_BIN/atl-classify ]] || die "$ATL_BIN/atl-classify not found; build it first: swift build -c release"
mkdir -p "$WORK"
# absolute paths: the runs cd into the test set
ATL_BIN=$(cd "$ATL_BIN" && pwd)
WORK=$(cd "$WORK" && pwd)

# ---------------------------------------------------------------------------------------------
# Python: numpy, scipy, Pillow, and matplotlib for the own set (from PyPI when missing; into a
# venv when the system Python refuses pip, as Debian's does)
# ---------------------------------------------------------------------------------------------
PY_LIBS=(numpy scipy pillow)
PY_IMPORTS="numpy, scipy, PIL"
if [[ $SKIP_OWN != 1 ]]; then
    PY_LIBS=(matplotlib "${PY_LIBS[@]}")
    PY_IMPORTS="matplotlib, $PY_IMPORTS"
fi
py_ok() { "$1" -c "import $PY_IMPORTS" 2>/dev/null; }
VENV=$ROOT/.build-bench/venv
if ! py_ok "$PYTHON"; then
    if [[ -x $VENV/bin/python ]] && py_ok "$VENV/bin/python"; then
        PYTHON=$VENV/bin/python
    elif ! { say "installing ${PY_LIBS[*]} from PyPI"; "$PYTHON" -m pip install --quiet "${PY_LIBS[@]}" >&2 && py_ok "$PYTHON"; }; then
        say "pip refused to install into $PYTHON; using a venv in $VENV"
        "$PYTHON" -m venv "$VENV" >&2 || die "$PYTHON -m venv failed"
        "$VENV/bin/pip" install --quiet "${PY_LIBS[@]}" >&2 || die "pip could not install ${PY_LIBS[*]}"
        PYTHON=$VENV/bin/python
        py_ok "$PYTHON" || die "$PY_IMPORTS still do not import"
    fi
fi

# ---------------------------------------------------------------------------------------------
# Test sets: each made once per renderer version, seed and size
# ---------------------------------------------------------------------------------------------
# versions LIB...: "matplotlib 3.9.2 numpy 2.1.3 ..." for the Python libraries named (Pillow is
# imported as PIL)
versions() {
    "$PYTHON" -c 'import importlib, sys
print(" ".join(n + " " + importlib.import_module({"Pillow": "PIL"}.get(n, n)).__version__ for n in sys.argv[1:]))' "$@"
}

# make_set DIR RENDERER SEED SINGLES LABELS NEGATIVES LIB...: (re)makes the set in DIR unless
# its .stamp (renderer hash, seed, counts, versions of the libraries it uses) matches; sets
# RENDERER_SHA and GEN_SECONDS.
make_set() {
    local dir=$1 renderer=$2 seed=$3 singles=$4 labels=$5 negatives=$6 description stamp t0 tmp
    local name=${renderer##*/}
    shift 6
    RENDERER_SHA=$(sha256sum < "$renderer" | cut -d' ' -f1)
    description=$(
        echo "$name $RENDERER_SHA"
        echo "seed $seed, $singles singles, $labels labels, $negatives negatives"
        versions "$@"
    )
    stamp=$(sha256sum <<< "$description" | cut -d' ' -f1)
    GEN_SECONDS="earlier (cached)"
    if [[ -f $dir/.stamp && $(head -n 1 "$dir/.stamp") == "$stamp" ]]; then
        say "test set up to date in $dir"
        return
    fi
    say "making the test set in $dir with $name (seed $seed; a few minutes on 2 cores)"
    tmp=$dir.partial
    rm -rf "$tmp"
    mkdir -p "$tmp"
    t0=$EPOCHREALTIME
    "$PYTHON" "$renderer" --out "$tmp" --seed "$seed" --singles "$singles" --labels "$labels" \
        --negatives "$negatives" --jobs 2 || { rm -rf "$tmp"; die "$name failed"; }
    GEN_SECONDS=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f s", b - a }')
    printf '%s\n%s\n' "$stamp" "$description" > "$tmp/.stamp"
    rm -rf "$dir"
    mv "$tmp" "$dir"
}

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

# classify OUT PATH...: one atl-classify --task care run from the test set directory $SET.
# Sets SECONDS_TAKEN and RSS_KB (null without /usr/bin/time). Exit status 1 is accepted
# (grep-like "nothing found", plausible on negatives); anything else stops the benchmark.
classify() {
    local out=$1 rc=0 t0
    shift
    rm -f "$WORK/rss.txt"
    t0=$EPOCHREALTIME
    (cd "$SET" && exec "${PIN[@]}" "${TIMER[@]}" "$ATL_BIN/atl-classify" --task care --progress none "$@") \
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

images_of() {  # images_of SUBSET: its image paths relative to the test set $SET, sorted
    (cd "$SET" && find "$1" -maxdepth 1 -type f \( -name '*.png' -o -name '*.jpg' \) | LC_ALL=C sort)
}

# run_set SET OUTDIR ONE_BY_ONE: the three invocations (and the one-by-one runs) on a set;
# the tool's output in OUTDIR/{singles,labels,negatives}.jsonl, times in OUTDIR/timing.json;
# sets OUTPUTS.
run_set() {
    SET=$1
    local outdir=$2 one_by_one=$3 subset f slowest slowest_s parts=() secs=() files=()
    mkdir -p "$outdir"
    OUTPUTS=()
    for subset in singles labels negatives; do
        mapfile -t files < <(images_of "$subset")
        if ((${#files[@]} == 0)); then
            say "$subset: no images, skipped"
            continue
        fi
        say "$subset: ${#files[@]} images in one run"
        # warm the page cache so the first run does not pay for the disk
        (cd "$SET" && cat "${files[@]}" > /dev/null)
        classify "$outdir/$subset.jsonl" "${files[@]}"
        OUTPUTS+=("$outdir/$subset.jsonl")
        parts+=("\"$subset\": {\"images\": ${#files[@]}, \"seconds\": $SECONDS_TAKEN, \"maxRssKB\": $RSS_KB}")
        say "$subset: $SECONDS_TAKEN s"
    done
    mapfile -t files < <(images_of labels | head -n "$one_by_one")
    if ((one_by_one > 0 && ${#files[@]})); then
        say "one by one: ${#files[@]} label photos, one run each"
        rm -f "$outdir/one-by-one.jsonl.new"
        slowest=""
        slowest_s=0
        for f in "${files[@]}"; do
            classify "$outdir/one-by-one.jsonl.tmp" "$f"
            cat "$outdir/one-by-one.jsonl.tmp" >> "$outdir/one-by-one.jsonl.new"
            secs+=("$SECONDS_TAKEN")
            if awk -v a="$SECONDS_TAKEN" -v b="$slowest_s" 'BEGIN { exit !(a > b) }'; then
                slowest=$f
                slowest_s=$SECONDS_TAKEN
            fi
        done
        mv "$outdir/one-by-one.jsonl.new" "$outdir/one-by-one.jsonl"
        rm -f "$outdir/one-by-one.jsonl.tmp" "$outdir/one-by-one.jsonl.tmp.err"
        parts+=("\"oneByOne\": {\"seconds\": [$(IFS=,; echo "${secs[*]}")], \"slowestPath\": \"$slowest\"}")
    fi
    {
        printf '{"pinning": "%s"' "$PINNING"
        for part in "${parts[@]}"; do printf ', %s' "$part"; done
        printf '}\n'
    } > "$outdir/timing.json"
    ((${#OUTPUTS[@]})) || die "the test set in $SET has no images"
}

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
STARTED=$(date -u '+%Y-%m-%d %H:%M UTC')
commit=$(git -C "$ROOT" rev-parse --short HEAD 2> /dev/null || echo "?")
[[ -n $(git -C "$ROOT" status --porcelain -- Sources Package.swift 2> /dev/null) ]] && commit+=" (with uncommitted changes)"
say "$STARTED, load $LOAD_START, $(nproc) cores; atl from $ATL_BIN ($commit); $PINNING"
machine() {
    echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), Linux $(uname -r); atl at $commit; atl-classify pinned with $PINNING"
}

# score_set NAME SET RENDERER SEED SINGLES LABELS NEGATIVES ONE_BY_ONE WORKDIR TARGETS PACKAGE...:
# makes (or reuses) the set, runs the tool over it, scores it and writes WORKDIR/results.md.
score_set() {
    local name=$1 set=$2 renderer=$3 seed=$4 singles=$5 labels=$6 negatives=$7 one_by_one=$8 work=$9 targets=${10}
    shift 10
    local started load_start load_end
    mkdir -p "$work"
    started=$(date -u '+%Y-%m-%d %H:%M UTC')
    load_start=$(cut -d' ' -f1-3 /proc/loadavg)
    make_set "$set" "$renderer" "$seed" "$singles" "$labels" "$negatives" "$@"
    run_set "$set" "$work" "$one_by_one"
    load_end=$(cut -d' ' -f1-3 /proc/loadavg)
    "$PYTHON" "$HERE/care/evaluate.py" --truth "$set" --output "${OUTPUTS[@]}" --timing "$work/timing.json" \
        --targets "$targets" --json "$work/metrics.json" > "$work/table.md" || die "evaluate.py failed"
    {
        echo "Run: $started; load average at start $load_start, at end $load_end; $(machine)."
        echo "Test set: benchmarks/care/$(basename "$renderer"), seed $seed: $singles singles, $labels label photos, $negatives negatives ($(basename "$renderer") sha256 ${RENDERER_SHA:0:12}; made in $set: $GEN_SECONDS)."
        echo
        cat "$work/table.md"
    } > "$work/results.md.partial"
    mv "$work/results.md.partial" "$work/results.md"
    say "$name: table in $work/results.md; the tool's output in $work/{singles,labels,negatives}.jsonl, every number in $work/metrics.json"
}

STD_WORK=$WORK/standards
STD_RESULTS=$STD_WORK/results.md
if [[ $SKIP_OWN != 1 ]]; then
    score_set "own set" "$TESTSET" "$HERE/care/render_test.py" "$SEED" "$SINGLES" "$LABELS" "$NEGATIVES" \
        "$ONE_BY_ONE" "$WORK" own matplotlib numpy scipy Pillow
fi
if [[ $SKIP_STD != 1 ]]; then
    score_set "standards set" "$STD_TESTSET" "$HERE/care/render_standards.py" "$STD_SEED" "$STD_SINGLES" \
        "$STD_LABELS" "$STD_NEGATIVES" "$STD_ONE_BY_ONE" "$STD_WORK" standards numpy scipy Pillow
fi

# ---------------------------------------------------------------------------------------------
# Report: both summaries, one after the other
# ---------------------------------------------------------------------------------------------
if [[ $SKIP_OWN != 1 ]]; then
    printf '### own test renderer (render_test.py)\n\n'
    cat "$RESULTS"
    echo
fi
if [[ $SKIP_STD != 1 ]]; then
    printf '### independent standards renderer (render_standards.py)\n\n'
    cat "$STD_RESULTS"
fi

missed_target() {  # missed_target METRICS.json...: true when any target is missed
    "$PYTHON" -c 'import json, sys; sys.exit(0 if any(v["met"] is False for p in sys.argv[1:] for v in json.load(open(p))["targets"].values()) else 1)' "$@"
}
if [[ ${BENCH_STRICT:-0} == 1 ]]; then
    metrics=()
    [[ $SKIP_OWN != 1 ]] && metrics+=("$WORK/metrics.json")
    [[ $SKIP_STD != 1 ]] && metrics+=("$STD_WORK/metrics.json")
    if missed_target "${metrics[@]}"; then exit 2; fi
fi
