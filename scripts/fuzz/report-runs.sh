#!/usr/bin/env bash
# Summarizes the issue-36 runs under RUNS (default /work/fuzz-runs; started by
# scripts/fuzz/run-issue36.sh) as a markdown table: wall and CPU time (the
# CPU share is user+system over wall, of one core), executions, final
# coverage (libFuzzer/atheris `cov:` and `ft:`), corpus size, reproducers
# (crash-*, timeout-*, oom-*) and, for the exir harness, distinct internal
# exceptions recorded. Runs still going are marked "running".
# The coverage libFuzzer prints during a run depends on its mode and restarts
# (fork mode counts differently, a restart recounts), so for a finished run
# the final corpus is also replayed once (-runs=0) through the byte-mutator
# build of its harness, the same binary for both runs of a pair: "corpus
# cov/ft" compares the two corpora on equal terms (cached in NAME/final-cov).
# Usage: scripts/fuzz/report-runs.sh [RUNS]
set -euo pipefail
runs=${1:-${RUNS:-/work/fuzz-runs}}
python3 - "$runs" <<'PY'
import os, re, subprocess, sys, time

runs = sys.argv[1]
venv = os.environ.get("VENV", "/work/.venv-executorch")


def replay(harness, corpus):
    """cov and ft of a corpus, by one -runs=0 pass of the harness."""
    if harness == "exir":
        cmd = [f"{venv}/bin/python", f"{runs}/bin/exir_deserialize.py", "--mutator=bytes"]
    else:
        cmd = [f"{runs}/bin/{harness}-bytes"]
    cmd += ["-runs=0", "-max_len=1048576", "-rss_limit_mb=2048", "-timeout=60", "-close_fd_mask=3", corpus]
    env = dict(os.environ, ASAN_OPTIONS="allocator_may_return_null=1", PYTHONPATH=f"{runs}/pylib")
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                             timeout=3600, env=env).stderr
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.findall(r"INITED cov: (\d+) ft: (\d+)", out)
    return m[-1] if m else None
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
    final = ("-", "-")
    cache = os.path.join(d, "final-cov")
    if done:
        if not os.path.exists(cache):
            r = replay(harness, os.path.join(d, "corpus"))
            if r:
                open(cache, "w").write(" ".join(r) + "\n")
        if os.path.exists(cache):
            final = tuple(open(cache).read().split()[:2])
    rows.append((order.index(harness) if harness in order else 9, harness, mutator, done, wall, user + sys_, execs,
                 cov, ft, corpus, kinds, findings, segments, final))

print("| harness | mutator | state | wall s | CPU s (share of a core) | executions | exec/s | last cov | last ft | corpus files | corpus cov | corpus ft | crash/timeout/oom | exir exceptions | restarts |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|")
for r in sorted(rows, key=lambda r: (r[0], r[2] != "pte")):
    _, h, m, done, wall, cpu, execs, cov, ft, corpus, k, findings, segs, final = r
    share = f"{cpu:.0f} ({100 * cpu / wall:.0f}%)" if wall else "-"
    rate = f"{execs / wall:.1f}" if wall else "-"
    print(f"| {h} | {'pte-fuzz' if m == 'pte' else 'libFuzzer bytes'} | {'done' if done else 'running'} | {wall:.0f} | {share} | "
          f"{execs} | {rate} | {cov} | {ft} | {corpus} | {final[0]} | {final[1]} | {k['crash']}/{k['timeout']}/{k['oom']} | "
          f"{findings if h == 'exir' else '-'} | {max(segs - 1, 0)} |")
PY
