# Sourced by the examples: a scratch catalog of their own (never your real one), and the tools
# from this checkout's build when they are not installed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if ! command -v atl-import >/dev/null; then
  # The newer of the two builds: a release built last week must not stand in for today's debug one.
  release="$here/../.build/release" debug="$here/../.build/debug"
  if [ -x "$release/atl-import" ] && { [ ! -x "$debug/atl-import" ] || [ "$release/atl-import" -nt "$debug/atl-import" ]; }; then
    PATH="$release:$PATH"
  elif [ -x "$debug/atl-import" ]; then
    PATH="$debug:$PATH"
  fi
fi
command -v atl-import >/dev/null || { echo "build Atelier first (make build) or install it (make install)" >&2; exit 69; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export ATELIER_DB="$scratch/catalog.sqlite"
