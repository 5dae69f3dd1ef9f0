#!/usr/bin/env bash
# Laundry-planning benchmark: `atl-query laundry-plan` on 100,000 garments, for speed and memory,
# with an independent Python planner (benchmarks/laundry_reference.py) to check what it plans.
#
#   ATL_BIN=$PWD/.build/release benchmarks/laundry.sh        # 100,000 garments
#   N=20000 SCALES="10000 20000" RUNS=1 benchmarks/laundry.sh  # a quick run
#
# Data: benchmarks/gen-garments.py N SEED (the catalog benchmark's garments), then a wrapper below
# gives every garment what readiness needs and the generator does not write: an id (g_lb…, so
# the stream plan and the catalog plan name the same garments), wearsSinceWash and lastWashedOn
# (drawn around DAY, deterministically), and, for EDGE_SHARE of them (5%), one edge case of the
# planning rules (no care label, no colour, lace, denim, angora, ASTM machine codes, hand wash at
# ambient, professional wet cleaning only, wring-no, 1% leather, 50% synthetic, 10% silk or wool,
# weightGrams around the capacity, lastWashedOn 29/30/31 days ago, …) so that every rule is tried.
#
# Measured (wall time and peak RSS from `/usr/bin/time -f '%e %M'`; median time and largest RSS of
# RUNS runs, default 3):
#   I   atl-import of the N garments into a fresh catalog (ATELIER_DB), once
#   P1  atl-query laundry-plan --date DAY                    on that catalog
#   P2  atl-query - laundry-plan --date DAY < garments.ndjson
#   L1  atl-query garments > /dev/null                        reading the same catalog, for scale
#   L2  atl-query - < garments.ndjson > /dev/null             reading the same stream, for scale
#   R   laundry_reference.py --date DAY < garments.ndjson     the reference, on the same input
#   M   P2 at each size of SCALES (10,000, 100,000 and 300,000 when that takes under a minute):
#       peak RSS per size, for flat memory (and the reference once at each size, its time and RSS)
# Then laundry_reference.py compare sets each ready garment's bin in atl-query's stream plan
# beside the reference's (ready counts must be equal; agreement rate; the top disagreements with
# example garments), checks invariants on atl-query's loads from the care labels alone, and
# checks the catalog plan against the stream plan.
#
# Targets (the issue: "planning 100,000 garments in under 2 s, flat memory"): P1 and P2 under
# 2 s at N = 100,000; memory flat: peak RSS at the largest scale at most MEM_GROWTH_MAX (1.5) times
# the peak at the smallest while the input grows 30-fold; ready counts equal; no invariant
# broken. The table goes to stdout and to benchmarks/results-laundry-latest.md with the comparison
# report. A missed target is reported, exit 0; BENCH_STRICT=1 makes it exit 2.
#
# Environment: N (100000), SEED (20261121), DAY (2025-06-01), CAPACITY_KG (7), RUNS (3),
# SCALES ("10000 100000 300000"), EDGE_SHARE (0.05), MEM_GROWTH_MAX (1.5), ATL_BIN
# (.build/release), ATL_COMMIT (label of the source ATL_BIN was built from), DATA
# (benchmarks/data), WORK (benchmarks/work/laundry), PYTHON (python3), BENCH_STRICT (0).
set -euo pipefail

N=${N:-100000}
SEED=${SEED:-20261121}
DAY=${DAY:-2025-06-01}
CAPACITY_KG=${CAPACITY_KG:-7}
RUNS=${RUNS:-3}
SCALES=${SCALES:-10000 100000 300000}
EDGE_SHARE=${EDGE_SHARE:-0.05}
MEM_GROWTH_MAX=${MEM_GROWTH_MAX:-1.5}
PYTHON=${PYTHON:-python3}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
ATL_BIN=${ATL_BIN:-$ROOT/.build/release}
DATA=${DATA:-$HERE/data}
WORK=${WORK:-$HERE/work/laundry}
RESULTS=$HERE/results-laundry-latest.md
REFERENCE=$HERE/laundry_reference.py

SCRIPT=laundry.sh
. "$HERE/lib.sh"

