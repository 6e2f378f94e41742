"""Export a few tiny programs with whatever ExecuTorch release the running
interpreter has installed, into OUT_DIR. Run by scripts/writers/old-exporters.sh
inside an old release's venv (0.4.0, 0.7.0); it only uses the exir API those
releases share (export -> to_edge -> to_executorch).

  python export_old.py OUT_DIR

Writes add.pte, linear.pte, mlp.pte, mlp_align.pte (custom segment, constant
and delegate alignment) and, when the XNNPACK partitioner imports,
xnnpack_linear.pte; releases with external constants (0.7) also write
linear_external.pte with its weights in linear_external.ptd. Weights come from fixed torch seeds, so a rerun in the
same venv gives the same bytes.
"""

import os
import sys

import torch
from torch.export import export

from importlib.metadata import version

from executorch.exir import ExecutorchBackendConfig, to_edge


class Add(torch.nn.Module):
    def forward(self, x, y):
        return x + y


class Linear(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)

    def forward(self, x):
        return self.fc(x)


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(8, 16)
        self.b = torch.nn.Linear(16, 4)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


def save(prog, path):
    with open(path, "wb") as f:
        f.write(prog.buffer)
    print(f"wrote {path} ({len(prog.buffer)} bytes)")


def export_external(out):
    """The linear model with its weights moved to a .ptd (releases that can)."""
    import glob
    import shutil
    import tempfile

    torch.manual_seed(1)
    edge = to_edge(export(Linear().eval(), (torch.ones(1, 4),)))
    prog = edge.to_executorch(ExecutorchBackendConfig(external_constants=True))
    save(prog, os.path.join(out, "linear_external.pte"))
    with tempfile.TemporaryDirectory() as tmp:
        prog.write_tensor_data_to_file(tmp)
        (ptd,) = glob.glob(os.path.join(tmp, "*.ptd"))
        shutil.copyfile(ptd, os.path.join(out, "linear_external.ptd"))
        print(f"wrote {os.path.join(out, 'linear_external.ptd')} (from {os.path.basename(ptd)})")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    print("executorch", version("executorch"), "torch", torch.__version__)
    torch.manual_seed(0)
    cases = [
        ("add", Add(), (torch.ones(2, 3), torch.ones(2, 3)), None),
        ("linear", Linear(), (torch.ones(1, 4),), None),
        ("mlp", Mlp(), (torch.ones(2, 8),), None),
        # alignments the stock defaults never produce: segment base and
        # segments on 512, constants on 64 inside their segment
        (
            "mlp_align",
            Mlp(),
            (torch.ones(2, 8),),
            ExecutorchBackendConfig(segment_alignment=512, constant_tensor_alignment=64, delegate_alignment=32),
        ),
    ]
    for name, model, args, cfg in cases:
        edge = to_edge(export(model.eval(), args))
        prog = edge.to_executorch(cfg) if cfg is not None else edge.to_executorch()
        save(prog, os.path.join(out, f"{name}.pte"))
    if "external_constants" in ExecutorchBackendConfig.__dataclass_fields__:
        export_external(out)
    try:
        from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    except Exception as e:  # noqa: BLE001 - an old wheel without the backend is a skip
        print(f"skipped xnnpack_linear: {e}")
        return
    torch.manual_seed(2)  # the same weights whether or not the external case ran
    edge = to_edge(export(Linear().eval(), (torch.ones(1, 4),)))
    edge = edge.to_backend(XnnpackPartitioner())
    save(edge.to_executorch(), os.path.join(out, "xnnpack_linear.pte"))


if __name__ == "__main__":
    main()
