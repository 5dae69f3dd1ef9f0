#!/usr/bin/env bash
# A replace-only backup: export the catalog, make a mess, restore, and prove nothing was lost.
source "$(dirname "$0")/common.bash"
cd "$scratch"

atl-import --sample > /dev/null
atl-export --format backup -o wardrobe.atelier
before=$(atl-query garments | sha256sum)

# The mess: every coat deleted.
atl-query garments --where category=outerwear | jq -c '{type, id, op: "delete"}' | atl-import > /dev/null
echo "after the mess: $(atl-query garments | wc -l) garments"

# A damaged archive is refused and changes nothing.
head -c 4000 wardrobe.atelier > damaged.atelier
atl-import --restore damaged.atelier 2>&1 | sed 's/^/refused: /' || true

atl-import --restore wardrobe.atelier
echo "after restore: $(atl-query garments | wc -l) garments"
[ "$(atl-query garments | sha256sum)" = "$before" ] && echo "identical to before the mess"
python3 -c 'import json, sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print("archive members:", sorted(z.namelist())); print("counts:", json.load(z.open("metadata.json"))["counts"])' wardrobe.atelier