STARTED=$SECONDS
[[ $N =~ ^[0-9]+$ && $N -gt 0 ]] || die "N must be a positive integer, got '$N'"
[[ $SEED =~ ^[0-9]+$ ]] || die "SEED must be a non-negative integer, got '$SEED'"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer"
[[ $DAY =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] || die "DAY must be YYYY-MM-DD, got '$DAY'"
[[ $CAPACITY_KG =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "CAPACITY_KG must be a number, got '$CAPACITY_KG'"
for s in $SCALES; do [[ $s =~ ^[1-9][0-9]*$ ]] || die "SCALES must be positive integers, got '$s'"; done

for tool in atl-import atl-query; do
    [[ -x $ATL_BIN/$tool ]] || die "$ATL_BIN/$tool not found; build it first: swift build -c release (or set ATL_BIN)"
done
"$ATL_BIN/atl-query" --help 2>&1 | grep -q laundry-plan || die "$ATL_BIN/atl-query has no laundry-plan view; rebuild it"
missing=()
[[ -x /usr/bin/time ]] || missing+=(time)
command -v "$PYTHON" >/dev/null || missing+=(python3)
install_debian "${missing[@]}"
mkdir -p "$DATA" "$WORK"

# The source the binaries were presumably built from, noted now (the tree may move during the run).
commit=${ATL_COMMIT:-}
if [[ -z $commit ]]; then
    commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "?")
    [[ -n $(git -C "$ROOT" status --porcelain -- Sources Package.swift 2>/dev/null) ]] && commit+=" (with uncommitted changes)"
fi
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)

# ---------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------

# raw_garments COUNT: the generator's output (cached: same count and seed, same bytes)
raw_garments() {
    local n=$1 file=$DATA/garments-$1-seed$SEED.ndjson
    if [[ ! -s $file ]]; then
        say "generating $n garment records (seed $SEED) into $file"
        "$PYTHON" "$HERE/gen-garments.py" "$n" "$SEED" > "$file.laundry-partial" || die "gen-garments.py failed"
        mv "$file.laundry-partial" "$file"
    fi
    [[ $(wc -l < "$file") -eq $n ]] || die "$file does not have $n lines; delete it and rerun"
    printf '%s' "$file"
}

# prepare RAW OUT: gives each garment an id, wearsSinceWash and lastWashedOn (and EDGE_SHARE of
# them an edge case), deterministically from SEED, DAY and the line number.
prepare() {
    "$PYTHON" - "$1" "$2" "$SEED" "$DAY" "$EDGE_SHARE" <<'PY' || die "preparing the garments failed"
import json, random, sys
from datetime import date, timedelta

raw, out_path, seed, day, edge_share = sys.argv[1], sys.argv[2], int(sys.argv[3]), date.fromisoformat(sys.argv[4]), float(sys.argv[5])
rng = random.Random(seed * 7919 + 17)
ago = lambda d: (day - timedelta(days=d)).isoformat()

def edge(g, k):
    state_to_wash = True
    comp = g["composition"]
    main = comp[0]["fabric"]
    if k == 0: g["care"] = None                                            # no care label
    elif k == 1: g["care"] = []
    elif k == 2: g["color"] = None; g["colorName"] = None                  # no colour: darks
    elif k == 3: g["color"] = "#%06x" % rng.randrange(1 << 24); g["colorName"] = None  # any colour
    elif k == 4: g["composition"] = [{"fabric": main, "percent": 95}, {"fabric": "lace", "percent": 5}]
    elif k == 5:
        p = rng.choice([49, 50, 100])
        g["composition"] = [{"fabric": "denim", "percent": p}] + ([{"fabric": "cotton", "percent": 100 - p}] if p < 100 else [])
    elif k == 6:
        p = rng.choice([9, 10, 11])
        g["composition"] = [{"fabric": "cotton", "percent": 100 - p}, {"fabric": rng.choice(["angora", "alpaca", "mohair"]), "percent": p}]
    elif k == 7: g["care"] = ["wash-hand-ambient", "bleach-no", "tumble-no", "dry-flat"]
    elif k == 8: g["care"] = [rng.choice(["wash-machine", "wash-machine-permanent-press", "wash-machine-delicate"]), "tumble-low", "iron-medium"]
    elif k == 9: g["care"] = [rng.choice(["pro-w", "pro-w-mild", "pro-w-very-mild"]), "tumble-no", "iron-low"]
    elif k == 10: g["care"] = ["bleach-no", "pro-no", "pro-w-no", "iron-low"]
    elif k == 11: g["care"] = ["wring-no", rng.choice(["pro-p", "pro-f", "pro-a"]), "iron-low"]
    elif k == 12:
        g["composition"] = [{"fabric": "cotton", "percent": 99}, {"fabric": rng.choice(["leather", "suede"]), "percent": 1}]
        g["care"] = ["wash-30", "tumble-no", rng.choice(["pro-p", "pro-no"])]
    elif k == 13:
        p = rng.choice([50, 51])
        g["style"] = "sporty"; g["subcategory"] = "tShirt"; g["category"] = "top"
        g["composition"] = [{"fabric": "polyester", "percent": p}, {"fabric": "cotton", "percent": 100 - p}]
    elif k == 14:
        p = rng.choice([9, 10])
        g["composition"] = [{"fabric": "cotton", "percent": 100 - p}, {"fabric": "silk", "percent": p}]
        g["care"] = ["wash-40", "tumble-no", "iron-medium"]
    elif k == 15: g["weightGrams"] = rng.choice([250, 6999, 7000, 7001, 9000, 15000])
    elif k == 16: g["care"] = ["wash-no", "bleach-no", "pro-no", "iron-low"]
    elif k == 17: g["state"] = "toWash"; g["wearsSinceWash"] = 0; state_to_wash = False
    elif k == 18: g["subcategory"] = None; g["wearsSinceWash"] = rng.choice([1, 2, 4, 10]); state_to_wash = False
    elif k == 19: g["wearsSinceWash"] = 1; g["subcategory"] = "coat"; g["category"] = "outerwear"; g["lastWashedOn"] = ago(rng.choice([29, 30, 31])); state_to_wash = False
    elif k == 20: g["care"] = ["wring-no", rng.choice(["wash-40", "wash-30-mild"]), "tumble-no"]
    elif k == 21: g["care"] = ["wash-no", "pro-no", "pro-w", "iron-low"]
    if state_to_wash and g["state"] not in ("drying", "onLoan", "underRepair"):
        g["state"] = "toWash"
EDGES = 22

with open(raw, encoding="utf-8") as f, open(out_path, "w", encoding="utf-8") as out:
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    for number, line in enumerate(f, 1):
        g = json.loads(line)
        g["id"] = "g_lb%07d" % number
        worn = g.get("wearCount") or 0
        g["wearsSinceWash"] = 0 if worn == 0 or rng.random() < 0.4 else rng.randint(1, min(worn, 12))
        g["lastWashedOn"] = None if rng.random() < 0.15 else ago(rng.randint(0, 75))
        if rng.random() < edge_share:
            edge(g, rng.randrange(EDGES))
        g = {k: v for k, v in g.items() if v is not None}
        out.write(dumps(g) + "\n")
PY
}

# garments COUNT: the prepared garments of that count (made afresh: the wrapper is quick)
garments() {
    local raw out=$WORK/garments-$1.ndjson
    raw=$(raw_garments "$1")
    prepare "$raw" "$out.partial"
    mv "$out.partial" "$out"
    printf '%s' "$out"
}

say "preparing $N garments for $DAY"
NDJSON=$(garments "$N")
bytes=$(stat -c %s "$NDJSON")

# ---------------------------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------------------------
TIMEFILE=$WORK/time.txt

# timed, median and maximum: lib.sh.

# measure RUNS INFILE OUTFILE CMD… : sets MT (median s) and MM (largest peak RSS, MB)
measure() {
    local runs=$1 infile=$2 outfile=$3; shift 3
    local ts=() ms=() i
    for ((i = 1; i <= runs; i++)); do
        timed -i "$infile" "$outfile" "$@"; ts+=("$T"); ms+=("$M")
    done
    MT=$(median "${ts[@]}")
    MM=$(awk -v k="$(maximum "${ms[@]}")" 'BEGIN { printf "%.1f", k / 1024 }')
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a < 0.01) a = 0.01; if (b < 0.01) b = 0.01; printf "%.2f", a / b }'; }
lt() { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x < y) }'; }

