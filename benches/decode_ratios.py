#!/usr/bin/env python3
"""Time of each real-world codec's table decoder over strict UTF-8's, per corpus,
from criterion's saved results of one run (the corpora are the same texts,
transcoded into each codec). Run the benchmarks first:

    cargo bench -p placemat-benches --features criterion --bench codecs -- 'decode/([a-z0-9-]+:)?table/'
    python3 benches/decode_ratios.py

Prints a Markdown table (papers/beyond-the-seeds.md, "Decoding speed").
"""
import json
import os

TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(os.path.dirname(__file__), "..", "target"))
BASE = os.path.join(TARGET, "criterion", "decode")
CODECS = [
    "utf16le", "utf16be", "utf32le", "utf32be", "cesu8", "mutf8", "perl-utf8",
    "vlq", "git-ofs", "quic-varint", "sqlite-varint", "leb128",
]


def mean(directory, corpus):
    path = os.path.join(BASE, directory, corpus, "new", "estimates.json")
    with open(path) as f:
        return json.load(f)["mean"]["point_estimate"]


def main():
    corpora = sorted(c for c in os.listdir(os.path.join(BASE, "table")) if c != "report")
    print("| codec | " + " | ".join(corpora) + " |")
    print("|---|" + "---|" * len(corpora))
    for codec in CODECS:
        ratios = [mean(codec + "_table", c) / mean("table", c) for c in corpora]
        print("| `%s` | %s |" % (codec, " | ".join("%.2f" % r for r in ratios)))


if __name__ == "__main__":
    main()
