#!/usr/bin/env bash
# Summarizes the issue-36 runs under RUNS (default /work/fuzz-runs; started by
# scripts/fuzz/run-issue36.sh) as a markdown table: wall and CPU time (the
# CPU share is user+system over wall, of one core), executions, final
# coverage (libFuzzer/atheris `cov:` and `ft:`), corpus size, reproducers
# (crash-*, timeout-*, oom-*) and, for the exir harness, distinct internal
# exceptions recorded. Runs still going are marked "running".
# Usage: scripts/fuzz/report-runs.sh [RUNS]
set -euo pipefail
runs=${1:-${RUNS:-/work/fuzz-runs}}
python3 - "$runs" <<'PY'
import os, re, sys, time

runs = sys.argv[1]
order = ["fb_verify", "et_load", "exir"]
rows = []
for name in sorted(os.listdir(runs)):
    d = os.path.join(runs, name)
    if not os.path.isfile(os.path.join(d, "status")):
        continue
    harness, _, mutator = name.rpartition("-")
    status = open(os.path.join(d, "status")).read()
    done = "done" in status
    wall = user = sys_ = 0.0
    if os.path.exists(os.path.join(d, "time")):
        for line in open(os.path.join(d, "time")):
            parts = line.split()
            if len(parts) == 3 and all(re.fullmatch(r"[0-9.]+", p) for p in parts):
                wall += float(parts[0]); user += float(parts[1]); sys_ += float(parts[2])
    log = open(os.path.join(d, "log"), errors="replace").read() if os.path.exists(os.path.join(d, "log")) else ""
    execs = 0
    for seg in log.split("=== segment ")[1:]:
        m = re.findall(r"stat::number_of_executed_units: (\d+)", seg)
        if m:
            execs += int(m[-1])
        else:
            n = re.findall(r"^#(\d+):?\s", seg, re.M)
            execs += int(n[-1]) if n else 0
    cov = re.findall(r"cov: (\d+) ft: (\d+)", log)
    cov, ft = (cov[-1] if cov else ("-", "-"))
    if not done:
        # CPU so far of the live processes (libFuzzer's fork children and
        # atheris' flatc runs included through the parent's reaped-children
        # times), found by the run's artifact directory on their command line.
        tick = os.sysconf("SC_CLK_TCK")
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                cmd = open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="replace")
                if f"-artifact_prefix={d}/artifacts/" not in cmd or cmd.startswith(("/usr/bin/time", "sh\0")):
                    continue
                f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
                user += (int(f[11]) + int(f[13])) / tick
                sys_ += (int(f[12]) + int(f[14])) / tick
            except OSError:
                pass
        start = re.search(r"start (\S+)", status)
        # A run in progress: its wall time so far, from the start stamp.
        if start:
            t0 = time.mktime(time.strptime(start.group(1), "%Y-%m-%dT%H:%M:%SZ")) - time.timezone
            wall = max(wall, time.time() - t0)
    arts = os.listdir(os.path.join(d, "artifacts")) if os.path.isdir(os.path.join(d, "artifacts")) else []
    kinds = {k: sum(a.startswith(k + "-") for a in arts) for k in ("crash", "timeout", "oom", "leak")}
    fdir = os.path.join(d, "findings")
    findings = len([f for f in os.listdir(fdir) if f.endswith(".bin")]) if os.path.isdir(fdir) else 0
    corpus = len(os.listdir(os.path.join(d, "corpus"))) if os.path.isdir(os.path.join(d, "corpus")) else 0
    segments = log.count("=== segment ")
    rows.append((order.index(harness) if harness in order else 9, harness, mutator, done, wall, user + sys_, execs,
                 cov, ft, corpus, kinds, findings, segments))

print("| harness | mutator | state | wall s | CPU s (share of a core) | executions | exec/s | cov | ft | corpus | crash/timeout/oom | exir exceptions | restarts |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|")
for r in sorted(rows, key=lambda r: (r[0], r[2] != "pte")):
    _, h, m, done, wall, cpu, execs, cov, ft, corpus, k, findings, segs = r
    share = f"{cpu:.0f} ({100 * cpu / wall:.0f}%)" if wall else "-"
    rate = f"{execs / wall:.1f}" if wall else "-"
    print(f"| {h} | {'pte-fuzz' if m == 'pte' else 'libFuzzer bytes'} | {'done' if done else 'running'} | {wall:.0f} | {share} | "
          f"{execs} | {rate} | {cov} | {ft} | {corpus} | {k['crash']}/{k['timeout']}/{k['oom']} | "
          f"{findings if h == 'exir' else '-'} | {max(segs - 1, 0)} |")
PY
