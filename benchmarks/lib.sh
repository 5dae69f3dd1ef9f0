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
