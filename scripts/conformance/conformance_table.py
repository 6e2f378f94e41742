"""Renders the JSON of `pte conformance run --json` as the markdown table
docs/conformance.md keeps: the disagreements grouped by rule and outcome,
then the summary.
    python3 conformance_table.py RUN.json"""

import json
import sys
from collections import defaultdict

run = json.load(open(sys.argv[1]))
groups = defaultdict(list)
for c in run["disagreements"]:
    got = c["got"] + (f" (signal {c['signal']})" if c["signal"] else "")
    groups[(c["rule"] or "(valid file)", c["expect"], got)].append(c["name"])
print("| rule | expect | got | cases |")
print("| --- | --- | --- | --- |")
for (rule, expect, got), names in sorted(groups.items()):
    print(f"| `{rule}` | {expect} | {got} | {', '.join(f'`{n}`' for n in names)} |")
peak = run["peak_memory"] or {}
print(
    f"\n{run['cases']} cases ({run['invalid']} to refuse): {run['agree']} agree, "
    f"{len(run['disagreements'])} disagree ({run['accepted_invalid']} invalid accepted, "
    f"{run['refused_valid']} valid refused, {run['crashes']} crashes, {run['hangs']} hangs); "
    f"peak memory {peak.get('max_rss_kib', 0)} KiB ({peak.get('case', '-')})"
)
