#!/usr/bin/env bash
# Outfit-suggestion benchmark (issue 24, "Evidence the suggestions work"): 90 simulated days of
# wearing what `atl-query suggest` proposes, beside two baselines run by the same script, on the
# sample wardrobe and on generated wardrobes of 50, 200 and 1,000 garments.
#
#   ATL_BIN=$PWD/.build/release benchmarks/suggest.sh                  # the whole run (a few minutes)
#   SIZES=50 DAYS=30 benchmarks/suggest.sh                              # a quick run
#   STRATEGIES="favourite random" benchmarks/suggest.sh                 # the baselines only
#
# Wardrobes: the sample (`atl-import --sample`: 44 garments, 10 outfits, a wear log of three months
# ending today; its simulation starts the day after its wear log ends, so late November to February
# when run in November) and, for each size of SIZES, benchmarks/gen_wardrobe.py N --seed SEED
# --start START: a realistic mix of categories, subcategories, colours, seasons, styles, care
# labels and prices, N/8 stored outfits (a third of them favourites) and a wear log of the 60 days
# before START skewed toward the favourites (Zipf-like), so the wardrobe starts unbalanced. Each
# strategy runs on its own copy of the same catalog.
#
# Each simulated day (benchmarks/suggest_sim.py, which says it in full): the wardrobe is read as it
# stands (`atl-query garments --date DAY`); the strategy picks an outfit for the day's date and
# temperature (a climate curve, about 21 °C on 1 September down to about 6 °C at the end of
# November, with seeded noise); the pick is checked against that read and worn (an outfit without
# an id is stored with atl-import first, then a wear record with its id and the day). Laundry: on
# the day before the first day and then every third day, and on any day without an outfit, the
# evening's `atl-query laundry-plan --date DAY | atl-import`; the loads are done the next evening
# (`finishedAt` on the simulated day, so lastWashedOn is that day); garments the plan cannot place
# (leather: "professional care") are cleaned by hand then (lastWashedOn set). Same rule for all.
#
# Strategies:
#   atelier    atl-query suggest --date DAY --temperature T --seed SEED+DAY --count 1, the first outfit
#   favourite  the most-worn favourite outfit that is clean, in season and complete for the weather;
#              else a random valid outfit (counted as a fallback)
#   random     a uniformly random valid outfit: slot by slot among the clean, in-season garments (a
#              top and a bottom or a one-piece, footwear, outerwear below 10 °C, none above 25 °C,
#              maybe outerwear between, an accessory half the time)
#
# Measured per wardrobe and strategy, over the eligible garments (top, bottom, one-piece,
# outerwear, footwear, accessory; at home; in season on at least MIN_SEASON_DAYS simulated days):
# the share worn at least once (and the share of what the run's outfits could have worn: 90 outfits
# cannot wear 300 tops), the Gini of wear counts during the run, the longest gap any garment waits
# unworn, repeats of the same set of garments within 7 days, dirty picks (a garment not available or
# ready to wash that day, by the day's own read), incomplete or out-of-season picks, and the wall
# time of each `atl-query suggest` process (median, p95, max).
#
# Targets (issue 24): at least 90 % of the wardrobe worn in 90 days (on the raw share where the
# run's outfits can reach it, else on the share of the wearable, and the table says which); Gini
# below both baselines; no outfit repeated within 7 days; no dirty garment suggested; under 50 ms
# (median) per suggestion at 1,000 garments. The tables go to stdout and to
# benchmarks/results-suggest-latest.md. A missed target is reported, exit 0; BENCH_STRICT=1 makes
# it exit 2.
#
# Environment: ATL_BIN (.build/release), ATL_COMMIT (label of the source ATL_BIN was built from),
# PYTHON (python3), SEED (24), DAYS (90), SIZES ("50 200 1000"), SAMPLE (1; 0 leaves the sample
# wardrobe out), START (2026-09-01, the generated wardrobes' first day), STRATEGIES ("atelier
# favourite random"), MIN_SEASON_DAYS (7), WORK (benchmarks/work/suggest, scratch), BENCH_STRICT (0).
set -euo pipefail

PYTHON=${PYTHON:-python3}
SEED=${SEED:-24}
DAYS=${DAYS:-90}
SIZES=${SIZES:-50 200 1000}
SAMPLE=${SAMPLE:-1}
START=${START:-2026-09-01}
STRATEGIES=${STRATEGIES:-atelier favourite random}
MIN_SEASON_DAYS=${MIN_SEASON_DAYS:-7}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
ATL_BIN=${ATL_BIN:-$ROOT/.build/release}
WORK=${WORK:-$HERE/work/suggest}
RESULTS=$HERE/results-suggest-latest.md

SCRIPT=suggest.sh
. "$HERE/lib.sh"

