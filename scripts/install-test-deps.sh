#!/usr/bin/env bash
# Installs the Python packages the tests use as independent references (Pillow decodes the
# test images and renders them, imagehash computes reference perceptual hashes, zeroconf is the
# DNS-SD peer of the discovery interop tests, pycolmap reads back the COLMAP models atl-reconstruct
# writes, trimesh and pygltflib read back the PLY, OBJ and GLB meshes, usd-core opens and validates the
# USDZ packages as usdchecker does), if missing.
set -euo pipefail
missing=()
python3 -c 'import PIL' 2>/dev/null || missing+=(pillow)
python3 -c 'import imagehash' 2>/dev/null || missing+=(imagehash)
python3 -c 'import zeroconf' 2>/dev/null || missing+=(zeroconf)
python3 -c 'import pycolmap' 2>/dev/null || missing+=(pycolmap)
python3 -c 'import trimesh' 2>/dev/null || missing+=(trimesh)
python3 -c 'import pygltflib' 2>/dev/null || missing+=(pygltflib)
python3 -c 'import scipy' 2>/dev/null || missing+=(scipy)
python3 -c 'import pxr' 2>/dev/null || missing+=(usd-core)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing Python packages for the tests: ${missing[*]}" >&2
python3 -m pip install --quiet --disable-pip-version-check "${missing[@]}" 2>&1 | grep -v 'Running pip as the .root. user' >&2 || true
python3 -c 'import PIL, imagehash, zeroconf, pycolmap, trimesh, pygltflib, scipy, pxr' || { echo "could not install ${missing[*]}; try: python3 -m pip install --user ${missing[*]}" >&2; exit 1; }
