#!/usr/bin/env bash
# Times `placemat transcode` (in segments on the machine's cores, and in one
# pass: `one-pass`, `--threads 1`) beside glibc's iconv and ICU's uconv on a
# 100 MB file of eight scripts in random order (written to $TMPDIR), whole
# processes in alternation, five runs each; prints each tool's median wall
# time and peak memory, and checks that the outputs are the same bytes. The figures of
# papers/transcoding.md, "Figures". Needs python3, iconv and uconv (Debian's
# icu-devtools). Usage: bash benches/transcode_vs_iconv.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
cargo build -q --release -p placemat-cli
P=target/release/placemat
python3 - "$DIR/mixed.txt" <<'PY'
import random, sys
random.seed(7)
parts = ["The quick brown fox jumps over the lazy dog. ", "Съешь же ещё этих мягких французских булок. ",
         "我能吞下玻璃而不伤身体。", "私はガラスを食べられます。", "나는 유리를 먹을 수 있어요. ",
         "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. ", "🎉🚀✨ ",
         "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich. "]
out, n = [], 0
while n < 100_000_000:
    p = random.choice(parts); out.append(p); n += len(p.encode())
open(sys.argv[1], "w").write("".join(out))
PY
"$P" transcode --from utf8 --to utf16le "$DIR/mixed.txt" > "$DIR/mixed16"
declare -A CMDS=(
  [placemat:utf8-utf16le]="$P transcode --from utf8 --to utf16le $DIR/mixed.txt"
  [one-pass:utf8-utf16le]="$P transcode --threads 1 --from utf8 --to utf16le $DIR/mixed.txt"
  [iconv:utf8-utf16le]="iconv -f UTF-8 -t UTF-16LE $DIR/mixed.txt"
  [uconv:utf8-utf16le]="uconv -f UTF-8 -t UTF-16LE $DIR/mixed.txt"
  [placemat:utf16le-utf8]="$P transcode --from utf16le --to utf8 $DIR/mixed16"
  [one-pass:utf16le-utf8]="$P transcode --threads 1 --from utf16le --to utf8 $DIR/mixed16"
  [iconv:utf16le-utf8]="iconv -f UTF-16LE -t UTF-8 $DIR/mixed16"
  [uconv:utf16le-utf8]="uconv -f UTF-16LE -t UTF-8 $DIR/mixed16"
  [placemat:utf8-utf8]="$P transcode --from utf8 --to utf8 $DIR/mixed.txt"
  [one-pass:utf8-utf8]="$P transcode --threads 1 --from utf8 --to utf8 $DIR/mixed.txt"
  [iconv:utf8-utf8]="iconv -f UTF-8 -t UTF-8 $DIR/mixed.txt"
)
for pair in utf8-utf16le utf16le-utf8 utf8-utf8; do
  ref=""
  for tool in placemat one-pass iconv uconv; do
    cmd=${CMDS[$tool:$pair]:-}; [ -z "$cmd" ] && continue
    sum=$($cmd | sha256sum); [ -z "$ref" ] && ref=$sum
    [ "$sum" = "$ref" ] || { echo "$tool $pair: output differs from placemat's" >&2; exit 1; }
  done
  for run in $(seq "$RUNS"); do
    for tool in placemat one-pass iconv uconv; do
      cmd=${CMDS[$tool:$pair]:-}; [ -z "$cmd" ] && continue
      # Wall time to the tenth of a millisecond; peak memory in KiB by
      # GNU time (a fork of Python would count Python's own pages).
      python3 -c 'import subprocess, sys, time
t = time.perf_counter()
r = subprocess.run(["/usr/bin/time", "-f", "%M"] + sys.argv[3:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
print(sys.argv[1], sys.argv[2], f"{time.perf_counter() - t:.4f}", r.stderr.split()[-1])' "$tool" "$pair" $cmd >>"$DIR/times"
    done
  done
done
python3 - "$DIR/times" <<'PY'
import collections, statistics, sys
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    tool, pair, wall, kb = line.split()
    t[(pair, tool)].append((float(wall), int(kb)))
for (pair, tool), v in sorted(t.items()):
    print(f"{pair:14} {tool:9} median {statistics.median(w for w, _ in v):.4f} s, peak {max(k for _, k in v) / 1024:.0f} MiB")
PY
