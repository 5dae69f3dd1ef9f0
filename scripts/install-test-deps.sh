#!/usr/bin/env bash
# Puts the Python packages the tests use as independent references into a virtual environment
# of this checkout (default .build/test-python), never into the machine's own Python:
#   Pillow     decodes the test images and renders fixtures (an independent JPEG/PNG reader)
#   imagehash  computes reference perceptual hashes
#   zeroconf   is the DNS-SD peer of the discovery interop tests
#   pycolmap   reads back the COLMAP models atl-reconstruct writes
#   trimesh, pygltflib, scipy  read back the PLY, OBJ and GLB meshes
#   usd-core   opens and validates the USDZ packages as usdchecker does
# `make test` puts the environment's bin/ first on PATH, so the tests' `python3` is this one.
set -euo pipefail
venv="${1:-$(cd "$(dirname "$0")/.." && pwd)/.build/test-python}"
modules=(PIL imagehash zeroconf pycolmap trimesh pygltflib scipy pxr)
packages=(pillow imagehash zeroconf pycolmap trimesh pygltflib scipy usd-core)
if [ ! -x "$venv/bin/python3" ]; then
  echo "make test: creating a Python virtual environment for the tests' reference readers in $venv" >&2
  if ! python3 -m venv "$venv" >&2; then
    rm -rf "$venv"
    echo "cannot create a virtual environment with $(command -v python3); on Debian: apt-get install python3-venv" >&2
    exit 1
  fi
fi
missing=()
for i in "${!modules[@]}"; do
  "$venv/bin/python3" -c "import ${modules[$i]}" 2>/dev/null || missing+=("${packages[$i]}")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "make test: installing ${missing[*]} from PyPI into $venv (the tests' independent readers; nothing outside that folder changes)" >&2
"$venv/bin/python3" -m pip install --quiet --disable-pip-version-check "${missing[@]}" >&2
"$venv/bin/python3" -c "import $(IFS=,; echo "${modules[*]}")" || { echo "could not install ${missing[*]} into $venv" >&2; exit 1; }
