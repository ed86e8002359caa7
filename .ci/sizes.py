#!/usr/bin/env python3
"""Reports the longest functions and source files of the workspace (outside
tests and generated snapshots): `python3 .ci/sizes.py [N]`. A function runs
from its `fn` line to the closing brace at the same indentation."""
import pathlib, re, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SKIP = ("target", "tests", "snapshots", "fuzz/target")
FN = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?(extern\s+\"C\"\s+)?fn\s+(\w+)")

def sources():
    for p in sorted(ROOT.rglob("*.rs")):
        rel = p.relative_to(ROOT)
        if any(part in SKIP for part in rel.parts):
            continue
        yield rel, p.read_text().splitlines()

def functions(lines):
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m or line.rstrip().endswith(";"):
            continue
        indent = m.group(1)
        for j in range(i, len(lines)):
            if lines[j].startswith(indent + "}") and (j > i or lines[j].rstrip().endswith("}")):
                yield m.group(7), i + 1, j - i + 1
                break

def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    files, fns = [], []
    for rel, lines in sources():
        body = lines
        # Unit tests at the end of a file do not count toward its size.
        for k, line in enumerate(lines):
            if line.startswith("#[cfg(test)]"):
                body = lines[:k]
                break
        files.append((len(body), str(rel)))
        fns += [(length, f"{rel}:{at} {name}") for name, at, length in functions(body)]
    print("longest source files (lines, unit tests excluded):")
    for length, what in sorted(files, reverse=True)[:n]:
        print(f"  {length:5} {what}")
    print("longest functions (lines):")
    for length, what in sorted(fns, reverse=True)[:n]:
        print(f"  {length:5} {what}")

main()