STARTED=$SECONDS
[[ $SEED =~ ^[0-9]+$ ]] || die "SEED must be a non-negative integer, got '$SEED'"
[[ $DAYS =~ ^[1-9][0-9]*$ ]] || die "DAYS must be a positive integer, got '$DAYS'"
[[ $MIN_SEASON_DAYS =~ ^[1-9][0-9]*$ ]] || die "MIN_SEASON_DAYS must be a positive integer, got '$MIN_SEASON_DAYS'"
[[ $START =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] || die "START must be YYYY-MM-DD, got '$START'"
[[ $SAMPLE == 0 || $SAMPLE == 1 ]] || die "SAMPLE must be 0 or 1, got '$SAMPLE'"
for s in $SIZES; do [[ $s =~ ^[1-9][0-9]+$ ]] || die "SIZES must be integers of at least 10, got '$s'"; done
for s in $STRATEGIES; do [[ $s =~ ^(atelier|favourite|random)$ ]] || die "STRATEGIES: unknown strategy '$s' (atelier, favourite, random)"; done
[[ -n $SIZES || $SAMPLE == 1 ]] || die "nothing to run: SIZES is empty and SAMPLE=0"

for tool in atl-import atl-query; do
    [[ -x $ATL_BIN/$tool ]] || die "$ATL_BIN/$tool not found; build it first: swift build -c release (or set ATL_BIN)"
done
missing=()
command -v "$PYTHON" >/dev/null || missing+=(python3)
install_debian "${missing[@]}"
mkdir -p "$WORK"

# The atelier strategy needs the suggest view: say so now rather than after the other runs.
if [[ " $STRATEGIES " == *" atelier "* ]]; then
    probe=$WORK/probe.sqlite
    rm -f "$probe" "$probe-wal" "$probe-shm"
    probe_err=$(ATELIER_DB=$probe "$ATL_BIN/atl-query" suggest --count 1 2>&1 >/dev/null || true)
    if [[ $probe_err == *"unknown view"* ]]; then
        die "$ATL_BIN/atl-query has no suggest view; rebuild it from a tree that has one, or run the baselines only: STRATEGIES=\"favourite random\" $0"
    fi
    rm -f "$probe" "$probe-wal" "$probe-shm"
fi

# The source the binaries were presumably built from, noted now (the tree may move during the run).
commit=${ATL_COMMIT:-}
if [[ -z $commit ]]; then
    commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "?")
    [[ -n $(git -C "$ROOT" status --porcelain -- Sources Package.swift 2>/dev/null) ]] && commit+=" (with uncommitted changes)"
fi
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
swift_version=$(swift --version 2>/dev/null | head -n 1 || echo "unknown")
sample_note=""
((SAMPLE)) && sample_note="the sample, "
header="# Outfit-suggestion benchmark: latest run

- date: $(date -u +%Y-%m-%dT%H:%M:%SZ); machine: $(nproc) CPUs, ${cpu:-unknown CPU}, $(awk '/MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)
- Atelier $("$ATL_BIN/atl-query" --version 2>/dev/null || echo ?) at commit $commit, from $ATL_BIN; $swift_version; $("$PYTHON" --version 2>&1)
- load average (1, 5, 15 min) at the start: $(cut -d' ' -f1-3 /proc/loadavg)
- wardrobes: ${sample_note}generated ${SIZES:-none} (gen_wardrobe.py, seed $SEED, from $START); $DAYS days each; rules, strategies and metrics: benchmarks/suggest.sh and suggest_sim.py
- share of the wearable: the distinct garments worn over Σ per category min(eligible, garments of that category the run's outfits wore); Gini over the eligible garments' wears during the run, zeros included; longest gap: consecutive days unworn ($DAYS when never worn); repeats: days whose garments are those of one of the 7 days before; dirty: days whose pick held a garment not available or ready to wash that day"

say "simulating $DAYS days: sample=$SAMPLE sizes='$SIZES' strategies='$STRATEGIES' (Atelier from $ATL_BIN)"
status=0
"$PYTHON" "$HERE/suggest_sim.py" --bin "$ATL_BIN" --work "$WORK" --results "$RESULTS" --sizes "$SIZES" \
    $( ((SAMPLE)) || echo --no-sample; true) --days "$DAYS" --seed "$SEED" --start "$START" \
    --strategies "${STRATEGIES// /,}" --min-season-days "$MIN_SEASON_DAYS" --python "$PYTHON" --header "$header" || status=$?
case $status in
    0) MISSED=0 ;;
    3) MISSED=1 ;;
    *) die "suggest_sim.py failed (exit $status)" ;;
esac
echo
say "tables written to $RESULTS ($((SECONDS - STARTED)) s)"
if ((MISSED)); then
    say "some targets were not met (see the Targets table)"
    [[ ${BENCH_STRICT:-0} == 1 ]] && exit 2
fi
exit 0
