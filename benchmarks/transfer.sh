#!/usr/bin/env bash
# Transfer benchmark (issue 4, item 7; issue 28, item 4): atl-send/atl-recv over loopback, side
# by side with magic-wormhole (PyPI; its mailbox server and transit relay run locally on
# 127.0.0.1) and with a plain unencrypted copy by socat (the folder as tar over socat, unpacked
# into files), written to the same disk, with and without syncing the output, in one run, on
# the same data.
#
#   swift build -c release && benchmarks/transfer.sh
#   RUNS=1 SIZE_MB=256 benchmarks/transfer.sh          # a quick run
#   RUNS=10 benchmarks/transfer.sh                      # issue 28's ten alternating rounds
#
# Data (benchmarks/data, made once, deterministic): one 1 GiB file and a folder of 30 files of
# 4 MiB, incompressible bytes from a seeded ChaCha20 key stream (openssl enc), so every rerun
# and every machine moves the same bytes. Work files go to benchmarks/work/transfer (same file
# system as the data).
#
# Each case runs RUNS times (default 3), the tools alternating within each round. Before every
# run: `sync` (so write-back of the previous run's output does not land in this one), the
# destination removed, the source read once (page cache warm). Wall time is measured around
# both ends: from starting the receiver until both have exited. CPU (user+sys) and peak RSS
# come from `/usr/bin/time -f '%e %U %S %M'` on each side. Every received copy is checked
# byte for byte (sha256) against the source; a mismatch stops the script with exit 1.
#
# Cases:
#   atl      atl-recv --listen 127.0.0.1:PORT --code C --into DIR   +  atl-send --to 127.0.0.1:PORT --code C SRC
#   atl-mdns the same without --listen/--to (DNS-SD discovery on lo); one run, 1 GiB, reported apart
#   wormhole wormhole --relay-url ws://127.0.0.1:P1/v1 --transit-helper tcp:127.0.0.1:P2 send --code C SRC
#            + wormhole … receive --accept-file -o OUT C            (a folder travels as a zip)
#   socat    socat -u TCP-LISTEN:PORT,reuseaddr OPEN:out,creat,trunc  +  socat -u OPEN:SRC TCP:127.0.0.1:PORT
#            (folder: tar c | socat  /  socat | tar x); raw, unencrypted, no hashing, no fsync
#   atl-tuned  atl again with GLIBC_TUNABLES raising malloc's trim and mmap thresholds: a what-if
#            for the profile's top finding, not what ships; the ratios use the plain atl rows
#   socat+fsync  the same, the receiver then fsyncs its output (`sync FILE`; the folder: every
#            file, then the directory): the like-for-like reference, since atl-recv fsyncs every
#            file before it reports it verified, and socat and wormhole do not
#
# Every atl run is a first send: a fresh, empty hash cache and destination, so atl-send reads
# and hashes every byte as it sends it.
#
# Targets: issue 28 (item 4): atl ≥ 0.90 of socat+fsync's throughput, for both data sets, CPU
# per GB reported. Issue 4: atl ≥ 10× wormhole's throughput; atl ≥ 60% of socat's on the 1 GiB
# file. Ratios are printed twice: of the medians, and per round (atl's run against the
# reference's run of the same round, which saw the same load): median and range.
#
# Environment: RUNS (3), SIZE_MB (1024: the big file is SIZE_MB MiB), FILES (30), FILE_MB (4),
# ATL_BIN (.build/release), BASE_PORT (9730), DISCOVERY (1; 0 skips the atl-mdns case),
# FSYNC_ROW (1; 0 skips socat+fsync), TUNED_ROW (0; 1 adds the atl what-if row, which the
# tools made moot by setting those thresholds themselves),
# BENCH_STRICT=1 (exit 2 when a target is missed).
#
# Where the time goes: benchmarks/transfer_profile.py (perf record commands in its docstring).
set -euo pipefail

