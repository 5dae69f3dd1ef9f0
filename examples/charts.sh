#!/usr/bin/env bash
# Charts of the sample wardrobe: what it holds by category as SVG bars, where the money went as a
# PNG donut, and the numbers read back out of the SVG (every bar carries its label and value).
source "$(dirname "$0")/common.bash"
cd "$scratch"

atl-import --sample > /dev/null
atl-query stats --by category | atl-export --format svg -o categories.svg
echo "categories.svg: $(grep -c 'class="bar"' categories.svg) bars, titled \"$(sed -n 's/.*<title id="chart-title">\(.*\)<\/title>.*/\1/p' categories.svg)\""
grep -o 'class="bar"[^>]*data-label="[^"]*" data-value="[^"]*"' categories.svg | sed 's/.*data-label="\([^"]*\)" data-value="\([^"]*\)"/  \1: \2 garments/'

atl-query stats --by category | atl-export --format png --chart donut --value value --title 'Where the money went' -o money.png
# The PNG's size, from its header (width and height are bytes 16 to 23, big-endian).
printf 'money.png: %d x %d pixels\n' "$((16#$(od -An -tx1 -j16 -N4 money.png | tr -d ' \n')))" "$((16#$(od -An -tx1 -j20 -N4 money.png | tr -d ' \n')))"

# The garments that cost most per wear, each bar in the garment's own colour.
atl-query stats --by garment | atl-export --format svg --title 'Cost per wear' -o cost-per-wear.svg 2> /dev/null
grep -o 'fill="#[0-9a-f]*"[^>]*data-label="[^"]*" data-value="[^"]*"' cost-per-wear.svg | head -3 \
    | sed 's/fill="\(#[0-9a-f]*\)".*data-label="\([^"]*\)" data-value="\([^"]*\)"/  \2: \3 EUR a wear, drawn in \1/'
