"""Reads .ptn packages with exir's own read_ptn and prints, per package, every
key with its dtype, shape and the sha256 of its bytes, as JSON lines. Used by
scripts/conformance/et-ptn.sh to compare with `pte info --json`."""
import hashlib, json, sys

import torch
from executorch.exir._serialize._ptn import read_ptn

for path in sys.argv[1:]:
    ptg, constants = read_ptn(path)
    keys = {}
    for key, t in constants.items():
        raw = t.contiguous().flatten().view(torch.uint8).numpy().tobytes() if t.numel() else b""
        keys[key] = {"dtype": str(t.dtype), "shape": list(t.shape), "sha256": hashlib.sha256(raw).hexdigest()}
    print(json.dumps({"file": path, "ptg_sha256": hashlib.sha256(ptg).hexdigest(), "keys": keys}, sort_keys=True))
