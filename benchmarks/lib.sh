# What the benchmark scripts share; each sources it after setting SCRIPT to its own name:
#   SCRIPT=catalog.sh; . "$HERE/lib.sh"

# Messages on stderr, prefixed with the script's name; die stops with exit status 1.
say() { printf '%s\n' "$SCRIPT: $*" >&2; }
die() { say "error: $*"; exit 1; }

# install_debian PACKAGE...: installs the Debian packages named (as root, with apt-get, updating
# the package lists only if the first try fails), or stops saying how to. Nothing named, nothing done.
install_debian() {
    (($#)) || return 0
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        say "installing $* with apt-get"
        apt-get install -y "$@" >&2 || { apt-get update >&2 && apt-get install -y "$@" >&2; } \
            || die "apt-get could not install $*"
    else
        die "missing $*; install them (Debian: sudo apt-get install -y $*)"
    fi
}

# median N…, maximum N…: of the numbers given.
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
maximum() { printf '%s\n' "$@" | sort -g | tail -n 1; }

# timed [-i INFILE] OUTFILE CMD… : runs CMD once, stdin from INFILE (else the script's), stdout to
# OUTFILE, stderr to $WORK/stderr.txt; sets T (s), M (peak RSS, KB) and C (CPU s, user + system)
# from /usr/bin/time, which writes to $TIMEFILE. A failing command stops the benchmark; atl-query's exit 1 ("nothing
# matched", like grep) is not a failure.
timed() {
    local infile=/dev/stdin
    if [[ $1 == -i ]]; then infile=$2; shift 2; fi
    local outfile=$1; shift
    local status=0 allowed=0
    [[ ${1##*/} == atl-query ]] && allowed=1
    /usr/bin/time -f '%e %M %U %S' -o "$TIMEFILE" "$@" < "$infile" > "$outfile" 2> "$WORK/stderr.txt" || status=$?
    if ((status > allowed)); then
        say "command failed (exit $status): $*"
        sed 's/^/    /' "$WORK/stderr.txt" >&2
        exit 1
    fi
    local user system
    read -r T M user system < <(tail -n 1 "$TIMEFILE")
    C=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')
}
