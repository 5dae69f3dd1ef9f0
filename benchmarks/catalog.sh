#!/usr/bin/env bash
# Catalog benchmarks: Atelier side by side with its peers, in one run, on the same data.
#
#   ATL_BIN=$PWD/.build/release benchmarks/catalog.sh          # what `make bench` runs (1M records)
#   N=100000 benchmarks/catalog.sh                              # a quick run
#
# (a) import N garment records into a fresh database: atl-import vs `sqlite-utils insert --nl`;
#     then, with half of the records invalid, `atl-import --skip-invalid` vs the same (a2)
# (b) filter the NDJSON: `atl-query - --where …` vs the equivalent `jq -c 'select(…)'`
# (c) query the N-row catalog: `atl-query garments --where …` vs the same SQL in the sqlite3 CLI
#     (on the very same catalog file, and on the sqlite-utils database for reference)
#
# Wall time and peak RSS come from `/usr/bin/time -f '%e %M'`. Imports run once each (RUNS_IMPORT
# to change); the short commands run RUNS times (default 3), Atelier and peer alternating, and
# the table shows the median time and the largest peak RSS. The table goes to stdout and to
# benchmarks/results-latest.md. Every comparison is checked: both sides must return the same
# number of rows (and for (b) the very same bytes), or the script stops with exit 1.
#
# Environment: N (records, default 1000000), SEED (default 20261121), RUNS (3), RUNS_IMPORT (1),
# ATL_BIN (default .build/release), ATL_COMMIT (label of the source ATL_BIN was built from; default
# git HEAD of this tree), SQLITE_UTILS (a sqlite-utils to use instead of installing one),
# BENCH_STRICT=1 (exit 2 when a target is missed).
set -euo pipefail

N=${N:-1000000}
SEED=${SEED:-20261121}
RUNS=${RUNS:-3}
RUNS_IMPORT=${RUNS_IMPORT:-1}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
ATL_BIN=${ATL_BIN:-$ROOT/.build/release}
DATA=$HERE/data
WORK=$HERE/work
RESULTS=$HERE/results-latest.md

SCRIPT=catalog.sh
. "$HERE/lib.sh"

[[ $N =~ ^[0-9]+$ && $N -gt 0 ]] || die "N must be a positive integer, got '$N'"
[[ $SEED =~ ^[0-9]+$ ]] || die "SEED must be a non-negative integer, got '$SEED'"
[[ $RUNS =~ ^[1-9][0-9]*$ && $RUNS_IMPORT =~ ^[1-9][0-9]*$ ]] || die "RUNS and RUNS_IMPORT must be positive integers"

# ---------------------------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------------------------
for tool in atl-import atl-query; do
    [[ -x $ATL_BIN/$tool ]] || die "$ATL_BIN/$tool not found; build it first: swift build -c release (or run: make bench)"
done

missing=()
[[ -x /usr/bin/time ]] || missing+=(time)
command -v jq >/dev/null || missing+=(jq)
command -v sqlite3 >/dev/null || missing+=(sqlite3)
install_debian "${missing[@]}"

mkdir -p "$DATA" "$WORK"
SQLITE_UTILS=${SQLITE_UTILS:-}
if [[ -z $SQLITE_UTILS ]]; then
    if [[ -x $WORK/venv/bin/sqlite-utils ]]; then
        SQLITE_UTILS=$WORK/venv/bin/sqlite-utils
    else
        say "installing sqlite-utils (PyPI) into $WORK/venv"
        if python3 -m venv "$WORK/venv" >&2 && "$WORK/venv/bin/pip" install --quiet sqlite-utils >&2; then
            SQLITE_UTILS=$WORK/venv/bin/sqlite-utils
        else
            say "no venv; trying pip install --user sqlite-utils"
            rm -rf "$WORK/venv"
            python3 -m pip install --quiet --user sqlite-utils >&2 || die "cannot install sqlite-utils from PyPI"
            SQLITE_UTILS=$(python3 -c 'import site; print(site.USER_BASE)')/bin/sqlite-utils
        fi
    fi
