# Sourced by the examples: a scratch catalog of their own (never your real one), and the tools
# from this checkout's build when they are not installed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if ! command -v atl-import >/dev/null; then
  for dir in "$here/../.build/release" "$here/../.build/debug"; do
    [ -x "$dir/atl-import" ] && PATH="$dir:$PATH" && break
  done
fi
command -v atl-import >/dev/null || { echo "build Atelier first (make build) or install it (make install)" >&2; exit 69; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export ATELIER_DB="$scratch/catalog.sqlite"
