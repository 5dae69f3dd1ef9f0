#!/usr/bin/env bash
# Bring a spreadsheet in: a CSV with a header row becomes garments (vocabulary checked, ids
# assigned), and comes back out as JSON for another program.
source "$(dirname "$0")/common.bash"
cd "$scratch"

cat > closet.csv <<'CSV'
name,category,subcategory,brand,seasons,composition,price.amount,price.currency
Grey Flannel Trousers,bottom,trousers,Cordings,autumn;winter,wool 100,145,GBP
"Linen Shirt, white",top,shirt,Arket,spring;summer,linen 100,69,EUR
Trail Runners,footwear,sneakers,Salomon,spring;summer;autumn,polyester 70;polyamide 30,130,EUR
CSV

atl-import closet.csv | jq -r '"stored \(.name) (\(.category), id \(.id[0:2])…)"'

# A typo in a category is refused with a suggestion, and nothing from that file is stored.
printf 'name,category\nRain Jacket,outwear\n' > typo.csv
if ! atl-import typo.csv 2> err; then
  echo "refused: $(cat err)"
fi

atl-query garments --where 'seasons has summer' --sort name |
  atl-export --format json | jq '[.[] | {name, fabric: [.composition[].fabric], price: .price.amount}]'
