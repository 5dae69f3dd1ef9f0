#!/usr/bin/env bash
# Installs the Debian packages Atelier needs to build and test, if any are missing, saying
# which and why before it does.
set -euo pipefail
declare -A why=(
  [libsqlite3-dev]="the catalog (SQLite)"
  [libjpeg-dev]="reading and writing JPEG photos"
  [libpng-dev]="reading and writing PNG images"
  [libopenblas-dev]="the care-label networks' and reconstruction's linear algebra"
  [librsvg2-dev]="drawing charts as PNG (librsvg and cairo)"
  [fonts-dejavu-core]="the font charts are drawn in"
  [chromium]="the tests' real browser, which opens the lookbook from file://"
  [libjs-three]="three.js, the lookbook's 3D viewer (copied into each site)"
  [pkg-config]="finding those libraries at build time"
  [sqlite3]="the tests' independent reader of the catalog"
  [jq]="the demo's and the examples' pipelines"
  [python3]="generating man pages and running the tests' reference readers"
  [python3-venv]="a private Python environment for the tests' reference readers (make test)"
  [zip]="the tests' independent writer of archives"
  [unzip]="the tests' independent reader of archives"
  [libimage-exiftool-perl]="the tests' independent reader of EXIF (exiftool)"
)
packages=(libsqlite3-dev libjpeg-dev libpng-dev libopenblas-dev librsvg2-dev fonts-dejavu-core chromium libjs-three pkg-config sqlite3 jq python3 python3-venv zip unzip libimage-exiftool-perl)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Atelier needs these Debian packages, which this machine lacks:" >&2
for p in "${missing[@]}"; do echo "  $p: ${why[$p]}" >&2; done
if [ "$(id -u)" -eq 0 ]; then
  echo "installing them with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
elif command -v sudo >/dev/null; then
  echo "installing them with sudo apt-get" >&2
  sudo apt-get update -qq && sudo apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "please install them: apt-get install ${missing[*]}" >&2
  exit 1
fi
