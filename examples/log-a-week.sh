#!/usr/bin/env bash
# Log a week of outfits from the shell, then see what it did to wear counts: one wear per garment
# per day, however often it is logged, and an outfit's wear logs each of its garments.
source "$(dirname "$0")/common.bash"

atl-import --sample > /dev/null
office=$(atl-query outfits --where 'name~^Office' --fields id | jq -r .id | head -1)
before=$(atl-query outfits --where "id=$office" --expand | jq '[.garments[].wearCount] | add')

# Monday to Friday of a week in January, twice over: the second import changes nothing.
for round in 1 2; do
  for day in 05 06 07 08 09; do
    jq -nc --arg o "$office" --arg d "2026-01-$day" '{type: "wear", outfit: $o, date: $d}'
  done | atl-import > /dev/null
done

after=$(atl-query outfits --where "id=$office" --expand | jq '[.garments[].wearCount] | add')
garments=$(atl-query outfits --where "id=$office" | jq '.garments | length')
echo "office outfit: $garments garments, their wears went from $before to $after (+$((after - before)) = 5 days x $garments)"
atl-query wear --where 'date>=2026-01-05' --where 'date<=2026-01-09' --where "outfit=$office" --where 'garment~.' --sort date --fields date,garment |
  jq -r '[.date, .garment] | @tsv' | head -4
