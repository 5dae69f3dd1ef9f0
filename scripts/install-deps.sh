#!/usr/bin/env bash
# Installs the Debian packages Atelier needs to build and test, if any are missing.
set -euo pipefail
packages=(libsqlite3-dev libjpeg-dev libpng-dev libopenblas-dev pkg-config sqlite3 jq python3 zip unzip libimage-exiftool-perl)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing missing packages: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
elif command -v sudo >/dev/null; then
  sudo apt-get update -qq && sudo apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "please install: ${missing[*]} (apt-get install ${missing[*]})" >&2
  exit 1
fi