fi
[[ -x $SQLITE_UTILS ]] || die "sqlite-utils not found at $SQLITE_UTILS"
[[ $(sqlite3 :memory: "SELECT 'Levi''s' REGEXP '^Lev'" 2>/dev/null) == 1 ]] \
    || die "this sqlite3 CLI has no REGEXP (it needs sqlite3 3.36 or later, which builds it in)"

# ---------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------
# The records: a third written as other wardrobe apps export them (their spellings of care codes,
# states, subcategories and fabrics, all of which must import), and for (a2) the same with half
# of the records made invalid as hand-edited exports are (gen-garments.py --other-apps, --invalid).
NDJSON=$DATA/garments-$N-seed$SEED-other30.ndjson
HALF_INVALID=$DATA/garments-$N-seed$SEED-other30-invalid50.ndjson
for file in "$NDJSON" "$HALF_INVALID"; do
    if [[ -s $file ]]; then
        say "reusing $file"
    else
        say "generating $N garment records (seed $SEED) into $file"
        extra=(--other-apps 0.3)
        [[ $file == "$HALF_INVALID" ]] && extra+=(--invalid 0.5)
        python3 "$HERE/gen-garments.py" "$N" "$SEED" "${extra[@]}" > "$file.partial" || die "gen-garments.py failed"
        mv "$file.partial" "$file"
    fi
    lines=$(wc -l < "$file")
    [[ $lines -eq $N ]] || die "$file has $lines lines, expected $N; delete it and rerun"
done
bytes=$(stat -c %s "$NDJSON")

# The source the binaries were presumably built from, noted now (the tree may move during the run).
commit=${ATL_COMMIT:-}
if [[ -z $commit ]]; then
    commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "?")
    [[ -n $(git -C "$ROOT" status --porcelain -- Sources Package.swift 2>/dev/null) ]] && commit+=" (with uncommitted changes)"
fi

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)

ATL_DB=$WORK/atelier.sqlite
SU_DB=$WORK/sqlite-utils.db
OUT=$WORK/out
mkdir -p "$OUT"

# ---------------------------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------------------------
TIMEFILE=$WORK/time.txt

# timed, median and maximum: lib.sh.

# pair RUNS ATL_OUT PEER_OUT -- ATL_CMD… -- PEER_CMD… : alternates the two commands RUNS times;
# sets ATL_T ATL_M ATL_C PEER_T PEER_M PEER_C (median seconds, max MB, median CPU seconds).
pair() {
    local runs=$1 atl_out=$2 peer_out=$3; shift 3
    [[ $1 == -- ]] || die "internal: pair needs --"
    shift
    local atl=() peer=()
    while [[ $1 != -- ]]; do atl+=("$1"); shift; done
    shift
    peer=("$@")
    local at=() am=() ac=() pt=() pm=() pc=() i
    ATL_ERR=""
    for ((i = 1; i <= runs; i++)); do
        [[ -n ${BEFORE_ATL:-} ]] && eval "$BEFORE_ATL"
        timed "$atl_out" "${atl[@]}"; at+=("$T"); am+=("$M"); ac+=("$C")
        ATL_ERR=$(tail -n 1 "$WORK/stderr.txt")
        [[ -n ${BEFORE_PEER:-} ]] && eval "$BEFORE_PEER"
        timed "$peer_out" "${peer[@]}"; pt+=("$T"); pm+=("$M"); pc+=("$C")
    done
    ATL_T=$(median "${at[@]}"); ATL_M=$(( $(maximum "${am[@]}") / 1024 )); ATL_C=$(median "${ac[@]}")
    PEER_T=$(median "${pt[@]}"); PEER_M=$(( $(maximum "${pm[@]}") / 1024 )); PEER_C=$(median "${pc[@]}")
}

ROWS=()      # markdown table rows
MISSED=0

# speedup PEER_T ATL_T : peer time / Atelier time (clamped to the 10 ms timer resolution)
speedup() { awk -v p="$1" -v a="$2" 'BEGIN { if (p < 0.01) p = 0.01; if (a < 0.01) a = 0.01; printf "%.2f", p / a }'; }
ge() { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x >= y) }'; }

