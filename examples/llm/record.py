"""Records the tiny decoder's calls from the EAGER model with ``pte_rs.recording.record``.

    python examples/llm/record.py OUT_DIR

Writes set directories (``index.json`` + ``data.safetensors``, the form
``pte samples export`` writes and ``pte samples add`` reads):

* ``OUT/teacher-forced/``: two samples, each one prefill call (several tokens at
  positions 0..n-1) and then nine teacher-forced decode calls (the recorded next
  token, one at a time, at increasing ``input_pos``). The calls carry their own
  tolerances: the prefill and the first decode calls the set's, the later
  decode calls (after more cache updates) a per-call one.
* ``OUT/prefill/``: the first sample's prefill alone, one call (what a ``.bpte``
  test case can hold);
* ``OUT/prefill-runtime/``: the same call recorded from the stock runtime
  running ``OUT/model.pte`` (when it exists), through ``pte_rs.runners.ExecuTorch``;
* ``OUT/two-cases/``: from the runtime too, two one-call samples: that prefill,
  and one token at position 5 on the initial (empty) caches.

The weights are checked against ``OUT/model.ptn`` (when present) so the
recording belongs to the exported program.
"""

import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import TinyDecoder  # noqa: E402

import pte_rs  # noqa: E402
from pte_rs.recording import record, restorer, write_set  # noqa: E402

#: (prompt, continuation) per sample: the continuation is fed back one token
#: per decode call (teacher forcing: the recorded text, not the model's choice).
TEXTS = {
    "pi": ([3, 1, 4, 1, 5], [9, 2, 6, 5, 3, 5, 8, 9, 7]),
    "e": ([2, 7, 1, 8, 2, 8, 1], [8, 2, 8, 4, 5, 9, 0, 4, 5]),
}
#: Tolerances (atol, rtol): the set's, and the decode calls' from the fifth one on.
SET_TOLERANCE = (1e-5, 1e-5)
LATE_DECODE_TOLERANCE = (2e-5, 1e-4)


def calls_of(prompt, continuation):
    """The input tuples of one sample: one prefill call, then one call per continuation token."""
    calls = [(torch.tensor([prompt], dtype=torch.int64), torch.arange(len(prompt), dtype=torch.int64))]
    for i, tok in enumerate(continuation):
        calls.append((torch.tensor([[tok]], dtype=torch.int64), torch.tensor([len(prompt) + i], dtype=torch.int64)))
    return calls


def main(out: str) -> None:
    model = TinyDecoder().eval()
    ptn = os.path.join(out, "model.ptn")
    if os.path.exists(ptn):
        stored = pte_rs.open(ptn).tensors
        for name, p in model.named_parameters():
            if not np.array_equal(stored[name], p.detach().numpy()):
                raise SystemExit(f"{ptn}: {name} differs from the eager model's: export again")
    samples = {name: calls_of(*text) for name, text in TEXTS.items()}
    n = {len(c) for c in samples.values()}.pop()
    per_call = [None] * 5 + [LATE_DECODE_TOLERANCE] * (n - 5)  # None: the set's tolerance
    fresh = restorer(model)  # every sample starts from the initial (zero) caches
    s = record(model, "forward", "teacher-forced", samples, tolerance=per_call, fresh=fresh)
    s.tolerance = SET_TOLERANCE
    write_set(s, os.path.join(out, "teacher-forced"))
    first = next(iter(samples.values()))[:1]
    p = record(model, "forward", "prefill", [first], fresh=fresh)
    write_set(p, os.path.join(out, "prefill"))
    written = ["teacher-forced", "prefill"]
    pte = os.path.join(out, "model.pte")
    if os.path.exists(pte):
        # The same prefill recorded from the stock runtime itself: record() takes
        # an engine too (freshened before each sample).
        from pte_rs.runners import ExecuTorch

        runtime = ExecuTorch(pte)
        r = record(runtime, "forward", "prefill-runtime", [first])
        write_set(r, os.path.join(out, "prefill-runtime"))
        # Two one-call samples: the prefill, and a lone token at position 5 on
        # empty caches (each from the initial state, as samples are).
        lone = (torch.tensor([[9]], dtype=torch.int64), torch.tensor([5], dtype=torch.int64))
        r = record(runtime, "forward", "two-cases", [first, [lone]])
        write_set(r, os.path.join(out, "two-cases"))
        written += ["prefill-runtime", "two-cases"]
    print(f"recorded {', '.join(f'{out}/{w}' for w in written)} ({len(s.samples)} teacher-forced samples of "
          f"{n} calls)", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
