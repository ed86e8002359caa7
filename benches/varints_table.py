#!/usr/bin/env python3
"""Prints the `varints` criterion group's last run as Markdown tables, one
per codec and job (step, bulk, encode): a row per implementation, a column
per distribution, GB/s of the encoded stream and, in brackets, placemat's
speed over that implementation's on the same distribution (above 1: placemat
is faster). For `step` and `encode` placemat is its codec type (`placemat`);
for `bulk` it is `decode_into` (`placemat-decode-into`). The figures of
papers/integers.md.

Usage: python3 benches/varints_table.py [CRITERION_DIR]
  (default: $CARGO_TARGET_DIR/criterion or target/criterion), after
  RUSTFLAGS="-C target-cpu=native" cargo bench -p placemat-benches --bench varints --features varint-simd
"""
import os
import sys
from collections import defaultdict

from criterion_runs import estimates

DISTRIBUTIONS = ["mostly-small", "log-uniform"]
OURS = {"step": "placemat", "bulk": "placemat-decode-into", "encode": "placemat"}


def runs(root):
    """(codec, job, implementation, distribution) -> GB/s."""
    out = {}
    for function_id, distribution, gbps, _ in estimates(root, "varints"):
        codec, job, imp = function_id.split(":", 2)
        out[(codec, job, imp, distribution)] = gbps
    return out


def main():
    target = os.environ.get("CARGO_TARGET_DIR", "target")
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(target, "criterion")
    table = runs(root)
    imps = defaultdict(set)
    for codec, job, imp, _ in table:
        imps[(codec, job)].add(imp)
    for (codec, job) in sorted(imps, key=lambda k: (k[0], ["step", "bulk", "encode"].index(k[1]))):
        ours = OURS[job]
        print(f"\n`{codec}`, {job}\n")
        print("| implementation | " + " | ".join(DISTRIBUTIONS) + " |")
        print("|---|" + "---|" * len(DISTRIBUTIONS))
        for imp in sorted(imps[(codec, job)], key=lambda i: (not i.startswith("placemat"), i)):
            cells = []
            for d in DISTRIBUTIONS:
                gbps = table.get((codec, job, imp, d))
                mine = table.get((codec, job, ours, d))
                if gbps is None:
                    cells.append("")
                elif imp.startswith("placemat") or mine is None:
                    cells.append(f"{gbps:.2f}")
                else:
                    cells.append(f"{gbps:.2f} ({mine / gbps:.2f})")
            print(f"| {imp} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
