"""Checks pte_rs.exir against exir on every corpus program: deserialize_pte_binary
results compare equal, and (with --serialize) files written by our
serialize_pte_binary deserialize (with exir's reader) to what exir's own writer's
output deserializes to. Used by py-exir-tests.sh; arguments are .pte paths."""
import sys

import pte_rs.exir as ours
from executorch.exir._serialize import _program as exir

failed = 0
for path in sys.argv[1:]:
    if path == "--serialize":
        continue
    data = open(path, "rb").read()
    try:
        want = exir.deserialize_pte_binary(data)
    except Exception as e:  # exir cannot read it: ours must fail too
        try:
            ours.deserialize_pte_binary(data)
            print(f"FAIL {path}: exir raised {type(e).__name__}, pte_rs did not")
            failed += 1
        except Exception:
            print(f"ok   {path} (both refuse)")
        continue
    got = ours.deserialize_pte_binary(data)
    if got != want:
        print(f"FAIL {path}: deserialize_pte_binary differs")
        failed += 1
        continue
    zc = ours.deserialize_pte_binary(data, zero_copy=True)
    if zc != want or bytes(ours.serialize_pte_binary(zc)) != bytes(ours.serialize_pte_binary(got)):
        print(f"FAIL {path}: deserialize_pte_binary(zero_copy=True) differs")
        failed += 1
        continue
    if "--serialize" in sys.argv:
        for kw in ({}, {"extract_delegate_segments": True}, {"segment_alignment": 64, "constant_tensor_alignment": 32}):
            a = bytes(exir.serialize_pte_binary(want, **kw))
            b = bytes(ours.serialize_pte_binary(got, **kw))
            if exir.deserialize_pte_binary(b) != exir.deserialize_pte_binary(a):
                print(f"FAIL {path} {kw}: serialize_pte_binary differs semantically")
                failed += 1
            elif a != b:
                print(f"note {path} {kw}: same program, bytes differ ({len(a)} vs {len(b)})")
    print(f"ok   {path}")
sys.exit(1 if failed else 0)
