#!/usr/bin/env python3
"""The MSRV check available with one toolchain: every package in the resolved
dependency graph declares a rust-version no newer than the workspace's, and
clippy's incompatible_msrv lint (run by .ci/run with -D warnings) flags std
APIs newer than it in our own code."""
import json
import subprocess
import sys


def version(v):
    return tuple(int(x) for x in v.split(".")[:3]) + (0,) * (3 - len(v.split(".")[:3]))


meta = json.loads(subprocess.check_output(["cargo", "metadata", "--format-version", "1", "--locked"]))
members = set(meta["workspace_members"])
ours = {p["rust_version"] for p in meta["packages"] if p["id"] in members}
if len(ours) != 1 or None in ours:
    sys.exit(f"workspace crates disagree on rust-version: {ours}")
msrv = ours.pop()
bad = [
    f'{p["name"]} {p["version"]} needs Rust {p["rust_version"]}'
    for p in meta["packages"]
    if p.get("rust_version") and version(p["rust_version"]) > version(msrv)
]
if bad:
    sys.exit(f"dependencies newer than our MSRV {msrv}:\n  " + "\n  ".join(bad))
print(f"msrv: {len(meta['packages'])} packages, none needs more than Rust {msrv}")