ROWS=()
MISSED=0
# check STATUS: sets V to the verdict of a target (STATUS 0: met) and notes a miss. Not in $(…),
# whose subshell would lose the note.
check() { if (($1 == 0)); then V="met"; else MISSED=1; V="**not met**"; fi; }
row() {  # row ID WHAT SECONDS|— MB OUTPUT COMPARED TARGET VERDICT
    local s=$3
    [[ $s == — ]] || s=$(printf '%.2f' "$s")
    ROWS+=("| $1 | ${2//|/\\|} | $s | $4 | $5 | $6 | $7 | $8 |")
}
loads_of() { grep -c '"type":"laundry"' "$1" || true; }
unplaced_of() { grep -c '"type":"unplaced"' "$1" || true; }
in_loads() { "$PYTHON" -c 'import json,sys; print(sum(len(json.loads(l).get("garments") or []) for l in open(sys.argv[1]) if "\"laundry\"" in l))' "$1"; }
describe_plan() { printf '%s loads (%s garments), %s unplaced' "$(loads_of "$1")" "$(in_loads "$1")" "$(unplaced_of "$1")"; }

CATALOG=$WORK/catalog.sqlite
export ATELIER_DB=$CATALOG
OUT=$WORK/out
mkdir -p "$OUT"
fresh_catalog() { rm -rf "$CATALOG" "$CATALOG-wal" "$CATALOG-shm" "$CATALOG-journal" "$WORK/images" "$WORK/models"; }

