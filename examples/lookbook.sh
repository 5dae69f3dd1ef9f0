#!/usr/bin/env bash
# The wardrobe as a web site that opens from file:// with no server: the sample wardrobe, a photo
# of the shirt's care label, and the shirt in 3D (reconstructed from 12 rendered photos, so the
# example needs no camera). Then a second export that rewrites nothing, and a site of the winter
# garments alone, from a stream.
source "$(dirname "$0")/common.bash"
cd "$scratch"

atl-import --sample > /dev/null
shirt=$(atl-query garments --where 'name=White Oxford Shirt' --fields id | jq -r .id)
atl-import --images "$here/care-label.jpg" --garment "$shirt" > /dev/null

# The model, linked to the shirt (--garment), recorded in the catalog.
synth-capture --preset small-12 --width 640 --height 480 --out capture -q > /dev/null
atl-reconstruct capture --detail preview --max-triangles 4000 --garment "$shirt" --out model 2> /dev/null \
    | atl-import | jq -r '"a model of \(.faces) triangles, for the garment \(.garment)"' | sed "s/$shirt/White Oxford Shirt/"

atl-export --format html -o lookbook 2> export.log | sed "s|$scratch|…|" || cat export.log >&2
sed 's/^atl-export: //' export.log
echo "the index shows $(grep -c '<li class="card"' lookbook/index.html) garments; the shirt's page has $(grep -c 'class="stage" data-model' "lookbook/garments/$shirt.html") 3D view and $(grep -o '<img src="../img/' "lookbook/garments/$shirt.html" | wc -l) photo"
echo "three.js, copied with its licence: $(cd lookbook/js && ls | tr '\n' ' ')"

# Nothing changed, nothing rewritten (the model's files are not even made again).
atl-export --format html -o lookbook 2>&1 > /dev/null | sed 's/^atl-export: //'

# Only the records given, with '-'.
atl-query garments --where 'season has winter' | atl-export --format html -o winter - > /dev/null 2>&1
echo "winter/: $(ls winter/garments | wc -l) garment pages"
