#!/usr/bin/env bash
# Reconstruction benchmark: `atl-reconstruct` (sparse structure from motion) side by side with
# COLMAP (pycolmap 4.2.1, CPU), on synthetic captures whose true cameras are known.
#
#   swift build -c release && benchmarks/reconstruct.sh
#   benchmarks/reconstruct.sh --large                  # also textured-24 at 4032×3024 (12 MP)
#   CAPTURES=small-12 RUNS_SMALL=1 benchmarks/reconstruct.sh   # a quick run
#
# Captures (rendered with $ATL_BIN/synth-capture, seed 1, into benchmarks/work/reconstruct/NAME;
# see docs/synthetic-captures.md). Each is rendered once and reused while its options and the
# renderer's version stay the same (the command line is kept in NAME.stamp beside it):
#   textured-24       printed fabric, 24 views on one ring, 1024×768
#   fabric-30         plain low-texture weave, 30 views on two rings, 1024×768 (the hard case:
#                     PEERS.md has COLMAP registering nothing on an earlier version of it)
#   small-12          printed fabric, 12 views, 1024×768
#   textured-24-12mp  textured-24 at 4032×3024, with --large only (rendering it takes a while)
#
# Runs, one after another, the tools alternating within each round:
#   ours     atl-reconstruct CAPTURE --out WORK/ours-NAME --overwrite --progress none
#            (fabric-30 also with --feature-sensitivity high, into WORK/ours-high-NAME); the
#            stage seconds come from the `model` record it prints (metrics.seconds)
#   COLMAP   benchmarks/reconstruct_colmap.py: extract_features (SIFT, defaults, num_threads 2),
#            match_exhaustive, incremental_mapping, write_text into WORK/colmap-NAME/sparse; it
#            times its stages itself
# Every run is under `/usr/bin/time -f "%e %M"` (wall seconds, peak RSS), process start and
# Python imports included. COLMAP is not deterministic on 2 threads, so small-12 runs RUNS_SMALL
# times (3) and the table gives the median and the range; the others run RUNS times (1). Our side
# runs as often, so the times compare like for like.
#
# Scoring (benchmarks/reconstruct_eval.py, the same code for both models, read with pycolmap):
# registered images; rotation and centre errors after a similarity alignment of the camera
# centres (Umeyama), the centre error as a percentage of the ring radius; mean reprojection error
# (recomputed over all observations); points; mean track length. A tool that exits non-zero or
# registers nothing is a row saying so ("0/30 (exit 65)"), not the end of the benchmark.
#
# Output: the Markdown tables on stdout and in benchmarks/results-reconstruct-latest.md; every
# number in benchmarks/work/reconstruct/runs.jsonl; the tools' output and logs beside it.
#
# Environment: ATL_BIN (.build/release; synth-capture and atl-reconstruct are taken from it; an
# absent atl-reconstruct skips our side with a note), SYNTH ($ATL_BIN/synth-capture), CAPTURES
# (textured-24 fabric-30 small-12), RUNS (1), RUNS_SMALL (3), THREADS (2: COLMAP's num_threads),
# OURS (1; 0 skips our side), COLMAP (1; 0 skips COLMAP), TIMEOUT (0 = none; else seconds per
# run, through coreutils `timeout`: exit 124), PYTHON (python3), WORK (benchmarks/work/reconstruct).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
ATL_BIN=${ATL_BIN:-$ROOT/.build/release}
SYNTH=${SYNTH:-$ATL_BIN/synth-capture}
WORK=${WORK:-$HERE/work/reconstruct}
CAPTURES=${CAPTURES:-textured-24 fabric-30 small-12}
RUNS=${RUNS:-1}
RUNS_SMALL=${RUNS_SMALL:-3}
THREADS=${THREADS:-2}
OURS=${OURS:-1}
COLMAP=${COLMAP:-1}
TIMEOUT=${TIMEOUT:-0}
PYTHON=${PYTHON:-python3}
PYCOLMAP_VERSION=4.2.1
RESULTS=$HERE/results-reconstruct-latest.md
LARGE=0

SCRIPT=reconstruct.sh
. "$HERE/lib.sh"

for arg in "$@"; do
    case $arg in
        --large) LARGE=1 ;;
        -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument $arg (only --large)" ;;
    esac
done
for n in "$RUNS" "$RUNS_SMALL" "$THREADS"; do
    [[ $n =~ ^[1-9][0-9]*$ ]] || die "RUNS, RUNS_SMALL and THREADS must be positive integers"
done
[[ $TIMEOUT =~ ^[0-9]+$ ]] || die "TIMEOUT must be a whole number of seconds"
((LARGE)) && CAPTURES+=" textured-24-12mp"