RUNS=${RUNS:-3}
SIZE_MB=${SIZE_MB:-1024}
FILES=${FILES:-30}
FILE_MB=${FILE_MB:-4}
BASE_PORT=${BASE_PORT:-9730}
DISCOVERY=${DISCOVERY:-1}
FSYNC_ROW=${FSYNC_ROW:-1}
TUNED_ROW=${TUNED_ROW:-0}
# what-if row: glibc's malloc keeps freed memory instead of returning it to the kernel after every
# 1 MiB frame (profile: page faults on fresh buffers were a third or more of atl's CPU)
TUNABLES=glibc.malloc.trim_threshold=536870912:glibc.malloc.mmap_threshold=33554432
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
ATL_BIN=${ATL_BIN:-$ROOT/.build/release}
DATA=$HERE/data
WORK=$HERE/work/transfer
RESULTS=$WORK/results.md

SCRIPT=transfer.sh
. "$HERE/lib.sh"

[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive integer"
[[ $SIZE_MB =~ ^[1-9][0-9]*$ && $FILES =~ ^[1-9][0-9]*$ && $FILE_MB =~ ^[1-9][0-9]*$ ]] || die "SIZE_MB, FILES and FILE_MB must be positive integers"

# ---------------------------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------------------------
for tool in atl-send atl-recv; do
    [[ -x $ATL_BIN/$tool ]] || die "$ATL_BIN/$tool not found; build it first: swift build -c release"
done
missing=()
command -v socat >/dev/null || missing+=(socat)
[[ -x /usr/bin/time ]] || missing+=(time)
command -v openssl >/dev/null || missing+=(openssl)
command -v ss >/dev/null || missing+=(iproute2)
install_debian "${missing[@]}"

mkdir -p "$DATA" "$WORK"
VENV=$WORK/venv
if ! [[ -x $VENV/bin/wormhole && -x $VENV/bin/twist ]] \
    || ! "$VENV/bin/python" -c 'import wormhole_mailbox_server, wormhole_transit_relay' 2>/dev/null; then
    say "installing magic-wormhole, its mailbox server and transit relay (PyPI) into $VENV"
    python3 -m venv "$VENV" >&2 || die "python3 -m venv failed"
    "$VENV/bin/pip" install --quiet magic-wormhole magic-wormhole-mailbox-server magic-wormhole-transit-relay >&2 \
        || die "pip could not install magic-wormhole"
fi
WORMHOLE=$VENV/bin/wormhole
TWIST=$VENV/bin/twist

# ---------------------------------------------------------------------------------------------
# Background processes, ports, cleanup
# ---------------------------------------------------------------------------------------------
PIDS=()
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${PIDS[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# next_port: a TCP port ≥ BASE_PORT that nothing listens on or has a connection on (TIME_WAIT
# included), so reruns never collide with the last run's sockets. Sets PORT.
NEXT_PORT=$BASE_PORT
next_port() {
    local used
    used=$(ss -Htan | awk '{ n = split($4, a, ":"); print a[n] }' | sort -u)
    while grep -qx "$NEXT_PORT" <<< "$used"; do NEXT_PORT=$((NEXT_PORT + 1)); done
    PORT=$NEXT_PORT
    NEXT_PORT=$((NEXT_PORT + 1))
}

# wait_listen PORT PID: until something listens on 127.0.0.1:PORT (or PID died).
wait_listen() {
    local i
    for ((i = 0; i < 3000; i++)); do
        ss -Hltn "sport = :$1" | grep -q . && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.005
    done
    return 1
}

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }

# ---------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------
# keystream SEEDTEXT BYTES > FILE: ChaCha20 key stream of a key and nonce derived from SEEDTEXT.
keystream() {
    local key iv
    key=$(printf 'atelier-transfer-bench key %s' "$1" | sha256sum | cut -c1-64)
    iv=$(printf 'atelier-transfer-bench iv %s' "$1" | sha256sum | cut -c1-32)
    head -c "$2" /dev/zero | openssl enc -chacha20 -nosalt -K "$key" -iv "$iv"
}

BIG=$DATA/transfer-${SIZE_MB}MiB.bin
BIG_BYTES=$((SIZE_MB * 1048576))
if [[ $(stat -c %s "$BIG" 2>/dev/null || echo 0) -ne $BIG_BYTES || ! -s $BIG.sha256 ]]; then
    say "making $BIG ($SIZE_MB MiB, seeded)"
    keystream "big-$SIZE_MB" "$BIG_BYTES" > "$BIG.partial"
    mv "$BIG.partial" "$BIG"
    sha256sum < "$BIG" | cut -d' ' -f1 > "$BIG.sha256"
fi
BIG_SHA=$(cat "$BIG.sha256")

FOLDER=$DATA/transfer-${FILES}x${FILE_MB}MiB
FILE_BYTES=$((FILE_MB * 1048576))
FOLDER_BYTES=$((FILES * FILE_BYTES))
if [[ ! -s $FOLDER.sha256 ]]; then
    say "making $FOLDER ($FILES files of $FILE_MB MiB, seeded)"
    rm -rf "$FOLDER"
    mkdir -p "$FOLDER"
    for ((i = 1; i <= FILES; i++)); do
        keystream "file-$FILE_MB-$i" "$FILE_BYTES" > "$FOLDER/$(printf 'capture-%03d.bin' "$i")"
    done
    (cd "$FOLDER" && find . -type f | LC_ALL=C sort | xargs sha256sum) > "$FOLDER.sha256"
fi
FOLDER_NAME=$(basename "$FOLDER")

# tree_sums DIR: "sha256  ./relative" for every file under DIR, sorted (to compare folders).
tree_sums() { (cd "$1" && find . -type f | LC_ALL=C sort | xargs -r sha256sum); }

# verify KIND PATH: the received copy must equal the source, byte for byte.
verify() {
    local kind=$1 path=$2
    if [[ $kind == big ]]; then
        [[ -f $path ]] || die "$LABEL: no received file at $path"
        [[ $(sha256sum < "$path" | cut -d' ' -f1) == "$BIG_SHA" ]] || die "$LABEL: received file differs from the source (sha256)"
    else
        [[ -d $path ]] || die "$LABEL: no received folder at $path"
        diff -q <(tree_sums "$path") "$FOLDER.sha256" >/dev/null || die "$LABEL: received folder differs from the source (sha256 of its files)"
    fi
}

# ---------------------------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------------------------
OUT=$WORK/out
TIMES=$WORK/times
mkdir -p "$TIMES"
TIMEFMT='%e %U %S %M'
now() { date +%s.%N; }

prepare() {  # before every run: flush earlier writes, clear the destination, warm the source
    rm -rf "$OUT"
    sync
    mkdir -p "$OUT"
    if [[ $1 == big ]]; then cat "$BIG" > /dev/null; else cat "$FOLDER"/* > /dev/null; fi
}

# One run of each tool. Each sets WALL (s), and leaves $TIMES/recv.txt and $TIMES/send.txt.
run_atl() {  # run_atl big|folder [mdns]
    local kind=$1 mode=${2:-direct} src code rpid spid
    [[ $kind == big ]] && src=$BIG || src=$FOLDER
    code="$((RANDOM % 900 + 100))-crane-orbit"
    local listen=() to=()
    if [[ $mode == direct ]]; then
        next_port
        listen=(--listen "127.0.0.1:$PORT")
        to=(--to "127.0.0.1:$PORT")
    else  # DNS-SD over multicast DNS, pinned to lo so that nothing leaves the machine
        listen=(--interface lo --wait 60)
        to=(--interface lo --wait 20)
    fi
    # A fresh hash cache every run: each run is a first send, hashing included.
    rm -rf "$WORK/xdg-cache"
    local t0; t0=$(now)
    env XDG_CACHE_HOME="$WORK/xdg-cache" "${ATL_ENV[@]}" /usr/bin/time -f "$TIMEFMT" -o "$TIMES/recv.txt" "$ATL_BIN/atl-recv" "${listen[@]}" --code "$code" --into "$OUT" \
        --progress none > "$WORK/atl-recv.ndjson" 2> "$WORK/atl-recv.err" &
    rpid=$!; PIDS+=("$rpid")
    if [[ $mode == direct ]]; then wait_listen "$PORT" "$rpid" || { cat "$WORK/atl-recv.err" >&2; die "atl-recv did not listen on $PORT"; }; fi
    env XDG_CACHE_HOME="$WORK/xdg-cache" "${ATL_ENV[@]}" /usr/bin/time -f "$TIMEFMT" -o "$TIMES/send.txt" "$ATL_BIN/atl-send" "${to[@]}" --code "$code" --progress none "$src" \
        > "$WORK/atl-send.ndjson" 2> "$WORK/atl-send.err" &
    spid=$!; PIDS+=("$spid")
    local rs=0 ss_=0
    wait "$spid" || ss_=$?
    # a sender that failed (no receiver found, wrong code…) leaves the receiver waiting
    ((ss_ == 0)) || kill "$rpid" 2>/dev/null || true
    wait "$rpid" || rs=$?
    WALL=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
    if ((rs != 0 || ss_ != 0)); then
        tail -n 5 "$WORK/atl-recv.err" "$WORK/atl-send.err" >&2
        say "$LABEL: atl-recv exited $rs, atl-send $ss_"
        [[ $mode == mdns ]] && return 1
        exit 1
    fi
    grep -q '"type":"batch".*"status":"complete"\|"status":"complete".*"type":"batch"' "$WORK/atl-recv.ndjson" \
        || die "$LABEL: atl-recv printed no complete batch record"
    local batchdir; batchdir=$(find "$OUT" -mindepth 1 -maxdepth 1 -type d | head -n 1)
    if [[ $kind == big ]]; then verify big "$batchdir/$(basename "$BIG")"; else verify folder "$batchdir/$FOLDER_NAME"; fi
}

WORMHOLE_ARGS=()
start_wormhole_servers() {
    next_port; local mport=$PORT
    next_port; local tport=$PORT
    # (in $WORK: the relay keeps a relay.sqlite in its working directory)
    (cd "$WORK" && exec "$TWIST" wormhole-mailbox --port="tcp:$mport:interface=127.0.0.1") > "$WORK/mailbox.log" 2>&1 &
    MAILBOX_PID=$!; PIDS+=("$MAILBOX_PID")
    (cd "$WORK" && exec "$TWIST" transitrelay --port="tcp:$tport:interface=127.0.0.1") > "$WORK/relay.log" 2>&1 &
    RELAY_PID=$!; PIDS+=("$RELAY_PID")
    wait_listen "$mport" "$MAILBOX_PID" || { cat "$WORK/mailbox.log" >&2; die "the wormhole mailbox server did not start"; }
    wait_listen "$tport" "$RELAY_PID" || { cat "$WORK/relay.log" >&2; die "the wormhole transit relay did not start"; }
    WORMHOLE_ARGS=(--relay-url "ws://127.0.0.1:$mport/v1" --transit-helper "tcp:127.0.0.1:$tport")
    say "wormhole mailbox on 127.0.0.1:$mport, transit relay on 127.0.0.1:$tport"
}
SERVER_TICKS=0
run_wormhole() {
    local kind=$1 src code rpid spid before
    [[ $kind == big ]] && src=$BIG || src=$FOLDER
    code="$((RANDOM % 900 + 100))-crane-orbit"
    before=$(( $(cpu_ticks "$MAILBOX_PID") + $(cpu_ticks "$RELAY_PID") ))
    local t0; t0=$(now)
    (cd "$OUT" && exec /usr/bin/time -f "$TIMEFMT" -o "$TIMES/recv.txt" "$WORMHOLE" "${WORMHOLE_ARGS[@]}" receive --accept-file -o received "$code") \
        > "$WORK/wormhole-recv.log" 2>&1 &
    rpid=$!; PIDS+=("$rpid")
    /usr/bin/time -f "$TIMEFMT" -o "$TIMES/send.txt" "$WORMHOLE" "${WORMHOLE_ARGS[@]}" send --code "$code" "$src" \
        > "$WORK/wormhole-send.log" 2>&1 &
    spid=$!; PIDS+=("$spid")
    local rs=0 ss_=0
    wait "$spid" || ss_=$?
    wait "$rpid" || rs=$?
    WALL=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
    SERVER_TICKS=$(( $(cpu_ticks "$MAILBOX_PID") + $(cpu_ticks "$RELAY_PID") - before ))
    ((rs == 0 && ss_ == 0)) || { tail -n 5 "$WORK/wormhole-recv.log" "$WORK/wormhole-send.log" >&2; die "$LABEL: wormhole receive exited $rs, send $ss_"; }
    if grep -q 'transit relay\|->relay' "$WORK/wormhole-recv.log"; then WORMHOLE_VIA=relay; else WORMHOLE_VIA=direct; fi
    verify "$kind" "$OUT/received"
}

run_socat() {  # run_socat big|folder [fsync]
    local kind=$1 fsync=${2:-} rpid spid
    next_port
    local t0; t0=$(now)
    if [[ $kind == big ]]; then
        if [[ -n $fsync ]]; then
            /usr/bin/time -f "$TIMEFMT" -o "$TIMES/recv.txt" sh -c \
                'socat -u TCP-LISTEN:$1,bind=127.0.0.1,reuseaddr OPEN:"$2",creat,trunc && sync "$2"' sh "$PORT" "$OUT/received.bin" &
        else
            /usr/bin/time -f "$TIMEFMT" -o "$TIMES/recv.txt" socat -u "TCP-LISTEN:$PORT,bind=127.0.0.1,reuseaddr" "OPEN:$OUT/received.bin,creat,trunc" &
        fi
        rpid=$!; PIDS+=("$rpid")
        wait_listen "$PORT" "$rpid" || die "socat did not listen on $PORT"
        /usr/bin/time -f "$TIMEFMT" -o "$TIMES/send.txt" socat -u "OPEN:$BIG" "TCP:127.0.0.1:$PORT" &
        spid=$!; PIDS+=("$spid")
    else
        mkdir -p "$OUT/received"
        local syncer=true
        [[ -n $fsync ]] && syncer='find . -type f -exec sync {} + && sync .'
        /usr/bin/time -f "$TIMEFMT" -o "$TIMES/recv.txt" sh -c \
            'cd "$2" && socat -u TCP-LISTEN:$1,bind=127.0.0.1,reuseaddr STDOUT | tar x && '"$syncer" sh "$PORT" "$OUT/received" &
        rpid=$!; PIDS+=("$rpid")
        wait_listen "$PORT" "$rpid" || die "socat did not listen on $PORT"
        /usr/bin/time -f "$TIMEFMT" -o "$TIMES/send.txt" sh -c \
            'cd "$1" && tar c . | socat -u STDIN TCP:127.0.0.1:$2' sh "$FOLDER" "$PORT" &
        spid=$!; PIDS+=("$spid")
    fi
    local rs=0 ss_=0
    wait "$spid" || ss_=$?
    wait "$rpid" || rs=$?
    WALL=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
    ((rs == 0 && ss_ == 0)) || die "$LABEL: socat receiver exited $rs, sender $ss_"
    if [[ $kind == big ]]; then verify big "$OUT/received.bin"; else verify folder "$OUT/received"; fi
}

# Per case, one line per run in $TIMES/<case>.runs: wall rU rS sU sS rRSS sRSS serverCPU
record() {  # record CASE
    local rt ru rsy rm st su ssy sm
    read -r rt ru rsy rm < <(tail -n 1 "$TIMES/recv.txt")
    read -r st su ssy sm < <(tail -n 1 "$TIMES/send.txt")
    local server=${SERVER_CPU:-0}
    echo "$WALL $ru $rsy $su $ssy $rm $sm $server" >> "$TIMES/$1.runs"
    awk -v c="$1" -v w="$WALL" -v ru="$ru" -v rs="$rsy" -v su="$su" -v ss="$ssy" \
        'BEGIN { printf "transfer.sh:   %-22s %7.2f s   CPU recv %.2f+%.2f send %.2f+%.2f\n", c, w, ru, rs, su, ss }' >&2
    unset SERVER_CPU
}

median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# summarise CASE BYTES: sets S_MED S_MIN S_MAX MBPS CPU_GB RRSS SRSS SERVER_GB
summarise() {
    local f=$TIMES/$1.runs bytes=$2
    local walls cpus
    walls=$(awk '{ print $1 }' "$f")
    cpus=$(awk '{ print $2 + $3 + $4 + $5 }' "$f")
    # shellcheck disable=SC2086
    S_MED=$(median $walls)
    S_MIN=$(sort -g <<< "$walls" | head -n 1)
    S_MAX=$(sort -g <<< "$walls" | tail -n 1)
    # shellcheck disable=SC2086
    CPU_MED=$(median $cpus)
    MBPS=$(awk -v b="$bytes" -v s="$S_MED" 'BEGIN { printf "%.1f", b / 1e6 / s }')
    CPU_GB=$(awk -v b="$bytes" -v c="$CPU_MED" 'BEGIN { printf "%.2f", c / (b / 1e9) }')
    RRSS=$(awk 'BEGIN { m = 0 } { if ($6 > m) m = $6 } END { printf "%.0f", m / 1024 }' "$f")
    SRSS=$(awk 'BEGIN { m = 0 } { if ($7 > m) m = $7 } END { printf "%.0f", m / 1024 }' "$f")
    local servers
    servers=$(awk '{ print $8 }' "$f")
    # shellcheck disable=SC2086
    SERVER_GB=$(awk -v b="$bytes" -v c="$(median $servers)" 'BEGIN { printf "%.2f", c / (b / 1e9) }')
}

# ---------------------------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------------------------
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
STARTED=$(date -u '+%Y-%m-%d %H:%M UTC')
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "?")
[[ -n $(git -C "$ROOT" status --porcelain -- Sources Package.swift 2>/dev/null) ]] && commit+=" (with uncommitted changes)"
say "$STARTED, load $LOAD_START, $(nproc) cores; atl from $ATL_BIN ($commit); $RUNS run(s) per case"
rm -f "$TIMES"/*.runs

start_wormhole_servers
TICK=$(getconf CLK_TCK)
CASES=(atl wormhole socat)
if ((FSYNC_ROW)); then CASES+=(socat+fsync); fi
if ((TUNED_ROW)); then CASES+=(atl-tuned); fi
ATL_ENV=()
WORMHOLE_VIA=direct
VIAS=()
for kind in big folder; do
    for ((run = 1; run <= RUNS; run++)); do
        for tool in "${CASES[@]}"; do
            LABEL="$tool/$kind run $run"
            prepare "$kind"
            case $tool in
                atl) run_atl "$kind" ;;
                atl-tuned) ATL_ENV=("GLIBC_TUNABLES=$TUNABLES"); run_atl "$kind"; ATL_ENV=() ;;
                wormhole)
                    run_wormhole "$kind"
                    SERVER_CPU=$(awk -v t="$SERVER_TICKS" -v h="$TICK" 'BEGIN { printf "%.2f", t / h }')
                    VIAS+=("$WORMHOLE_VIA") ;;
                socat) run_socat "$kind" ;;
                socat+fsync) run_socat "$kind" fsync ;;
            esac
            record "$tool-$kind"
        done
    done
done
MDNS_OK=0
if ((DISCOVERY)); then
    LABEL="atl-mdns/big"
    prepare big
    if run_atl big mdns; then
        record atl-mdns-big
        MDNS_OK=1
    else
        say "discovery run failed (see above); reported as not working here"
    fi
fi
rm -rf "$OUT"
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------
declare -A MB CPUGB
ROWS=()
big_label="1 GiB file"
((SIZE_MB == 1024)) || big_label="$SIZE_MB MiB file"
folder_label="$FILES × $FILE_MB MiB"
row() {  # row CASE BYTES TOOL-LABEL DATA-LABEL
    summarise "$1" "$2"
    MB[$1]=$MBPS
    CPUGB[$1]=$CPU_GB
    local note=""
    [[ $1 == wormhole-* ]] && note=" (+${SERVER_GB} mailbox/relay)"
    local range; range=$(printf '%.2f–%.2f' "$S_MIN" "$S_MAX")
    [[ $S_MIN == "$S_MAX" ]] && range="–"
    ROWS+=("| $3 | $4 | $(printf '%.2f' "$S_MED") | $range | $MBPS | $CPU_GB$note | $RRSS | $SRSS |")
}
for kind in big folder; do
    if [[ $kind == big ]]; then bytes=$BIG_BYTES; label=$big_label; else bytes=$FOLDER_BYTES; label=$folder_label; fi
    row "atl-$kind" "$bytes" "atl-send / atl-recv (--to/--listen)" "$label"
    if ((TUNED_ROW)); then row "atl-tuned-$kind" "$bytes" "atl, what-if: GLIBC_TUNABLES keeps freed heap (no code change)" "$label"; fi
    row "wormhole-$kind" "$bytes" "magic-wormhole $("$WORMHOLE" --version 2>/dev/null | awk '{ print $NF }')" "$label"
    if [[ $kind == big ]]; then
        row "socat-$kind" "$bytes" "socat (raw, unencrypted)" "$label"
        if ((FSYNC_ROW)); then row "socat+fsync-$kind" "$bytes" "socat + fsync of the output (reference)" "$label"; fi
    else
        row "socat-$kind" "$bytes" "tar c \\| socat → socat \\| tar x (raw, unencrypted)" "$label"
        if ((FSYNC_ROW)); then row "socat+fsync-$kind" "$bytes" "tar \\| socat \\| tar x + fsync of every file (reference)" "$label"; fi
    fi
done
if ((MDNS_OK)); then row "atl-mdns-big" "$BIG_BYTES" "atl-send / atl-recv, DNS-SD discovery on lo (1 run)" "$big_label"; fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
ge() { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x >= y) }'; }
MISSED=0
verdict() { if ge "$1" "$2"; then echo "met"; else MISSED=1; echo "**not met**"; fi; }
r_wh_big=$(ratio "${MB[atl-big]}" "${MB[wormhole-big]}")
r_wh_folder=$(ratio "${MB[atl-folder]}" "${MB[wormhole-folder]}")
r_so_big=$(ratio "${MB[atl-big]}" "${MB[socat-big]}")
r_so_folder=$(ratio "${MB[atl-folder]}" "${MB[socat-folder]}")
vias=$(printf '%s\n' "${VIAS[@]}" | sort | uniq -c | awk '{ printf "%s%s ×%s", (NR > 1 ? ", " : ""), $2, $1 }')
# paired REFERENCE-CASE ATL-CASE: "median (min–max)" of the per-round throughput ratios atl /
# reference (the reference's wall time over atl's, round by round). Sets PAIRED_MED.
paired() {
    local ratios
    ratios=$(paste -d' ' "$TIMES/$1.runs" "$TIMES/$2.runs" | awk '{ printf "%.4f\n", $1 / $9 }')
    # shellcheck disable=SC2086
    PAIRED_MED=$(median $ratios)
    printf '%.2f (%.2f–%.2f)' "$PAIRED_MED" "$(sort -g <<< "$ratios" | head -n 1)" "$(sort -g <<< "$ratios" | tail -n 1)"
}

{
    echo "Run: $STARTED; load average at start $LOAD_START, at end $LOAD_END; $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo) RAM, Linux $(uname -r); atl at $commit; $RUNS run(s) per case, tools alternating."
    echo
    echo "| tool | data | seconds (median) | range | MB/s | CPU s per GB (both ends) | peak RSS recv MB | peak RSS send MB |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${ROWS[@]}"
    echo
    echo "MB = 10^6 bytes, GB = 10^9 bytes; seconds from starting the receiver until both ends exited; CPU = user+sys of both ends (median run);"
    echo "wormhole's mailbox/relay CPU is extra, in brackets; its transit connection was $vias. Every received copy was sha256-identical to the source."
    echo
    echo "| ratio | of the medians | per round: median (range) | target | |"
    echo "|---|---:|---:|---:|---|"
    if ((FSYNC_ROW)); then
        for kind in big folder; do
            if [[ $kind == big ]]; then label=$big_label; else label=$folder_label; fi
            r=$(ratio "${MB[atl-$kind]}" "${MB[socat+fsync-$kind]}")
            p=$(paired "socat+fsync-$kind" "atl-$kind")
            echo "| atl / synced raw copy (socat + fsync), $label | **$r** | $p | ≥ 0.90 (issue 28) | $(verdict "$r" 0.9) |"
        done
        for kind in big folder; do
            if [[ $kind == big ]]; then label=$big_label; else label=$folder_label; fi
            echo "| atl / raw copy without the sync, $label | $(ratio "${MB[atl-$kind]}" "${MB[socat-$kind]}") | $(paired "socat-$kind" "atl-$kind") | (reference) | |"
        done
        echo "| CPU s per GB, $big_label (atl / wormhole / socat / socat + fsync) | ${CPUGB[atl-big]} / ${CPUGB[wormhole-big]} / ${CPUGB[socat-big]} / ${CPUGB[socat+fsync-big]} | | reported | |"
        echo "| CPU s per GB, $folder_label (atl / wormhole / tar+socat / tar+socat + fsync) | ${CPUGB[atl-folder]} / ${CPUGB[wormhole-folder]} / ${CPUGB[socat-folder]} / ${CPUGB[socat+fsync-folder]} | | reported | |"
    fi
    echo "| atl / wormhole throughput, $big_label | **${r_wh_big}×** | $(paired "wormhole-big" "atl-big") | ≥ 10× (issue 4) | $(verdict "$r_wh_big" 10) |"
    echo "| atl / wormhole throughput, $folder_label | **${r_wh_folder}×** | $(paired "wormhole-folder" "atl-folder") | ≥ 10× (issue 4) | $(verdict "$r_wh_folder" 10) |"
    echo "| atl / socat throughput, $big_label | $(awk -v r="$r_so_big" 'BEGIN { printf "%.0f%%", r * 100 }') | | ≥ 60% (issue 4) | $(verdict "$r_so_big" 0.6) |"
    echo "| atl / socat throughput, $folder_label | $(awk -v r="$r_so_folder" 'BEGIN { printf "%.0f%%", r * 100 }') | | (none) | |"
    if ((DISCOVERY && !MDNS_OK)); then echo; echo "Discovery (no --listen/--to) failed here; see $WORK/atl-recv.err and atl-send.err."; fi
} | tee "$RESULTS.partial"
mv "$RESULTS.partial" "$RESULTS"
say "table also in $RESULTS"
if [[ ${BENCH_STRICT:-0} == 1 ]] && ((MISSED)); then exit 2; fi
