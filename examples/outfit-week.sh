#!/usr/bin/env bash
# A week of outfits on the sample wardrobe: each morning the first suggestion for the day's
# weather is worn (stored as an outfit, then logged), the laundry is done when it piles up, and
# no garment that wants washing is ever proposed. Then a weekend trip, packed as a capsule.
source "$(dirname "$0")/common.bash"
cd "$scratch"

atl-import --sample > /dev/null
temperatures=(12 9 7 11 14 8 6)
for day in 1 2 3 4 5 6 7; do
    date="today+${day}d"
    t=${temperatures[$((day - 1))]}
    outfit=$(atl-query suggest --date "$date" --season autumn --temperature "$t")
    # The independent check: every garment suggested is at home and clean that day.
    clean=$(atl-query garments --date "$date" --where readyToWash=false --where state=available --fields id | jq -r .id)
    for id in $(jq -r '.garments[]' <<< "$outfit"); do
        grep -qx "$id" <<< "$clean" || { echo "suggested $id, which is not clean and at home"; exit 1; }
    done
    jq -r --arg t "$t" --arg day "$day" '"day \($day), \($t) °C: \(.name) (\(.garments | length) pieces, score \(.why.score))"' <<< "$outfit"
    # Why: the parts of its score and the reasons, in words.
    [ "$day" -gt 1 ] || jq -r '.why | "  score \(.score): rotation \(.rotation), harmony \(.harmony), formality \(.formality), pairs \(.pairs)", (.reasons[] | "  - \(.)")' <<< "$outfit"
    # Worn: stored, then logged on that day.
    atl-import <<< "$outfit" | jq -c --arg d "$(date -u -d "+${day} days" +%F)" '{type: "wear", outfit: .id, date: $d}' | atl-import > /dev/null
    # Laundry every third day: the loads planned, washed and done.
    if [ $((day % 3)) -eq 0 ]; then
        washed=$(atl-query laundry-plan --date "$date" | jq -c 'select(.type == "laundry")' | atl-import | jq -c '{type, id, status: "done"}' | atl-import | jq -s 'map(.garments | length) | add')
        echo "  laundry day: ${washed:-0} garments washed"
    fi
done
echo "outfits suggested and worn: $(atl-query outfits --where tags=suggested | wc -l), all different: $(atl-query outfits --where tags=suggested --fields garments | sort -u | wc -l)"

# A four-day trip in the cold: four different outfits from as few garments as will do.
atl-query suggest --days 4 --date today+10d --season winter --temperature 5 > trip.ndjson
jq -r 'select(.type == "outfit") | "trip: " + (.name | sub("^[0-9-]+: "; ""))' trip.ndjson
jq -r 'select(.type == "packing") | "pack \(.count) garments (\(.weightGrams / 1000) kg) for \(.days) days: \(.names | join(", "))"' trip.ndjson