# ---------------------------------------------------------------------------------------------
# Tools: synth-capture (required), atl-reconstruct (optional: not there yet means COLMAP only),
# GNU time (apt-get), pycolmap and numpy (PyPI)
# ---------------------------------------------------------------------------------------------
[[ -x $SYNTH ]] || die "$SYNTH not found; build it first: swift build -c release --product synth-capture"
OURS_NOTE=""
if ((OURS)) && [[ ! -x $ATL_BIN/atl-reconstruct ]]; then
    OURS_NOTE="$ATL_BIN/atl-reconstruct does not exist (not built yet?): our side was skipped."
    say "note: $OURS_NOTE"
    OURS=0
fi
((OURS || COLMAP)) || die "nothing to run (OURS=0 and COLMAP=0)"

[[ -x /usr/bin/time ]] || install_debian time

mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
ATL_BIN=$(cd "$ATL_BIN" && pwd)
# pycolmap pinned to the version PEERS.md describes; the CPU wheel is PyPI's plain `pycolmap`
# (the CUDA build is a separate package). Into the system Python when it allows pip, else a venv.
py_ok() { "$1" -c "import numpy, pycolmap; assert pycolmap.__version__ == '$PYCOLMAP_VERSION'" 2> /dev/null; }
VENV=$WORK/venv
if ! py_ok "$PYTHON"; then
    if [[ -x $VENV/bin/python ]] && py_ok "$VENV/bin/python"; then
        PYTHON=$VENV/bin/python
    elif ! { say "installing pycolmap==$PYCOLMAP_VERSION and numpy from PyPI"; \
             "$PYTHON" -m pip install --quiet "pycolmap==$PYCOLMAP_VERSION" numpy >&2 && py_ok "$PYTHON"; }; then
        say "pip refused to install into $PYTHON; using a venv in $VENV"
        "$PYTHON" -m venv "$VENV" >&2 || die "$PYTHON -m venv failed"
        "$VENV/bin/pip" install --quiet "pycolmap==$PYCOLMAP_VERSION" numpy >&2 || die "pip could not install pycolmap"
        PYTHON=$VENV/bin/python
        py_ok "$PYTHON" || die "pycolmap $PYCOLMAP_VERSION or numpy still does not import"
    fi
fi

# ---------------------------------------------------------------------------------------------
# Captures: rendered once per set of options and renderer version
# ---------------------------------------------------------------------------------------------
capture_options() {  # capture_options NAME: synth-capture's options for it
    case $1 in
        textured-24) echo "--preset textured-24 --width 1024 --height 768 --seed 1" ;;
        fabric-30) echo "--preset fabric-30 --width 1024 --height 768 --seed 1" ;;
        small-12) echo "--preset small-12 --width 1024 --height 768 --seed 1" ;;
        textured-24-12mp) echo "--preset textured-24 --width 4032 --height 3024 --seed 1" ;;
        *) return 1 ;;
    esac
}
SYNTH_VERSION=$("$SYNTH" --version 2> /dev/null || echo unknown)
for name in $CAPTURES; do
    options=$(capture_options "$name") || die "unknown capture $name (textured-24, fabric-30, small-12, textured-24-12mp)"
    dir=$WORK/$name
    # the stamp: the command line minus the binary's path (a debug and a release build render
    # the same bytes), with the renderer's version
    stamp="synth-capture $SYNTH_VERSION $options"
    if [[ -d $dir/truth && -f $WORK/$name.stamp && $(cat "$WORK/$name.stamp") == "$stamp" ]]; then
        say "$name: rendered already ($dir)"
        continue
    fi
    say "$name: rendering ($options)"
    rm -rf "$dir.partial" "$WORK/$name.stamp"
    t0=$EPOCHREALTIME
    # shellcheck disable=SC2086 # options are words
    "$SYNTH" $options --quiet --out "$dir.partial" > /dev/null || { rm -rf "$dir.partial"; die "synth-capture failed for $name"; }
    say "$name: rendered in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }') s"
    rm -rf "$dir"
    mv "$dir.partial" "$dir"
    echo "$stamp" > "$WORK/$name.stamp"
done

# ---------------------------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------------------------
RUNS_FILE=$WORK/runs.jsonl
: > "$RUNS_FILE.new"
LIMIT=()
((TIMEOUT > 0)) && LIMIT=(timeout "$TIMEOUT")

