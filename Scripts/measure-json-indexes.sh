#!/bin/sh
# Counts the instructions JSONScanner and JSONTape spend on the same page of 50 items (≈ 24 KB).
#
# Builds the two files, the core they use and Scripts/json-indexes-main.swift as one optimised
# program, then runs each case 100 times under callgrind. A case's cost is its count minus the
# count of the "none" case (the program with no parsing), divided by 100:
#   scanner-validate  JSONScanner checks the page
#   scanner-page      ... and slices its 50 items with their ids (what HTTPPageSource does)
#   tape-page         JSONTape indexes the page
#   scanner-items     JSONScanner checks each of the 50 items apart
#   tape-items        JSONTape indexes each of the 50 items apart (what the item decoder does)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root"/Sources/Slippers/*/*.swift "$root/Sources/SlippersNetworking/JSON/JSONScanner.swift" \
    "$root/Sources/SlippersSQLite/Decoding/JSONTape.swift" "$work/"
cp "$root/Scripts/json-indexes-main.swift" "$work/main.swift"
# One module instead of three: drop the imports of the core, and name its ID through this module.
sed -i '/^import Slippers$/d; s/Slippers\.ID/JSONIndexes.ID/g' "$work"/*.swift
swiftc -O -wmo -package-name slippers -module-name JSONIndexes "$work"/*.swift -o "$work/json-indexes"
for case in none scanner-validate scanner-page tape-page scanner-items tape-items; do
    count=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/json-indexes" "$case" 100 2>&1 |
        sed -n 's/.*Collected : //p')
    echo "$case $count"
done | awk '$1 == "none" { none = $2; next } { printf "%-17s %8d instructions a page\n", $1, ($2 - none) / 100 }'
