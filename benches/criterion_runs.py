"""Reads one criterion group's last run: what `transcode_table.py` and
`varints_table.py` print tables from."""
import json
import os


def estimates(root, group):
    """Yields (function id, value string, GB/s, seconds) for each benchmark
    of `group` under the criterion directory `root`: the median time and the
    throughput in bytes the benchmark declared."""
    for dirpath, _, files in os.walk(os.path.join(root, group)):
        if os.path.basename(dirpath) != "new" or "benchmark.json" not in files:
            continue
        with open(os.path.join(dirpath, "benchmark.json")) as f:
            bench = json.load(f)
        with open(os.path.join(dirpath, "estimates.json")) as f:
            seconds = json.load(f)["median"]["point_estimate"] / 1e9
        gbps = bench["throughput"]["Bytes"] / seconds / 1e9
        yield bench["function_id"], bench["value_str"], gbps, seconds