say "$N garments, $(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1048576 }') MiB NDJSON; Atelier from $ATL_BIN; plans for $DAY, ${CAPACITY_KG} kg"

# I: import
say "I: atl-import into a fresh catalog"
fresh_catalog
timed -i "$NDJSON" /dev/null "$ATL_BIN/atl-import"
IMPORT_T=$T IMPORT_M=$(awk -v k="$M" 'BEGIN { printf "%.1f", k / 1024 }')
CATALOG_MB=$(du -m "$CATALOG" | cut -f1)
say "    ${IMPORT_T}s ${IMPORT_M}MB"

cat "$NDJSON" "$CATALOG" > /dev/null  # warm the page cache, as a second run would find it

# L1, L2: reading, for scale
say "L1: atl-query garments > /dev/null (median of $RUNS)"
measure "$RUNS" /dev/null "$OUT/garments.ndjson" "$ATL_BIN/atl-query" garments
L1_T=$MT L1_M=$MM
listed=$(wc -l < "$OUT/garments.ndjson")
rm -f "$OUT/garments.ndjson"
row I "atl-import $N garments into a fresh catalog (once)" "$IMPORT_T" "$IMPORT_M" "$listed stored" "—" "—" "—"
say "L2: atl-query - < garments > /dev/null (median of $RUNS)"
measure "$RUNS" "$NDJSON" /dev/null "$ATL_BIN/atl-query" -
L2_T=$MT L2_M=$MM

# P1: catalog plan
say "P1: atl-query laundry-plan --date $DAY on the catalog (median of $RUNS)"
measure "$RUNS" /dev/null "$OUT/plan-catalog.ndjson" "$ATL_BIN/atl-query" laundry-plan --date "$DAY" --capacity-kg "$CAPACITY_KG"
P1_T=$MT P1_M=$MM
lt "$P1_T" 2 && ok=0 || ok=1
check $ok
row P1 "\`atl-query laundry-plan --date $DAY\` (catalog of $N)" "$P1_T" "$P1_M" "$(describe_plan "$OUT/plan-catalog.ndjson")" \
    "$(ratio "$P1_T" "$L1_T")× L1" "< 2 s" "$V"
say "    ${P1_T}s ${P1_M}MB"

# P2: stream plan
say "P2: atl-query - laundry-plan --date $DAY < garments (median of $RUNS)"
measure "$RUNS" "$NDJSON" "$OUT/plan-stream.ndjson" "$ATL_BIN/atl-query" - laundry-plan --date "$DAY" --capacity-kg "$CAPACITY_KG"
P2_T=$MT P2_M=$MM
lt "$P2_T" 2 && ok=0 || ok=1
check $ok
row P2 "\`atl-query - laundry-plan --date $DAY < garments.ndjson\` ($N)" "$P2_T" "$P2_M" "$(describe_plan "$OUT/plan-stream.ndjson")" \
    "$(ratio "$P2_T" "$L2_T")× L2" "< 2 s" "$V"
