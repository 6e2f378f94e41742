"""atheris harness: exir's deserialize_pte_binary (the Python reader of .pte
files in the executorch package) on each input. Expected rejections are the
exceptions a reader may raise on a bad file; anything else (and any hang or
crash) is a finding.

    python exir_deserialize.py [--mutator=pte|bytes] [libFuzzer flags] CORPUS...

With --mutator=pte (the default) atheris uses pte_rs.fuzz.mutate and
cross_over; with --mutator=bytes its own libFuzzer byte mutator.
Run by scripts/fuzz/run-issue36.sh.
"""

import os
import subprocess
import sys
import traceback

import atheris

with atheris.instrument_imports(include=["executorch.exir._serialize"]):
    from executorch.exir._serialize._program import deserialize_pte_binary

# A refusal by flatc (exir runs it on the bytes) or a ValueError is a
# reader's answer to a malformed file. Any other exception is an internal
# error leaking out (struct.error, IndexError, ...): each distinct one
# (type and raising line) is saved once under $PTE_FUZZ_FINDINGS with its
# input, and the run goes on. MemoryError and RecursionError, crashes and
# hangs end the run as findings of their own.
EXPECTED = (subprocess.CalledProcessError, ValueError)
FINDINGS = os.environ.get("PTE_FUZZ_FINDINGS")
_seen = set()


def _record(e: BaseException, data: bytes) -> None:
    tb = traceback.extract_tb(e.__traceback__)
    where = f"{os.path.basename(tb[-1].filename)}:{tb[-1].lineno}" if tb else "?"
    key = (type(e).__name__, where)
    if key in _seen or not FINDINGS:
        return
    _seen.add(key)
    os.makedirs(FINDINGS, exist_ok=True)
    stem = os.path.join(FINDINGS, f"{type(e).__name__}-{where.replace(':', '-')}")
    if not os.path.exists(stem + ".bin"):
        with open(stem + ".bin", "wb") as f:
            f.write(data)
        with open(stem + ".txt", "w") as f:
            f.write(f"{type(e).__name__} at {where}: {str(e)[:500]}\n")
            f.write("".join(traceback.format_list(tb[-6:])))


def test_one_input(data: bytes) -> None:
    try:
        deserialize_pte_binary(data)
    except EXPECTED:
        pass
    except (MemoryError, RecursionError):
        raise
    except Exception as e:  # noqa: BLE001 - every other type is recorded
        _record(e, data)


def main() -> None:
    argv = [a for a in sys.argv if not a.startswith("--mutator=")]
    mode = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--mutator=")), "pte")
    kwargs = {}
    if mode == "pte":
        from pte_rs import fuzz
        kwargs = {"custom_mutator": fuzz.mutate, "custom_crossover": fuzz.cross_over}
    atheris.Setup(argv, test_one_input, **kwargs)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
