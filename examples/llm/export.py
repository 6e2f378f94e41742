"""Exports the tiny decoder with the stock exporter:

* ``OUT/model.pte``: ``torch.export`` -> ``executorch.exir.to_edge`` -> ``to_executorch``;
* ``OUT/model.ptn``: the same exported program through ``executorch.exir.native.to_native``.

The sequence length is dynamic (``torch.export.Dim``), so one ``forward`` serves
both the prefill and the one-token decode calls. The KV cache buffers are
mutated in place; ExecuTorch keeps them as mutable buffers (initial value in
the program, updated by each call).

    python examples/llm/export.py OUT_DIR
"""

import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import MAX_SEQ, TinyDecoder, example_inputs  # noqa: E402


def export(out: str) -> None:
    from executorch.exir import ExecutorchBackendConfig, to_edge
    from executorch.exir.passes.init_mutable_pass import InitializedMutableBufferPass
    from executorch.exir.native import to_native

    os.makedirs(out, exist_ok=True)
    t0 = time.time()
    model = TinyDecoder().eval()
    seq = torch.export.Dim("seq", min=1, max=MAX_SEQ)
    # backed_size_oblivious: the shape environment keeps the sequence length's
    # lower bound at 1, which to_native writes into the package's signature (by
    # default it assumes >= 2 for a dynamic size, and the .ptn would declare
    # 2..32, refusing the one-token decode calls).
    with torch.no_grad(), torch.fx.experimental._config.patch(backed_size_oblivious=True):
        ep = torch.export.export(model, example_inputs(), dynamic_shapes=({1: seq}, {0: seq}), strict=False)
        # The caches start as zeros: without InitializedMutableBufferPass the program
        # would keep only their shape (an uninitialized, memory-planned buffer).
        config = ExecutorchBackendConfig(passes=[InitializedMutableBufferPass(["k_cache", "v_cache"])])
        prog = to_edge(ep).to_executorch(config)
        with open(os.path.join(out, "model.pte"), "wb") as f:
            f.write(prog.buffer)
        to_native(ep).save(os.path.join(out, "model.ptn"))
    print(f"exported {out}/model.pte and {out}/model.ptn in {time.time() - t0:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    export(sys.argv[1] if len(sys.argv) > 1 else ".")
