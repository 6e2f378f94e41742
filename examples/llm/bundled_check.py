"""The stock runtime's own check of a bundled program (``.bpte``).

    python examples/llm/bundled_check.py MODEL.bpte [METHOD]

Loads the bundle with executorch 1.5.1's pybindings
(``_load_bundled_program_from_buffer``) and runs
``verify_result_with_bundled_expected_output`` (its defaults: rtol 1e-5,
atol 1e-8) on every test case of METHOD (default ``forward``). Prints one
``PASS`` / ``FAIL`` line per case; exit 0 when all pass, 1 otherwise.

Each case runs on the state the previous one left (the runtime does not
reload between cases); with one case per stateful method that does not matter.
"""

import sys

from pte_rs.runner import claim_stdio

# Keep library prints off our verdict lines: stdout is ours alone.
_, out = claim_stdio()

from executorch.devtools.bundled_program.serialize import (  # noqa: E402
    deserialize_from_flatbuffer_to_bundled_program,
)
from executorch.extension.pybindings.portable_lib import _load_bundled_program_from_buffer  # noqa: E402


def main(path: str, method: str = "forward") -> int:
    data = open(path, "rb").read()
    bp = deserialize_from_flatbuffer_to_bundled_program(data)
    cases = sum(len(s.test_cases) for s in bp.method_test_suites if s.method_name == method)
    bundle = _load_bundled_program_from_buffer(data)
    failed = 0
    for i in range(cases):
        try:
            bundle.verify_result_with_bundled_expected_output(method, i)
            line = f"PASS {path} {method} case {i}"
        except Exception as e:  # the runtime raises on a mismatch
            failed += 1
            line = f"FAIL {path} {method} case {i}: {type(e).__name__}: {e}"
        out.write((line + "\n").encode())
    out.flush()
    return 1 if failed or not cases else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
