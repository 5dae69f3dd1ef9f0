#!/usr/bin/env bash
# Read the care label of a garment from a photo and keep its symbols on the garment: the laundry
# planner then respects them. care-label.jpg is a label photo drawn by the benchmark's test renderer.
source "$(dirname "$0")/common.bash"

atl-import --sample > /dev/null
garment=$(atl-query garments --limit 1 --fields id | jq -r .id)

echo "# what the label says"
atl-classify --task care "$here/care-label.jpg" | jq -r '.symbols[] | .code'

echo
echo "# stored on the garment"
atl-classify --task care "$here/care-label.jpg" --garment "$garment" |
  atl-import | jq -r '"\(.name): \(.care | join(", "))"'

echo
echo "# what the symbols allow together"
atl-classify --task care "$here/care-label.jpg" | jq -c '.constraints | {maxWashCelsius, washProcess, bleach, tumbleDry, maxIronCelsius, dryClean}'
