"""Checks pte_rs.exir against exir on every corpus program: deserialize_pte_binary
results compare equal, and (with --serialize) files written by our
serialize_pte_binary deserialize (with exir's reader) to what exir's own writer's
output deserializes to. The default result's lazily copied Buffers are also
checked: exir's own writer gives the same bytes on it as on exir's result, our
writer leaves them unread, and repr/deepcopy/pickle behave as exir's. Used by
py-exir-tests.sh; arguments are .pte paths."""
import copy
import dataclasses
import pickle
import sys

import pte_rs.exir as ours
from executorch.exir._serialize import _program as exir
from executorch.exir.schema import Buffer

KWARGS = ({}, {"extract_delegate_segments": True}, {"segment_alignment": 64, "constant_tensor_alignment": 32})


def buffers(pte):
    return list(pte.program.constant_buffer or []) + list(pte.mutable_data or [])


def lazy_problem(data, want):
    """Why the default (lazy) result does not behave as exir's, or None."""
    got = ours.deserialize_pte_binary(data)
    bufs = buffers(got)
    if not all(isinstance(b, Buffer) and "_pte_rs_lazy" in vars(b) for b in bufs):
        return "buffers are not lazy exir Buffers"
    ours.serialize_pte_binary(got)
    if any("_pte_rs_lazy" not in vars(b) for b in bufs):
        return "our writer materialized a lazy buffer"
    if repr(got) != repr(want) or dataclasses.asdict(got.program) != dataclasses.asdict(want.program):
        return "repr or asdict differs"
    for clone in (copy.deepcopy(got), pickle.loads(pickle.dumps(got))):
        if clone != want or any(type(b) is not Buffer or type(b.storage) is not bytes for b in buffers(clone)):
            return "deepcopy or pickle is not exir's plain Buffer with bytes"
    if bufs and (type(copy.copy(bufs[0])) is not Buffer or copy.copy(bufs[0]) != bufs[0]):
        return "copy is not exir's plain Buffer"
    for kw in KWARGS:
        a = bytes(exir.serialize_pte_binary(exir.deserialize_pte_binary(data), **kw))
        b = bytes(exir.serialize_pte_binary(ours.deserialize_pte_binary(data), **kw))
        if a != b:
            return f"exir's serialize_pte_binary {kw} gives other bytes on our result"
    return None


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
    problem = lazy_problem(data, want)
    if problem:
        print(f"FAIL {path}: {problem}")
        failed += 1
        continue
    if "--serialize" in sys.argv:
        for kw in KWARGS:
            a = bytes(exir.serialize_pte_binary(want, **kw))
            b = bytes(ours.serialize_pte_binary(got, **kw))
            if exir.deserialize_pte_binary(b) != exir.deserialize_pte_binary(a):
                print(f"FAIL {path} {kw}: serialize_pte_binary differs semantically")
                failed += 1
            elif a != b:
                print(f"note {path} {kw}: same program, bytes differ ({len(a)} vs {len(b)})")
    print(f"ok   {path}")
sys.exit(1 if failed else 0)
