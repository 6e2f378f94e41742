"""Recording sample sets from any callable: an eager ``torch.nn.Module``, a
function, or a runner engine (an object with ``fresh()`` and ``call()``).

>>> import pte_rs.recording as rec
>>> model = TinyDecoder().eval()
>>> s = rec.record(model, "forward", "teacher-forced",
...                [[(prompt, pos0), (tok1, pos1), (tok2, pos2)]],   # one sample, three calls
...                tolerance=[None, (1e-5, 1e-5), (1e-5, 1e-5)],     # per call
...                fresh=rec.restorer(model))                        # initial buffers before each sample
>>> rec.write_set(s, "samples-dir")          # then: pte samples add model.ptn samples-dir

The result is a :class:`pte_rs.SampleSet` of numpy arrays (BF16 tensors as
:data:`BF16`-tagged ``uint16`` words); :func:`write_set` writes it as the set
directory ``pte samples export`` writes (``index.json`` + ``data.safetensors``),
:func:`read_set` reads one. Nothing here imports torch unless the callable or
its values are torch objects.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import Call, Sample, SampleSet, _check_sets
from ._protocol import (BF16, ProtocolError, as_value, bf16, decode_safetensors, decode_values,
                        encode_safetensors, encode_values, is_bf16)

__all__ = ["record", "restorer", "write_set", "read_set", "BF16", "bf16", "is_bf16"]

Tolerance = Tuple[float, float]


def _is_engine(fn: Any) -> bool:
    return callable(getattr(fn, "call", None)) and callable(getattr(fn, "fresh", None))


def _is_module(fn: Any) -> bool:
    import sys

    torch = sys.modules.get("torch")
    return torch is not None and isinstance(fn, torch.nn.Module)


def restorer(module: Any) -> Callable[[], None]:
    """A ``fresh`` for an eager ``torch.nn.Module``: restores every parameter and
    buffer (non-persistent ones too, such as KV caches) to its value now.

    Take it before the first call: ``fresh=restorer(model)``. The same as
    ``initial = copy.deepcopy(model.state_dict()); fresh=lambda: model.load_state_dict(initial)``
    except that buffers registered with ``persistent=False`` (not in ``state_dict``)
    are restored too. Anything but a module raises :class:`TypeError`.
    """
    if not _is_module(module):
        raise TypeError(f"restorer needs a torch.nn.Module, not {type(module).__name__}")
    import torch

    tensors = dict(module.named_parameters(remove_duplicate=False))
    tensors.update(module.named_buffers(remove_duplicate=False))
    saved = {name: t.detach().clone() for name, t in tensors.items()}

    def fresh() -> None:
        with torch.no_grad():
            for name, t in tensors.items():
                t.copy_(saved[name])

    return fresh


def _samples(calls: Any) -> List[Tuple[Optional[str], List[Tuple[Any, ...]]]]:
    """(name, [input tuple per call]) per sample, from the accepted shapes of ``calls``."""
    def one_call(c: Any) -> Tuple[Any, ...]:
        return tuple(c) if isinstance(c, (tuple, list)) else (c,)

    if isinstance(calls, Mapping):
        return [(str(name), [one_call(c) for c in sample]) for name, sample in calls.items()]
    calls = list(calls)
    if not calls:
        raise ValueError("record: no calls")
    if all(isinstance(s, list) for s in calls):
        # A list of samples, each a list of calls.
        return [(None, [one_call(c) for c in s]) for s in calls]
    if any(isinstance(s, list) for s in calls):
        raise TypeError("record: `calls` mixes samples (lists) and calls (tuples); give a list of samples, each a "
                        "list of input tuples, or one sample as a flat list of input tuples")
    return [(None, [one_call(c) for c in calls])]


def _pair(t: Any, where: str) -> Optional[Tolerance]:
    if t is None:
        return None
    try:
        atol, rtol = (float(x) for x in t)
    except (TypeError, ValueError):
        raise TypeError(f"record: {where} tolerance must be (atol, rtol) or None, got {t!r}") from None
    if not (atol >= 0 and rtol >= 0 and np.isfinite(atol) and np.isfinite(rtol)):
        raise ValueError(f"record: {where} tolerance {t!r} must be finite and >= 0")
    return (atol, rtol)


def _is_pair(t: Any) -> bool:
    return (isinstance(t, (tuple, list)) and len(t) == 2
            and all(isinstance(x, (int, float, np.floating, np.integer)) and not isinstance(x, bool) for x in t))


def _tolerances(tolerance: Any, shape: List[int]) -> Tuple[Optional[Tolerance], List[List[Optional[Tolerance]]]]:
    """(set tolerance, per sample per call tolerances)."""
    none = [[None] * n for n in shape]
    if tolerance is None:
        return None, none
    if _is_pair(tolerance):
        return _pair(tolerance, "set"), none
    items = list(tolerance)
    if all(t is None or _is_pair(t) for t in items):
        # Per call, the same for every sample.
        for n in shape:
            if len(items) != n:
                raise ValueError(f"record: {len(items)} per-call tolerances for a sample of {n} call(s)")
        return None, [[_pair(t, f"call {c}") for c, t in enumerate(items)] for _ in shape]
    if len(items) != len(shape):
        raise ValueError(f"record: {len(items)} lists of per-call tolerances for {len(shape)} sample(s)")
    out = []
    for s, (row, n) in enumerate(zip(items, shape)):
        row = [None] * n if row is None else list(row)
        if len(row) != n:
            raise ValueError(f"record: sample {s}: {len(row)} per-call tolerances for {n} call(s)")
        out.append([_pair(t, f"sample {s} call {c}") for c, t in enumerate(row)])
    return None, out


def _torch_inputs(inputs: Tuple[Any, ...]) -> Tuple[Any, ...]:
    from ._protocol import to_torch

    def conv(v: Any) -> Any:
        if isinstance(v, np.ndarray):
            return to_torch(v)
        if isinstance(v, list) and v and all(isinstance(x, np.ndarray) for x in v):
            return [to_torch(x) for x in v]
        return v

    return tuple(conv(v) for v in inputs)


def _outputs(result: Any) -> List[Any]:
    """The outputs of one call: a tuple or list is several outputs (a list inside one is a tensor list)."""
    if isinstance(result, (tuple, list)):
        values = list(result)
    else:
        values = [result]
    out = []
    for i, v in enumerate(values):
        try:
            v = as_value(v)
        except TypeError as e:
            raise TypeError(f"record: output {i}: {e}") from None
        # Copies, so a later call that mutates a returned buffer cannot change what was recorded.
        out.append(v.copy() if isinstance(v, np.ndarray) else [a.copy() for a in v] if isinstance(v, list) else v)
    return out


def record(fn: Any, method: str, set: str, calls: Any,  # noqa: A002 - the set's name, as in the format
           tolerance: Any = None, fresh: Union[None, bool, Callable[[], Any]] = None) -> SampleSet:
    """Runs ``fn`` on every call and returns the recorded :class:`pte_rs.SampleSet`.

    ``fn``: a callable ``fn(*inputs)`` returning a tensor/array, a scalar, or a
    tuple/list of them (several outputs; a list inside the tuple is a tensor
    list), or an engine (``call(method, inputs)`` and ``fresh()``, such as
    :class:`pte_rs.runners.ExecuTorch`), which is then freshened before each sample.

    ``calls``: a list of samples, each a list of input tuples; or one sample as
    a flat list of input tuples; or a dict ``{sample name: list of input tuples}``.
    A call's inputs are recorded as given (torch tensors converted to numpy
    exactly) *before* the call. For a ``torch.nn.Module``, numpy inputs are
    handed to it as torch tensors.

    ``tolerance``: ``(atol, rtol)`` for the whole set, or a list with one entry
    (``(atol, rtol)`` or None) per call of each sample, or a list of such lists,
    one per sample. None: the format's default (atol 1e-8, rtol 1e-5).

    ``fresh``: a zero-argument callable run before each sample, to put ``fn``
    back in its initial state (every sample starts from a freshly loaded
    program, so a stateful ``fn`` needs it when there are several samples).
    ``True`` with a ``torch.nn.Module``: :func:`restorer` of it, taken now.
    """
    samples = _samples(calls)
    set_tol, call_tols = _tolerances(tolerance, [len(c) for _, c in samples])
    engine = _is_engine(fn)
    module = _is_module(fn)
    if fresh is True:
        if not module:
            raise TypeError("record: fresh=True needs a torch.nn.Module (or pass a zero-argument callable)")
        fresh = restorer(fn)
    elif fresh is None and engine:
        fresh = fn.fresh
    elif fresh is not None and not callable(fresh):
        raise TypeError(f"record: fresh must be a zero-argument callable, True or None, not {fresh!r}")
    if fresh is None and module and len(samples) > 1 and any(True for _ in fn.buffers()):
        warnings.warn("record: the module has buffers and no `fresh` was given: each sample after the first "
                      "starts from the state the previous one left (pass fresh=True to restore them)", stacklevel=2)
    if not engine and not callable(fn):
        raise TypeError(f"record: {type(fn).__name__} is not callable and not an engine")
    no_grad: Any = None
    if module:
        import torch

        no_grad = torch.no_grad
    out: List[Sample] = []
    for s, (name, sample_calls) in enumerate(samples):
        if fresh is not None:
            fresh()
        recorded: List[Call] = []
        for c, inputs in enumerate(sample_calls):
            try:
                stored = [as_value(v) for v in inputs]
            except TypeError as e:
                raise TypeError(f"record: sample {s} call {c}: input: {e}") from None
            stored = [v.copy() if isinstance(v, np.ndarray) else [a.copy() for a in v] if isinstance(v, list)
                      else v for v in stored]
            if engine:
                result = fn.call(method, [v for v in stored])
            elif module:
                with no_grad():
                    result = fn(*_torch_inputs(inputs))
            else:
                result = fn(*inputs)
            try:
                outputs = _outputs(result)
            except TypeError as e:
                raise TypeError(f"record: sample {s} call {c}: {e}") from None
            recorded.append(Call(stored, outputs, call_tols[s][c]))
        out.append(Sample(recorded, name))
    return SampleSet(method, set, out, set_tol)


# ---- set directories -------------------------------------------------------

def _tol_json(t: Optional[Tolerance]) -> Optional[Dict[str, float]]:
    return None if t is None else {"atol": float(t[0]), "rtol": float(t[1])}


def write_set(sample_set: SampleSet, directory: Union[str, "os.PathLike[str]"]) -> None:
    """Writes the set as ``directory/index.json`` + ``directory/data.safetensors``.

    The form ``pte samples export`` writes and ``pte samples add`` / ``pte bpte
    bundle`` read (format ``pte-samples`` version 1, tensors keyed
    ``<sample>.<call>.in.<i>`` / ``.out.<i>``). BF16 tensors stay BF16.
    """
    _check_sets([sample_set])
    tensors: Dict[str, Any] = {}
    samples = []
    for s, smp in enumerate(sample_set.samples):
        calls = []
        for c, call in enumerate(smp.calls):
            entry: Dict[str, Any] = {"inputs": encode_values(call.inputs, f"{s}.{c}.in", tensors),
                                     "outputs": encode_values(call.outputs, f"{s}.{c}.out", tensors)}
            if call.tolerance is not None:
                entry["tolerance"] = _tol_json(call.tolerance)
            calls.append(entry)
        sample: Dict[str, Any] = {}
        if smp.name is not None:
            sample["name"] = smp.name
        if smp.tolerance is not None:
            sample["tolerance"] = _tol_json(smp.tolerance)
        sample["calls"] = calls
        samples.append(sample)
    index: Dict[str, Any] = {"format": "pte-samples", "version": 1, "method": sample_set.method,
                             "set": sample_set.name}
    if sample_set.tolerance is not None:
        index["tolerance"] = _tol_json(sample_set.tolerance)
    index["samples"] = samples
    os.makedirs(directory, exist_ok=True)
    data = encode_safetensors(tensors)
    for name, blob in (("data.safetensors", data),
                       ("index.json", (json.dumps(index, indent=2, allow_nan=False) + "\n").encode())):
        path = os.path.join(directory, name)
        with open(path + ".tmp", "wb") as f:
            f.write(blob)
        os.replace(path + ".tmp", path)


def read_set(directory: Union[str, "os.PathLike[str]"]) -> SampleSet:
    """Reads a set directory (``index.json`` + ``data.safetensors``) as a :class:`pte_rs.SampleSet`."""
    with open(os.path.join(directory, "index.json"), "rb") as f:
        index = json.load(f)
    with open(os.path.join(directory, "data.safetensors"), "rb") as f:
        tensors = decode_safetensors(f.read())
    if index.get("format") != "pte-samples" or index.get("version") != 1:
        raise ProtocolError(f"{directory}: not a pte-samples version 1 index")

    def tol(d: Any) -> Optional[Tolerance]:
        return None if d is None else (float(d["atol"]), float(d["rtol"]))

    samples = []
    for s, smp in enumerate(index["samples"]):
        calls = [Call(decode_values(c["inputs"], tensors, f"samples[{s}].calls[{i}].inputs"),
                      decode_values(c["outputs"], tensors, f"samples[{s}].calls[{i}].outputs"),
                      tol(c.get("tolerance"))) for i, c in enumerate(smp["calls"])]
        samples.append(Sample(calls, smp.get("name"), tol(smp.get("tolerance"))))
    return SampleSet(index["method"], index["set"], samples, tol(index.get("tolerance")))