say "    ${P2_T}s ${P2_M}MB"

row L1 "\`atl-query garments > /dev/null\` (the same catalog, plain listing)" "$L1_T" "$L1_M" "$listed garments" "—" "—" "—"
row L2 "\`atl-query - < garments.ndjson > /dev/null\` (the same stream, no filter)" "$L2_T" "$L2_M" "$N lines read" "—" "—" "—"

# R: the reference
say "R: laundry_reference.py on the same stream (median of $RUNS)"
measure "$RUNS" "$NDJSON" "$OUT/plan-reference.ndjson" "$PYTHON" "$REFERENCE" --date "$DAY" --capacity-kg "$CAPACITY_KG"
R_T=$MT R_M=$MM
row R "\`laundry_reference.py --date $DAY < garments.ndjson\` (Python, same input)" "$R_T" "$R_M" "$(describe_plan "$OUT/plan-reference.ndjson")" \
    "$(ratio "$R_T" "$P2_T")× P2's time" "—" "—"
say "    ${R_T}s ${R_M}MB: $(ratio "$R_T" "$P2_T")× atl-query's time"

# M: memory at scale (stream plan)
say "M: stream plan at sizes $SCALES (peak RSS)"
SCALE_LINES=()
declare -A SCALE_M SCALE_T SCALE_READY
first_size="" last_size=""
for size in $(printf '%s\n' $SCALES | sort -n); do
    if [[ -n $last_size ]]; then
        projected=$(awk -v t="${SCALE_T[$last_size]}" -v a="$last_size" -v b="$size" 'BEGIN { printf "%.0f", t * b / a }')
        if ((projected > 60)); then
            say "    skipping $size garments: the stream plan would take about ${projected}s (over a minute)"
            SCALE_LINES+=("- $size garments: skipped (about ${projected} s projected, over a minute)")
            continue
        fi
    fi
    if [[ $size -eq $N ]]; then file=$NDJSON; else file=$(garments "$size"); fi
    measure "$RUNS" "$file" "$OUT/plan-$size.ndjson" "$ATL_BIN/atl-query" - laundry-plan --date "$DAY" --capacity-kg "$CAPACITY_KG"
    SCALE_T[$size]=$MT SCALE_M[$size]=$MM
    [[ -z $first_size ]] && first_size=$size
    last_size=$size
    ready=$(( $(in_loads "$OUT/plan-$size.ndjson") + $(unplaced_of "$OUT/plan-$size.ndjson") ))
    SCALE_READY[$size]=$ready
    # the reference on the same input, once: what holding the ready garments needs at this size
    timed -i "$file" /dev/null "$PYTHON" "$REFERENCE" --date "$DAY" --capacity-kg "$CAPACITY_KG"
    ref_mb=$(awk -v k="$M" 'BEGIN { printf "%.1f", k / 1024 }')
    row "M·$size" "stream plan of $size garments" "${SCALE_T[$size]}" "${SCALE_M[$size]}" "$ready ready" "reference: $(printf '%.2f' "$T") s, $ref_mb MB" "—" "—"
    say "    $size: ${SCALE_T[$size]}s ${SCALE_M[$size]}MB ($ready ready); reference ${T}s ${ref_mb}MB"
    [[ $size -ne $N ]] && rm -f "$file" "$OUT/plan-$size.ndjson"
done
growth=$(awk -v a="${SCALE_M[$first_size]}" -v b="${SCALE_M[$last_size]}" 'BEGIN { printf "%.2f", b / a }')
per100k=$(awk -v a="${SCALE_M[$first_size]}" -v b="${SCALE_M[$last_size]}" -v x="$first_size" -v y="$last_size" \
    'BEGIN { if (y > x) printf "%.1f", (b - a) / (y - x) * 100000; else print "—" }')
per_ready=$(awk -v a="${SCALE_M[$first_size]}" -v b="${SCALE_M[$last_size]}" -v x="${SCALE_READY[$first_size]}" -v y="${SCALE_READY[$last_size]}" \
    'BEGIN { if (y > x) printf "%.2f", (b - a) * 1024 / (y - x); else print "—" }')
