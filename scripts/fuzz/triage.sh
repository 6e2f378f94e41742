#!/usr/bin/env bash
# Groups the reproducers of the issue-36 runs by what they do and by what
# our verifier says of them. For each crash-/timeout-/oom- file under
# RUNS/NAME/artifacts (at most LIMIT per run, default 200) it replays the
# file in the run's own harness binary (C++ runs) and reads the sanitizer's
# first report line and first frame, and runs `pte verify` on it. A file the
# runtime crashes on and `pte verify` accepts is a disagreement: our
# verifier should have refused it. Prints a markdown table per run.
# Usage: scripts/fuzz/triage.sh [RUNS] [LIMIT]   ($PTE_BIN, else target/release/pte)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-/work/fuzz-runs}
limit=${2:-200}
pte=${PTE_BIN:-$root/target/release/pte}
[ -x "$pte" ] || (cd "$root" && CARGO_INCREMENTAL=0 cargo build --quiet --release -p pte-cli)
python3 - "$runs" "$limit" "$pte" <<'PY'
import collections, os, re, subprocess, sys

runs, limit, pte = sys.argv[1], int(sys.argv[2]), sys.argv[3]
env = dict(os.environ, ASAN_OPTIONS="allocator_may_return_null=1:symbolize=1")
for name in sorted(os.listdir(runs)):
    art = os.path.join(runs, name, "artifacts")
    if not os.path.isdir(art) or not os.path.isfile(os.path.join(runs, name, "status")):
        continue
    files = sorted(f for f in os.listdir(art) if re.match(r"(crash|timeout|oom|leak)-", f))[:limit]
    if not files:
        continue
    binary = os.path.join(runs, "bin", name)
    groups = collections.OrderedDict()
    for f in files:
        path = os.path.join(art, f)
        sig = f.split("-")[0]
        if os.access(binary, os.X_OK):
            try:
                out = subprocess.run([binary, "-timeout=25", "-rss_limit_mb=2048", path],
                                     capture_output=True, text=True, errors="replace", timeout=120, env=env).stderr
            except subprocess.TimeoutExpired:
                out = "ERROR: replay timed out"
            err = re.search(r"ERROR: (?:AddressSanitizer|libFuzzer): ([^(\n]*)", out)
            frames = re.findall(r"^\s*#\d+ 0x[0-9a-f]+\s+(.*)$", out, re.M)
            if err:
                what = re.sub(r"0x[0-9a-f]+", "ADDR", err.group(1).strip())
                where = ""
                if frames:
                    m = re.search(r"\(([^()]*/)?([^/()]+\+0x[0-9a-f]+)\)", frames[0])
                    where = m.group(2) if m else frames[0].split(" ")[0]
                # The first frame with a name says more than an offset.
                named = next((re.sub(r"\(.*", "", f[3:]) for f in frames if f.startswith("in ")), "")
                if named:
                    where = f"{where} in {named}" if where and not frames[0].startswith("in ") else named
                sig = f"{what} @ {where}" if where else what
            elif "Running" in out or "Executed" in out:
                sig = f"{sig}: does not reproduce"
        verdict = subprocess.run([pte, "verify", path], capture_output=True, text=True, errors="replace").stdout
        rule = re.search(r"\[([a-z0-9_.-]+)\]", verdict)
        v = "accepts" if verdict.strip().endswith("valid") and not rule else (rule.group(1) if rule else "rejects")
        g = groups.setdefault(sig, {"n": 0, "example": path, "size": os.path.getsize(path), "verdicts": collections.Counter()})
        g["n"] += 1
        g["verdicts"][v] += 1
        if os.path.getsize(path) < g["size"]:
            g["example"], g["size"] = path, os.path.getsize(path)
    print(f"\n### {name}: {len(files)} reproducers\n")
    print("| what the harness reports | files | smallest | `pte verify` |")
    print("|---|---:|---|---|")
    for sig, g in groups.items():
        vs = ", ".join(f"{k} {n}" for k, n in g["verdicts"].most_common())
        print(f"| {sig} | {g['n']} | `{os.path.relpath(g['example'], runs)}` ({g['size']} B) | {vs} |")
PY