row() {  # row ID WHAT PEER_NAME ROWS TARGET VERDICT RATIO
    local what=${2//|/\\|}  # a '|' in a regex would end the table cell
    ROWS+=("| $1 | $what | $(printf '%.2f' "$ATL_T") | $ATL_M | $3 | $(printf '%.2f' "$PEER_T") | $PEER_M | **$7×** | $4 | $5 | $6 |")
}

verdict() {  # verdict CONDITION-EXIT-STATUS
    if (($1 == 0)); then echo "met"; else MISSED=1; echo "**not met**"; fi
}

warm() { cat "$NDJSON" > /dev/null; }

# conditions --where A --where B… : the arguments as one would type them ("--where 'A' --where 'B'")
conditions() {
    local out="" arg
    for arg in "$@"; do [[ $arg == --where ]] && continue; out+="--where '$arg' "; done
    printf '%s' "${out% }"
}


say "$N records, $(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1048576 }') MiB NDJSON; Atelier from $ATL_BIN"

# ---------------------------------------------------------------------------------------------
# (a) import
# ---------------------------------------------------------------------------------------------
say "(a) import: atl-import vs sqlite-utils insert --nl (${RUNS_IMPORT} run(s) each; this takes a while)"
warm
fresh_atl() { rm -f "$ATL_DB" "$ATL_DB-wal" "$ATL_DB-shm" "$ATL_DB-journal"; }
fresh_su() { rm -f "$SU_DB" "$SU_DB-wal" "$SU_DB-shm" "$SU_DB-journal"; }
BEFORE_ATL=fresh_atl BEFORE_PEER=fresh_su pair "$RUNS_IMPORT" /dev/null /dev/null \
    -- "$ATL_BIN/atl-import" --db "$ATL_DB" "$NDJSON" \
    -- "$SQLITE_UTILS" insert "$SU_DB" garments "$NDJSON" --nl
unset BEFORE_ATL BEFORE_PEER
atl_rows=$(sqlite3 "$ATL_DB" "SELECT count(*) FROM garments")
su_rows=$(sqlite3 "$SU_DB" "SELECT count(*) FROM garments")
[[ $atl_rows -eq $N && $su_rows -eq $N ]] || die "import row counts differ: atl-import stored $atl_rows, sqlite-utils $su_rows, expected $N"
ratio=$(speedup "$PEER_T" "$ATL_T")
# µs of CPU (user + system) per record
per_record() { awk -v c="$1" -v n="$2" 'BEGIN { printf "%.0f", c * 1e6 / n }'; }
atl_us=$(per_record "$ATL_C" "$N") su_us=$(per_record "$PEER_C" "$N")
ge "$ratio" 3 && ((atl_us <= 20 && ATL_M <= 2 * PEER_M)) && ok=0 || ok=1
row I "import $N records (a third in other apps' spellings) into a fresh database; CPU $atl_us µs a record, sqlite-utils $su_us" \
    "sqlite-utils insert --nl" "$atl_rows = $su_rows" "≥ 3×, ≤ 20 µs a record, ≤ 2× the peer's MB" "$(verdict $ok)" "$ratio"
ATL_DB_MB=$(du -m "$ATL_DB" | cut -f1) SU_DB_MB=$(du -m "$SU_DB" | cut -f1)
say "    atl-import ${ATL_T}s ${ATL_M}MB ${atl_us}µs/record, sqlite-utils ${PEER_T}s ${PEER_M}MB ${su_us}µs/record: ${ratio}×"

say "(a2) import with --skip-invalid, half of the lines invalid: atl-import vs sqlite-utils insert --nl"
# Into databases of their own: the ones of (a) are what the queries below read.
ATL_DB2=$WORK/atelier-half-invalid.sqlite SU_DB2=$WORK/sqlite-utils-half-invalid.db
fresh_atl2() { rm -f "$ATL_DB2" "$ATL_DB2-wal" "$ATL_DB2-shm" "$ATL_DB2-journal"; }
fresh_su2() { rm -f "$SU_DB2" "$SU_DB2-wal" "$SU_DB2-shm" "$SU_DB2-journal"; }
BEFORE_ATL=fresh_atl2 BEFORE_PEER=fresh_su2 pair "$RUNS_IMPORT" /dev/null /dev/null \
    -- "$ATL_BIN/atl-import" --db "$ATL_DB2" --skip-invalid "$HALF_INVALID" \
    -- "$SQLITE_UTILS" insert "$SU_DB2" garments "$HALF_INVALID" --nl
unset BEFORE_ATL BEFORE_PEER
atl_rows=$(sqlite3 "$ATL_DB2" "SELECT count(*) FROM garments")
su_rows=$(sqlite3 "$SU_DB2" "SELECT count(*) FROM garments")
fresh_atl2; fresh_su2
skipped=$(sed -n 's/^atl-import: skipped \([0-9]*\) invalid records*$/\1/p' <<< "$ATL_ERR")
[[ -n $skipped && $((atl_rows + skipped)) -eq $N && $su_rows -eq $N ]] \
    || die "(a2) row counts do not add up: atl-import stored $atl_rows and skipped ${skipped:-?}, sqlite-utils stored $su_rows, of $N"
ratio=$(speedup "$PEER_T" "$ATL_T")
atl_us=$(per_record "$ATL_C" "$N") su_us=$(per_record "$PEER_C" "$N")
ge "$ratio" 2 && ok=0 || ok=1
row I2 "import with --skip-invalid, $skipped of $N lines invalid; CPU $atl_us µs a line, sqlite-utils $su_us" \
    "sqlite-utils insert --nl (stores every line)" "$atl_rows + $skipped skipped = $su_rows" "≥ 2×" "$(verdict $ok)" "$ratio"
say "    atl-import ${ATL_T}s ${ATL_M}MB ${atl_us}µs/line, sqlite-utils ${PEER_T}s ${PEER_M}MB ${su_us}µs/line: ${ratio}×"


# ---------------------------------------------------------------------------------------------
# (b) NDJSON stream filter
# ---------------------------------------------------------------------------------------------
# The same three questions are asked of the NDJSON (S) and of the catalog (Q): a category with a
# price, a regular expression on the brand, a list membership with a date.
S_IDS=(S1 S2 S3)
declare -A S_WHAT S_C1 S_C2 S_JQ
S_WHAT[S1]="category=outerwear and price.amount>100"
S_C1[S1]="category=outerwear"; S_C2[S1]="price.amount>100"
S_JQ[S1]='select(.category == "outerwear" and .price.amount > 100)'
S_WHAT[S2]="brand ~ ^(Levi|Lee|Wrangler) (regular expression)"
S_C1[S2]="brand~^(Levi|Lee|Wrangler)"; S_C2[S2]=""
S_JQ[S2]='select(.brand // "" | test("^(Levi|Lee|Wrangler)"))'
S_WHAT[S3]="seasons has winter and lastWornOn<2025-11-01"
S_C1[S3]="seasons has winter"; S_C2[S3]="lastWornOn<2025-11-01"
S_JQ[S3]='select(any(.seasons[]?; . == "winter") and .lastWornOn != null and .lastWornOn < "2025-11-01")'
STREAM_CMDS=()
Q_CMDS=()

say "(b) stream filter: atl-query - vs jq -c 'select(…)' (median of $RUNS)"
warm
for SID in "${S_IDS[@]}"; do
    where=(--where "${S_C1[$SID]}"); [[ -n ${S_C2[$SID]} ]] && where+=(--where "${S_C2[$SID]}")
    pair "$RUNS" "$OUT/$SID.atl" "$OUT/$SID.jq" \
        -- "$ATL_BIN/atl-query" - "$NDJSON" "${where[@]}" \
        -- jq -c "${S_JQ[$SID]}" "$NDJSON"
    a=$(wc -l < "$OUT/$SID.atl"); j=$(wc -l < "$OUT/$SID.jq")
    [[ $a -eq $j ]] || die "$SID: atl-query printed $a records, jq $j"
    same="(different bytes)"
    cmp -s "$OUT/$SID.atl" "$OUT/$SID.jq" && same="(same bytes)"
    ratio=$(speedup "$PEER_T" "$ATL_T")
    ge "$ratio" 2 && ok=0 || ok=1
    row "$SID" "stream: ${S_WHAT[$SID]}" "jq -c 'select(…)'" "$a = $j $same" "≥ 2×" "$(verdict $ok)" "$ratio"
    STREAM_CMDS+=("$SID: \`atl-query - FILE $(conditions "${where[@]}")\` vs \`jq -c '${S_JQ[$SID]}' FILE\`")
    say "    $SID atl-query ${ATL_T}s ${ATL_M}MB, jq ${PEER_T}s ${PEER_M}MB: ${ratio}×"
done

# ---------------------------------------------------------------------------------------------
# (c) catalog queries
# ---------------------------------------------------------------------------------------------
# id | what | atl-query conditions | SQL on the Atelier catalog | SQL on the sqlite-utils table
Q_IDS=(Q1 Q2 Q3)
declare -A Q_WHAT Q_C1 Q_C2 Q_SQL Q_SU
Q_WHAT[Q1]="category=outerwear and price.amount>100"
Q_C1[Q1]="category=outerwear"; Q_C2[Q1]="price.amount>100"
Q_SQL[Q1]="SELECT * FROM garments WHERE category = 'outerwear' AND price_amount > 100 ORDER BY rowid"
Q_SU[Q1]="SELECT * FROM garments WHERE category = 'outerwear' AND json_extract(price, '\$.amount') > 100 ORDER BY rowid"
Q_WHAT[Q2]="brand ~ ^(Levi|Lee|Wrangler) (regular expression)"
Q_C1[Q2]="brand~^(Levi|Lee|Wrangler)"; Q_C2[Q2]=""
Q_SQL[Q2]="SELECT * FROM garments WHERE brand REGEXP '^(Levi|Lee|Wrangler)' ORDER BY rowid"
Q_SU[Q2]="${Q_SQL[Q2]}"
Q_WHAT[Q3]="season has winter and lastWornOn<2025-11-01"
Q_C1[Q3]="season has winter"; Q_C2[Q3]="lastWornOn<2025-11-01"
Q_SQL[Q3]="SELECT * FROM garments WHERE EXISTS (SELECT 1 FROM json_each(seasons) WHERE value = 'winter') AND last_worn_on < '2025-11-01' ORDER BY rowid"
Q_SU[Q3]="SELECT * FROM garments WHERE EXISTS (SELECT 1 FROM json_each(seasons) WHERE value = 'winter') AND lastWornOn < '2025-11-01' ORDER BY rowid"

say "(c) catalog query: atl-query garments vs sqlite3 -json, same file (median of $RUNS)"
# Warm the page cache with both databases, as a second query would find them.
cat "$ATL_DB" "$SU_DB" > /dev/null
for q in "${Q_IDS[@]}"; do
    where=(--where "${Q_C1[$q]}"); [[ -n ${Q_C2[$q]} ]] && where+=(--where "${Q_C2[$q]}")
    pair "$RUNS" "$OUT/$q.atl" "$OUT/$q.sqlite3" \
        -- "$ATL_BIN/atl-query" garments --db "$ATL_DB" "${where[@]}" \
        -- sqlite3 -readonly -json "$ATL_DB" "${Q_SQL[$q]}"
    a=$(wc -l < "$OUT/$q.atl"); s=$(wc -l < "$OUT/$q.sqlite3")
    [[ $a -eq $s ]] || die "$q: atl-query printed $a records, sqlite3 $s rows"
    ratio=$(speedup "$PEER_T" "$ATL_T")
    # Issue 28: within 1.25× of sqlite3's time, and under 30 MB whatever the number of rows.
    ge "$ratio" 0.8 && ((ATL_M < 30)) && ok=0 || ok=1
    row "$q" "catalog: ${Q_WHAT[$q]}" "sqlite3 -json, same catalog" "$a = $s" "≥ 0.8× (within 1.25×) and < 30 MB" "$(verdict $ok)" "$ratio"
    say "    $q atl-query ${ATL_T}s ${ATL_M}MB, sqlite3 ${PEER_T}s ${PEER_M}MB: ${ratio}×"
    # Reference: the same question to the table sqlite-utils made (no indexes, JSON text columns).
    pair "$RUNS" "$OUT/$q.atl" "$OUT/$q.su" \
        -- "$ATL_BIN/atl-query" garments --db "$ATL_DB" "${where[@]}" \
        -- sqlite3 -readonly -json "$SU_DB" "${Q_SU[$q]}"
    u=$(wc -l < "$OUT/$q.su")
    [[ $a -eq $u ]] || die "$q: atl-query printed $a records, sqlite3 on the sqlite-utils table $u rows"
    ratio=$(speedup "$PEER_T" "$ATL_T")
    row "$q·r" "reference: the same on the sqlite-utils table" "sqlite3 -json, sqlite-utils db" "$a = $u" "—" "—" "$ratio"
    Q_CMDS+=("$q: \`atl-query garments --db CATALOG $(conditions "${where[@]}")\` vs \`sqlite3 -readonly -json CATALOG \"${Q_SQL[$q]}\"\`; reference: \`${Q_SU[$q]}\` on the sqlite-utils database")
done

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
swift_version=$(swift --version 2>/dev/null | head -n 1 || echo "unknown")
{
    echo "# Catalog benchmark: latest run"
    echo
    echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ); machine: $(nproc) CPUs, ${cpu:-unknown CPU}, $(awk '/MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)"
    echo "- Atelier $("$ATL_BIN/atl-import" --version 2>/dev/null || echo ?) at commit $commit, from $ATL_BIN; $swift_version"
    echo "- load average (1, 5, 15 min) at the start: $LOAD_START, at the end: $LOAD_END (anything else running slows both sides)"
    echo "- peers: sqlite-utils $("$SQLITE_UTILS" --version | awk '{ print $NF }'), $(jq --version), sqlite3 $(sqlite3 --version | awk '{ print $1 }'), $(python3 --version)"
    echo "- data: $N garment records, seed $SEED, $(awk -v b="$bytes" 'BEGIN { printf "%.0f", b / 1000000 }') MB of NDJSON (benchmarks/gen-garments.py $N $SEED --other-apps 0.3; for I2 also --invalid 0.5)"
    echo "- databases after the import: Atelier catalog $ATL_DB_MB MB (WAL, 5 secondary indexes, id primary key), sqlite-utils $SU_DB_MB MB (rowid table, no index)"
    echo "- times are wall-clock seconds (median of $RUNS for S and Q rows, $RUNS_IMPORT run(s) for the import), memory is peak RSS in MB (the largest of the runs); speed-up = peer time / Atelier time"
    echo
    echo "| id | benchmark | Atelier s | Atelier MB | peer | peer s | peer MB | speed-up | rows (Atelier = peer) | target | result |"
    echo "|---|---|---:|---:|---|---:|---:|---:|---|---|---|"
    printf '%s\n' "${ROWS[@]}"
    echo
    echo "Commands (FILE = the NDJSON above, CATALOG = the catalog atl-import made in row I):"
    echo
    echo "- I: \`atl-import --db CATALOG FILE > /dev/null\` vs \`sqlite-utils insert DB garments FILE --nl\`, each into a fresh database"
    echo "- I2: \`atl-import --db CATALOG2 --skip-invalid HALF > /dev/null\` vs \`sqlite-utils insert DB2 garments HALF --nl\`, HALF the file with half of its records invalid, each into a fresh database; atl-import's stdout goes to /dev/null, where it makes no records only to print them (CPU per record is user + system time over all records)"
    for c in "${STREAM_CMDS[@]}" "${Q_CMDS[@]}"; do echo "- $c"; done
} > "$RESULTS.partial"
mv "$RESULTS.partial" "$RESULTS"
echo
cat "$RESULTS"
echo
say "table written to $RESULTS"
if ((MISSED)); then
    say "some targets were not met (see the result column)"
    [[ ${BENCH_STRICT:-0} == 1 ]] && exit 2
fi
exit 0
