"""Exports a zoo of small models with the stock exporter (the venv's
executorch), one folder each, laid out like tests/corpus: model.pte, any .ptd
beside it, and inputs.pt (the example inputs, for zoo_record_io.py). Covers
what the corpus does not: convolution with batch norm, torch.cond, nested
outputs, embeddings, tensor lists, index_put, a transformer layer (portable
and XNNPACK), an LSTM, non-default alignments, dynamic XNNPACK, a mutable
buffer beside a delegate, PT2E int8 quantization, external constants, integer
and boolean outputs, scalar arguments. A model this release cannot export is
reported (FAIL NAME) and skipped.

    python zoo_export.py OUT_DIR
"""
import os, sys, traceback
import torch
from torch.export import export, Dim
from executorch.exir import to_edge, to_edge_transform_and_lower, ExecutorchBackendConfig, EdgeCompileConfig
out = sys.argv[1]
os.makedirs(out, exist_ok=True)

def save(name, prog, inputs):
    d = os.path.join(out, name); os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "model.pte"), "wb") as f:
        prog.write_to_file(f)
    if hasattr(prog, "write_tensor_data_to_file") :
        try: prog.write_tensor_data_to_file(d)
        except Exception: pass
    torch.save(inputs, os.path.join(d, "inputs.pt"))
    print("ok", name, flush=True)

def xnn():
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    return [XnnpackPartitioner()]

def lower(m, inputs, name, partition=False, config=None, dynamic_shapes=None, edge_cfg=None):
    try:
        ep = export(m.eval(), inputs, dynamic_shapes=dynamic_shapes, strict=False)
        if partition:
            e = to_edge_transform_and_lower(ep, partitioner=xnn())
        else:
            e = to_edge(ep, compile_config=edge_cfg) if edge_cfg else to_edge(ep)
        prog = e.to_executorch(config or ExecutorchBackendConfig())
        save(name, prog, inputs)
    except Exception:
        print("FAIL", name); traceback.print_exc(limit=3)

class ConvBn(torch.nn.Module):
    def __init__(s):
        super().__init__(); s.c = torch.nn.Conv2d(3, 8, 3, padding=1); s.b = torch.nn.BatchNorm2d(8)
    def forward(s, x): return torch.relu(s.b(s.c(x)))
x4 = (torch.randn(1, 3, 16, 16),)
lower(ConvBn(), x4, "conv_bn_portable")
lower(ConvBn(), x4, "conv_bn_xnnpack", partition=True)

class Cond(torch.nn.Module):
    def forward(s, x):
        return torch.cond(x.sum() > 0, lambda x: x * 2, lambda x: x - 1, (x,))
lower(Cond(), (torch.randn(4),), "cond")

class Multi(torch.nn.Module):
    def forward(s, x, y):
        return (x + y, (x * y, {"a": x - y}))
lower(Multi(), (torch.randn(3), torch.randn(3)), "nested_outputs")

class Emb(torch.nn.Module):
    def __init__(s):
        super().__init__(); s.e = torch.nn.Embedding(50, 8)
    def forward(s, idx): return s.e(idx).sum(1)
lower(Emb(), (torch.randint(0, 50, (2, 5)),), "embedding")

class Lists(torch.nn.Module):
    def forward(s, x, y):
        z = torch.cat([x, y, x], 0)
        w = torch.stack([x, y])
        return z, w
lower(Lists(), (torch.randn(2, 3), torch.randn(2, 3)), "tensor_lists")

class IndexPut(torch.nn.Module):
    def forward(s, x, i, v):
        x = x.clone(); x[i] = v; return x
lower(IndexPut(), (torch.randn(6), torch.tensor([1, 3]), torch.randn(2)), "index_put")

class Attn(torch.nn.Module):
    def __init__(s):
        super().__init__(); s.l = torch.nn.TransformerEncoderLayer(16, 2, 32, batch_first=True)
    def forward(s, x): return s.l(x)
lower(Attn(), (torch.randn(1, 4, 16),), "transformer_portable")
lower(Attn(), (torch.randn(1, 4, 16),), "transformer_xnnpack", partition=True)

class Lstm(torch.nn.Module):
    def __init__(s):
        super().__init__(); s.l = torch.nn.LSTM(4, 8, batch_first=True)
    def forward(s, x): return s.l(x)[0]
lower(Lstm(), (torch.randn(1, 5, 4),), "lstm")

class Lin(torch.nn.Module):
    def __init__(s):
        super().__init__(); s.a = torch.nn.Linear(8, 16); s.b = torch.nn.Linear(16, 4)
    def forward(s, x): return s.b(torch.relu(s.a(x)))
lower(Lin(), (torch.randn(2, 8),), "aligned_segments", config=ExecutorchBackendConfig(segment_alignment=4096, constant_tensor_alignment=64, delegate_alignment=256))
lower(Lin(), (torch.randn(2, 8),), "xnnpack_aligned", partition=True)
b = Dim("b", min=1, max=32)
lower(Lin(), (torch.randn(2, 8),), "xnnpack_dynamic", partition=True, dynamic_shapes={"x": {0: b}})

class Buf(torch.nn.Module):
    def __init__(s):
        super().__init__(); s.register_buffer("acc", torch.zeros(4)); s.l = torch.nn.Linear(4, 4)
    def forward(s, x):
        s.acc.add_(x); return s.l(s.acc)
try:
    from executorch.exir.passes import MemoryPlanningPass
    lower(Buf(), (torch.randn(4),), "mutable_xnnpack", partition=True, config=ExecutorchBackendConfig(memory_planning_pass=MemoryPlanningPass(alloc_graph_input=True)))
except Exception:
    traceback.print_exc(limit=2)

# quantized XNNPACK
try:
    from torchao.quantization.pt2e.quantize_pt2e import prepare_pt2e, convert_pt2e
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import XNNPACKQuantizer, get_symmetric_quantization_config
    m = Lin().eval(); ex = (torch.randn(2, 8),)
    gm = export(m, ex, strict=False).module()
    q = XNNPACKQuantizer(); q.set_global(get_symmetric_quantization_config())
    gm = prepare_pt2e(gm, q); gm(*ex); gm = convert_pt2e(gm)
    ep = export(gm, ex, strict=False)
    prog = to_edge_transform_and_lower(ep, partitioner=xnn()).to_executorch()
    save("quantized_xnnpack", prog, ex)
except Exception:
    print("FAIL quantized"); traceback.print_exc(limit=3)

# external constants for xnnpack weights and for portable
lower(Lin(), (torch.randn(2, 8),), "external_portable", config=ExecutorchBackendConfig(external_constants=True))
class Ints(torch.nn.Module):
    def forward(s, x):
        return (x.to(torch.int32) * 3, x > 0, x.to(torch.float16), x.to(torch.uint8))
lower(Ints(), (torch.randn(5) * 4,), "int_bool_outputs")
class Scalars(torch.nn.Module):
    def forward(s, x):
        return torch.clamp(x, min=-0.5, max=0.5).sum(dim=0, keepdim=True), torch.argmax(x, dim=1)
lower(Scalars(), (torch.randn(3, 4),), "scalar_args")
