"""Loads every file listed in a mutants verdicts.jsonl (from
`cargo run -p pte-gen --example mutants`) in the stock runtime, in Minimal
and InternalConsistency modes, through restartable worker processes with a
per-file timeout, and compares with our verdicts.

Usage: python et_mutants.py MUTANTS_DIR [--workers N] [--timeout S] [--only-accepted]
Writes MUTANTS_DIR/runtime.jsonl and prints a summary (JSON on the last line).
"""

import argparse
import json
import os
import queue
import subprocess
import sys
import threading
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))


class Worker:
    def __init__(self):
        self.start()

    def start(self):
        self.p = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "et_load_worker.py")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self.pump, args=(self.p, self.lines), daemon=True).start()
        first = self.lines.get(timeout=300)
        assert first == "READY", first

    @staticmethod
    def pump(p, q):
        for line in p.stdout:
            q.put(line.rstrip("\n"))
        q.put(None)

    def load(self, mode, path, timeout):
        self.p.stdin.write(f"{mode} {path}\n")
        self.p.stdin.flush()
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.p.kill()
            self.p.wait()
            self.start()
            return "hang", f"no answer in {timeout} s"
        if line is None:
            code = self.p.wait()
            self.start()
            return "crash", f"worker died with status {code}"
        _, status, detail = line.split(" ", 2)
        return status, detail


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--only-accepted", action="store_true",
                    help="load only the files pte verify accepts (no crash restarts: minutes, not hours)")
    a = ap.parse_args()
    verdicts = [json.loads(l) for l in open(os.path.join(a.dir, "verdicts.jsonl"))]
    if a.only_accepted:
        verdicts = [v for v in verdicts if v["valid"]]
    jobs = queue.Queue()
    for v in verdicts:
        jobs.put(v)
    results = []
    lock = threading.Lock()

    def run():
        w = Worker()
        while True:
            try:
                v = jobs.get_nowait()
            except queue.Empty:
                break
            path = os.path.join(a.dir, v["file"])
            r = dict(v)
            for mode in ("minimal", "internal"):
                r[mode], r[mode + "_detail"] = w.load(mode, path, a.timeout)
            with lock:
                results.append(r)
        w.p.stdin.close()

    threads = [threading.Thread(target=run) for _ in range(a.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.sort(key=lambda r: r["file"])
    with open(os.path.join(a.dir, "runtime.jsonl"), "w") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")
    c = Counter()
    for r in results:
        ours = "accept" if r["valid"] else "reject"
        c[f"ours {ours}, internal {r['internal']}"] += 1
        c[f"ours {ours}, minimal {r['minimal']}"] += 1
    for k in sorted(c):
        print(f"{c[k]:7d}  {k}")
    def why(r):
        if r.get("external"):
            return "EXTERNAL tensors need their .ptd"
        if "program.constant_segment" in r.get("warnings", []):
            return "legacy inline constants (a warning of ours; compiled out of the stock build)"
        if r.get("region") == "delegate-payload":
            return "inside a delegate payload (a warning of ours, or a field the backend checks itself)"
        return "UNEXPLAINED"
    we_accept_runtime_rejects = [r for r in results if r["valid"] and r["internal"] != "loaded"]
    reasons = Counter(why(r) for r in we_accept_runtime_rejects)
    for k, n in sorted(reasons.items()):
        print(f"{n:7d}  we accept, runtime rejects: {k}")
    for r in we_accept_runtime_rejects:
        if why(r) == "UNEXPLAINED":
            print(f"         UNEXPLAINED {r['file']} {r['source']} {r['mutation']}: {r['internal_detail']}")
    theirs = Counter(",".join(sorted(set(r["rules"]))) for r in results if not r["valid"] and r["internal"] == "loaded")
    for k, n in theirs.most_common():
        print(f"{n:7d}  runtime (InternalConsistency) loads, we reject: {k}")
    crashes = [r for r in results if {"crash", "hang"} & {r["minimal"], r["internal"]}]
    for r in crashes:
        print(f"         runtime crash minimal={r['minimal']} internal={r['internal']} {r['file']} {r['source']} {r['mutation']} region={r.get('region')} our rules={sorted(set(r['rules']))}")
    print(json.dumps({
        "files": len(results),
        "we_accept_runtime_rejects": len(we_accept_runtime_rejects),
        "unexplained": reasons.get("UNEXPLAINED", 0),
        "runtime_accepts_we_reject": sum(1 for r in results if not r["valid"] and r["internal"] == "loaded"),
        "crash_minimal": sum(1 for r in results if r["minimal"] in ("crash", "hang")),
        "crash_internal": sum(1 for r in results if r["internal"] in ("crash", "hang")),
    }))


if __name__ == "__main__":
    main()
