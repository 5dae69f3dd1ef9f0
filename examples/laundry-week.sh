#!/usr/bin/env bash
# A week of laundry on the sample wardrobe: what wants washing, the loads the care labels
# allow, a load washed, dried and finished, and a hand-made load that would ruin a garment.
source "$(dirname "$0")/common.bash"
cd "$scratch"

atl-import --sample > /dev/null
echo "wants washing: $(atl-query garments --where readyToWash=true | wc -l) of $(atl-query garments | wc -l) garments"

# The plan: one laundry record per machine load, then what could not be placed, and why.
atl-query laundry-plan > plan.ndjson
jq -r 'select(.type == "laundry") | (.garments | length) as $n
    | "\(.bin): \($n) garment\(if $n == 1 then "" else "s" end), \(.program)\(if .temperature then " \(.temperature) °C" else "" end): \(.symbols | join(" "))"' plan.ndjson
jq -r 'select(.type == "unplaced") | "not placed: \(.name): \(.reason)"' plan.ndjson
jq -r 'select(.type == "laundry") | .warnings[] | "warning: \(.message)"' plan.ndjson | cut -c1-100

# Store the plan; its garments are now in the wash pile.
atl-import < plan.ndjson > /dev/null
echo "in the wash pile: $(atl-query garments --where state=toWash | wc -l) garments"

# Monday: the pastels go in, come out, dry, and are done.
load=$(atl-query laundry --where bin=pastels --fields id | jq -r .id)
members() {
    atl-query laundry --where "id=$load" | jq -r '.garments[]' | while read -r garment; do
        atl-query garments --where "id=$garment" --fields name,state | jq -r '"\(.name) (\(.state))"'
    done | paste -sd, - | sed 's/,/, /g'
}
for status in washing drying done; do
    echo "{\"type\":\"laundry\",\"id\":\"$load\",\"status\":\"$status\"}" | atl-import > /dev/null
    echo "pastels $status: $(members)"
done
atl-query garments --where 'name=Light Blue Poplin Shirt' --fields name,state,lastWashedOn,wearsSinceWash,readyToWash | jq -c 'del(.lastWashedOn)'

# The plan is never above a label; a load made by hand can be, and is refused.
shirt=$(atl-query garments --where 'name=Black Crew T-Shirt' --fields id | jq -r .id)
echo "{\"type\":\"laundry\",\"bin\":\"darks\",\"temperature\":60,\"garments\":[\"$shirt\"]}" | atl-import 2>&1 | cut -c1-120 || true
echo "loads stored: $(atl-query laundry | wc -l)"
