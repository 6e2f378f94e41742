"""Reads one .pte with exir's `deserialize_pte_binary` (the Python
deserializer). Exit 0 when it reads, 1 when it raises. For `pte conformance
run` (external-parsers.sh).
    python exir_read_one.py FILE.pte"""

import sys

from executorch.exir._serialize._program import deserialize_pte_binary

try:
    deserialize_pte_binary(open(sys.argv[1], "rb").read())
except Exception as e:  # noqa: BLE001 - every exception is a refusal
    print(f"{type(e).__name__}: {' '.join(str(e).split())[:200]}", file=sys.stderr)
    sys.exit(1)
