#!/usr/bin/env bash
# The push sweep of papers/transcoding.md, "Where a chunk ends": for every
# built-in codec C, `placemat bench C --to utf8`, `placemat bench utf8 --to C`
# and `placemat bench C --to utf16le` on the built-in corpora, as CSV. For each
# cell (pair and corpus) it takes the fastest whole-buffer row (every
# `placemat …` strategy but `4 KiB pushes` and `one value at a time`) and the
# `4 KiB pushes` row, and prints the cells where pushes are more than LIMIT
# times slower (default 1.2, the issue's bound), then how many cells there
# are, how many are above LIMIT, and how many of those run below 5 GB/s.
# Pairs `placemat bench` refuses (values one side cannot hold) are skipped.
# Needs only the Rust toolchain and awk; takes about two minutes.
# Usage: bash benches/push_sweep.sh [LIMIT] [CSV-OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
LIMIT=${1:-1.2}
OUT=${2:-$(mktemp)}
cargo build -q --release -p placemat-cli
P=target/release/placemat
: > "$OUT"
bench() { # FROM TO: the rows, each prefixed by the pair
  local rows
  if rows=$("$P" bench "$1" --to "$2" --format csv 2>/dev/null); then
    tail -n +2 <<< "$rows" | sed "s/^/$1,$2,/" >> "$OUT"
  else
    echo "skipped: $1 -> $2" >&2
  fi
}
for c in $("$P" list | awk '{print $1}'); do
  [ "$c" = utf8 ] || { bench "$c" utf8; bench utf8 "$c"; }
  [ "$c" = utf16le ] || bench "$c" utf16le
done
awk -F, -v limit="$LIMIT" '
  # from,to,input,operation,strategy,bytes,median_ns,gb_per_s,baseline,ratio
  $5 ~ /^placemat / {
    cell = $1 " -> " $2 " " $3
    if ($5 == "placemat 4 KiB pushes") { push[cell] = $8 }
    else if ($5 != "placemat one value at a time" && $8 > big[cell]) { big[cell] = $8; how[cell] = $5 }
  }
  END {
    for (cell in push) {
      if (!(cell in big) || push[cell] <= 0) continue
      cells++
      r = big[cell] / push[cell]
      if (r > limit) {
        above++
        if (big[cell] < 5) slow++
        printf "%-40s %7.3f / %7.3f GB/s  %.2fx  (%s)\n", cell, big[cell], push[cell], r, how[cell] | "sort"
      }
    }
    close("sort")
    printf "%d cells; %d with 4 KiB pushes above %.2fx the fastest whole-buffer row, %d of them below 5 GB/s\n",
      cells, above, limit, slow
  }' "$OUT"
echo "rows: $OUT"