# measure VARIANT TOOL NAME RUN OUTDIR MODELDIR COMMAND...: runs COMMAND under /usr/bin/time with
# its stdout and stderr in OUTDIR.{out,err}, then scores MODELDIR and appends the run to
# runs.jsonl. A non-zero exit is recorded, not fatal.
measure() {
    local variant=$1 tool=$2 name=$3 run=$4 out=$5 model=$6 rc=0
    shift 6
    rm -f "$out.time"
    rm -rf "$model"  # a stale model from an earlier run must never be scored
    say "$name: $variant, run $run"
    # timeout inside time: killing time itself would orphan the tool; time's peak RSS covers
    # timeout's child too (wait4 reports a child's reaped descendants)
    /usr/bin/time -f '%e %M' -o "$out.time" "${LIMIT[@]}" "$@" > "$out.out" 2> "$out.err" || rc=$?
    if ((rc != 0)); then
        say "$name: $variant exited $rc$( ((rc == 124 && TIMEOUT > 0)) && echo " (timed out after $TIMEOUT s)"); last lines of $out.err:"
        tail -n 3 "$out.err" | sed 's/^/    /' >&2
    fi
    "$PYTHON" "$HERE/reconstruct_eval.py" run --capture-name "$name" --truth "$WORK/$name" \
        --model "$model" --tool "$tool" --variant "$variant" --run "$run" --exit "$rc" \
        --time-file "$out.time" --stdout "$out.out" --append "$RUNS_FILE.new" \
        || die "reconstruct_eval.py failed on $name $variant run $run"
}

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
STARTED=$(date -u '+%Y-%m-%d %H:%M UTC')
commit=$(git -C "$ROOT" rev-parse --short HEAD 2> /dev/null || echo "?")
[[ -n $(git -C "$ROOT" status --porcelain -- Sources Package.swift 2> /dev/null) ]] && commit+=" (with uncommitted changes)"
say "$STARTED, load $LOAD_START, $(nproc) cores; atl from $ATL_BIN ($commit)"

for name in $CAPTURES; do
    dir=$WORK/$name
    runs=$RUNS
    [[ $name == small-12 ]] && runs=$RUNS_SMALL
    cat "$dir"/*.jpg > /dev/null  # page cache warm: neither side pays for the disk
    for ((run = 1; run <= runs; run++)); do
        if ((OURS)); then
            out=$WORK/ours-$name
            measure ours ours "$name" "$run" "$out" "$out/sparse" \
                "$ATL_BIN/atl-reconstruct" "$dir" --out "$out" --overwrite --progress none
            if [[ $name == fabric-30 ]]; then
                out=$WORK/ours-high-$name
                measure "ours, high sensitivity" ours "$name" "$run" "$out" "$out/sparse" \
                    "$ATL_BIN/atl-reconstruct" "$dir" --out "$out" --overwrite --progress none --feature-sensitivity high
            fi
        fi
        if ((COLMAP)); then
            out=$WORK/colmap-$name
            measure COLMAP colmap "$name" "$run" "$out" "$out/sparse" \
                "$PYTHON" "$HERE/reconstruct_colmap.py" "$dir" --out "$out" --threads "$THREADS"
        fi
    done
done
mv "$RUNS_FILE.new" "$RUNS_FILE"
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
versions=$("$PYTHON" -c 'import sys, numpy, pycolmap; print(f"pycolmap {pycolmap.__version__}, numpy {numpy.__version__}, Python {sys.version.split()[0]}")')
{
    echo "# Reconstruction: atl-reconstruct vs COLMAP"
    echo
    echo "Run: $STARTED; load average at start $LOAD_START, at end $LOAD_END; $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), Linux $(uname -r); atl at $commit from $ATL_BIN; $versions."
    echo "Captures: synth-capture ($SYNTH_VERSION), seed 1, in $WORK. COLMAP: SIFT, exhaustive matching, incremental mapping, default options (SIMPLE_RADIAL camera from the EXIF focal length, camera mode AUTO) with num_threads $THREADS; stage times measured inside the Python process. Ours: stage times from its \`model\` record (pre-processing → features, feature matching → matching, image alignment → mapping). Wall time and peak RSS: \`/usr/bin/time\`, whole process."
    echo "Errors after a similarity alignment of the camera centres; reprojection recomputed over all observations with each model's own camera. Ratios are COLMAP / ours (above 1: ours is faster or smaller)."
    [[ -n $OURS_NOTE ]] && { echo; echo "**Note:** $OURS_NOTE"; }
} > "$WORK/header.md"
"$PYTHON" "$HERE/reconstruct_eval.py" report "$RUNS_FILE" --header "$WORK/header.md" > "$RESULTS.partial" \
    || die "reconstruct_eval.py report failed"
mv "$RESULTS.partial" "$RESULTS"
cat "$RESULTS"
say "table also in $RESULTS; every number in $RUNS_FILE; the tools' output in $WORK/{ours,colmap}-*.{out,err}"