lt "$growth" "$MEM_GROWTH_MAX" && ok=0 || ok=1
[[ $first_size == "$last_size" ]] && ok=1
check $ok
row M "memory: peak RSS $first_size → $last_size garments" "${SCALE_T[$last_size]}" "${SCALE_M[$first_size]} → ${SCALE_M[$last_size]}" \
    "×$growth RSS for ×$(( last_size / first_size )) input: +$per100k MB per 100k garments, $per_ready KB per ready garment" "—" "RSS ≤ ${MEM_GROWTH_MAX}× smallest" "$V"

# ---------------------------------------------------------------------------------------------
# Comparison with the reference, invariants, catalog vs stream
# ---------------------------------------------------------------------------------------------
say "comparing atl-query's plan with the reference's"
REPORT=$WORK/compare.md
summary=$("$PYTHON" "$REFERENCE" compare --garments "$NDJSON" --atl "$OUT/plan-stream.ndjson" --ref "$OUT/plan-reference.ndjson" \
    --catalog-plan "$OUT/plan-catalog.ndjson" --date "$DAY" --capacity-kg "$CAPACITY_KG" --report "$REPORT" | tail -n 1) \
    || die "laundry_reference.py compare failed"
declare -A S
for kv in $summary; do S[${kv%%=*}]=${kv#*=}; done
[[ ${S[ready_equal]} == 1 ]] && ok=0 || ok=1
check $ok
row C1 "ready garments: atl-query = reference" — — "${S[ready_atl]} = ${S[ready_ref]}" "—" "equal, same garments" "$V"
row C2 "same bin as the reference" — — "${S[agree]} of ${S[compared]} ($(awk -v r="${S[rate]}" 'BEGIN { printf "%.2f%%", 100 * r }'))" "—" "(reported)" "—"
((${S[violations]} == 0)) && ok=0 || ok=1
check $ok
row C3 "invariants of atl-query's loads (labels, capacity, placed once)" — — "${S[violations]} violations" "—" "none" "$V"
[[ ${S[catalog_same]} == 1 ]] && ok=0 || ok=1
check $ok
row C4 "catalog plan = stream plan (garment → bin)" — — "$( ((ok == 0)) && echo identical || echo differ)" "—" "identical" "$V"

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
swift_version=$(swift --version 2>/dev/null | head -n 1 || echo "unknown")
{
    echo "# Laundry-planning benchmark: latest run"
    echo
    echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ); machine: $(nproc) CPUs, ${cpu:-unknown CPU}, $(awk '/MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)"
    echo "- Atelier $("$ATL_BIN/atl-query" --version 2>/dev/null || echo ?) at commit $commit, from $ATL_BIN; $swift_version; $("$PYTHON" --version)"
    echo "- load average (1, 5, 15 min) at the start: $LOAD_START, at the end: $LOAD_END"
    echo "- data: $N garments (benchmarks/gen-garments.py $N $SEED, then ids, wearsSinceWash and lastWashedOn around $DAY, and ${EDGE_SHARE} of them an edge case: see laundry.sh), $(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1000000 }') MB of NDJSON; catalog $CATALOG_MB MB"
    echo "- plans for $DAY with a ${CAPACITY_KG} kg machine; times are wall-clock seconds, the median of $RUNS runs (import: once); memory is peak RSS in MB, the largest of the runs"
    echo "- whole script: $((SECONDS - STARTED)) s"
    echo
    echo "| id | benchmark | s | peak MB | output | compared | target | result |"
    echo "|---|---|---:|---:|---|---|---|---|"
    printf '%s\n' "${ROWS[@]}"
    echo
    ((${#SCALE_LINES[@]})) && { printf '%s\n' "${SCALE_LINES[@]}"; echo; }
    echo "P1 and P2 set beside L1 and L2: what planning costs on top of reading the same garments. R: the"
    echo "independent Python planner (laundry_reference.py) on the same input; the ratio is its time over P2's."
    echo
    echo "## atl-query's plan against the independent reference (stream plan, $N garments)"
    echo
    cat "$REPORT"
} > "$RESULTS.partial"
mv "$RESULTS.partial" "$RESULTS"
echo
cat "$RESULTS"
echo
say "table written to $RESULTS ($((SECONDS - STARTED)) s)"
if ((MISSED)); then
    say "some targets were not met (see the result column)"
    [[ ${BENCH_STRICT:-0} == 1 ]] && exit 2
fi
exit 0
