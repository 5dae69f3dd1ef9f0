#!/usr/bin/env bash
# What in the sample wardrobe earns its place? Cost per wear by category, the garments nobody
# has worn for two months, and a CSV of them to act on (sell, donate, wear).
source "$(dirname "$0")/common.bash"

atl-import --sample > /dev/null

echo "# cost per wear by category"
atl-query stats --by category |
  jq -r 'select(.total | not) | [.group, .garments, .wears, (.costPerWear.EUR // "-")] | @tsv' |
  awk -F'\t' 'BEGIN { printf "%-10s %8s %6s %9s\n", "category", "garments", "wears", "EUR/wear" }
               { printf "%-10s %8s %6s %9s\n", $1, $2, $3, $4 }' 

echo
echo "# not worn for 60 days, dearest first"
atl-query garments --where 'lastWornOn<today-60d' --sort -price.amount --fields name,brand,price.amount |
  atl-export --format csv --columns name,brand,price.amount -o "$scratch/unworn.csv"
cat "$scratch/unworn.csv"
