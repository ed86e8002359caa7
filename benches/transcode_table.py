#!/usr/bin/env python3
"""Prints the `transcode` criterion group's last run as Markdown tables, one
per pair: a row per implementation, a column per corpus, GB/s of the source
and, in brackets, the speed over the pair's baseline on that corpus (simdutf
where it ran, else encoding_rs, else the cesu8 crate). The figures of
papers/transcoding.md, "The criterion group".

Usage: python3 benches/transcode_table.py [CRITERION_DIR]
  (default: $CARGO_TARGET_DIR/criterion or target/criterion), after
  cargo bench -p placemat-benches --bench transcode --features simdutf
"""
import os
import sys
from collections import defaultdict

from criterion_runs import estimates

BASELINES = ["simdutf", "encoding_rs", "cesu8-crate"]
CORPORA = ["english", "russian", "chinese", "korean", "emoji", "mixed", "random-scalars", "random-lengths"]


def runs(root):
    """(implementation, pair, corpus) -> (GB/s, seconds)."""
    out = {}
    for function_id, corpus, gbps, seconds in estimates(root, "transcode"):
        imp, pair = function_id.split("/", 1)
        out[(imp, pair, corpus)] = (gbps, seconds)
    return out


def main():
    target = os.environ.get("CARGO_TARGET_DIR", "target")
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(target, "criterion")
    table = runs(root)
    pairs = defaultdict(set)
    for imp, pair, _ in table:
        pairs[pair].add(imp)
    for pair in sorted(pairs):
        imps = sorted(pairs[pair], key=lambda i: (i != "placemat", i))
        base = next((b for b in BASELINES if b in imps), None)
        corpora = [c for c in CORPORA if any((i, pair, c) in table for i in imps)]
        print(f"\n`{pair}` (baseline: {base or 'none'})\n")
        print("| implementation | " + " | ".join(corpora) + " |")
        print("|---|" + "---|" * len(corpora))
        for imp in imps:
            cells = []
            for c in corpora:
                if (imp, pair, c) not in table:
                    cells.append("")
                    continue
                gbps, secs = table[(imp, pair, c)]
                ratio = ""
                if base and (base, pair, c) in table:
                    ratio = f" ({table[(base, pair, c)][1] / secs:.2f}x)"
                cells.append(f"{gbps:.2f}{ratio}")
            print(f"| {imp} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
