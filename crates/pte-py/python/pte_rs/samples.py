"""Recorded samples checked through a runtime, in process.

:func:`verify` replays the recorded calls of a ``.ptn``, a ``.bpte`` or a folder
of sets through any *runner* (an object with ``fresh()`` and
``call(method, inputs) -> outputs``, such as :class:`pte_rs.runners.ExecuTorch`)
and returns a :class:`CheckReport` with the same fields as
``pte samples check --json``: the check itself (fresh state per sample,
tolerances, comparison, verdict) is the Rust library's, so the CLI and Python
cannot disagree. :func:`record` builds a set from any callable.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np

from . import _layout, _native, _path, _view
from ._protocol import DTYPES, _is_torch_tensor, as_value, dtype_code, torch_as_numpy
from .runners import InProcess, in_process_of
from .recording import read_set, record, write_set

__all__ = ["verify", "record", "read_set", "write_set", "CheckReport", "MatrixReport"]


def _count(n: int, noun: str) -> str:
    """``1 call``, ``3 calls``: the CLI's text convention."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@dataclass(frozen=True)
class CheckReport:
    """The outcome of a check; the fields of ``pte samples check --json``.

    ``verdict`` is ``"passed"``, ``"mismatch"`` or ``"runner_failed"``;
    ``call_results`` holds one dict per call (``max_abs_error``,
    ``max_rel_error``, tolerance and its ``level``), ``failures`` one dict per
    failure (method, set, sample, call, output, element, expected, actual,
    error, allowed, level, message).
    """

    verdict: str
    passed: bool
    runner: Optional[str]
    sets: int
    samples: int
    calls: int
    outputs: int
    skipped: int
    call_results: List[Dict[str, Any]] = field(default_factory=list)
    failures: List[Dict[str, Any]] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """What ``pte samples check`` exits with for this verdict: 0, 1 or 2."""
        return {"passed": 0, "mismatch": 1}.get(self.verdict, 2)

    def to_json(self) -> Dict[str, Any]:
        """The report as the CLI's JSON object."""
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def __str__(self) -> str:
        lines = [f"FAIL {f['message']}" for f in self.failures]
        lines.append(f"{_count(self.sets, 'set')}, {_count(self.samples, 'sample')}, {_count(self.calls, 'call')}, "
                     f"{_count(self.outputs, 'output')} compared: {self.verdict}")
        return "\n".join(lines)


def _array(code: str, shape: List[int], data: bytearray) -> np.ndarray:
    """A tensor the check hands over, ``data`` a fresh ``bytearray`` of its bytes: a writable
    array over those bytes, no copy (the copy out of the samples was the only one), through the
    one layout check every array passes (:class:`pte_rs.PteError`, never a numpy error)."""
    if not isinstance(data, bytearray):  # immutable bytes: the array gets its own writable copy
        data = bytearray(data)
    dt, dims, _ = _layout("input", len(data), code, shape, None)
    return _view(data, 0, dt, dims, None)


def _from_tagged(v: Tuple[str, Any]) -> Any:
    kind, x = v
    if kind == "tensor":
        return _array(*x)
    if kind == "tensor_list":
        return [_array(*t) for t in x]
    return x


def _tensor_to(a: Any) -> Tuple[str, List[int], bytes]:
    if _is_torch_tensor(a):  # its bytes straight from torch's memory, no numpy copy in between
        a = torch_as_numpy(a)
    code = dtype_code(a)
    if code != "BF16" and a.dtype != DTYPES[code]:
        a = a.astype(DTYPES[code])
    return code, list(a.shape), a.tobytes()


def _to_tagged(v: Any) -> Tuple[str, Any]:
    if isinstance(v, np.ndarray) or _is_torch_tensor(v):
        return ("tensor", _tensor_to(v))
    v = as_value(v)
    if v is None:
        return ("none", None)
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int):
        return ("int", v)
    if isinstance(v, float):
        return ("float", v)
    if isinstance(v, str):
        return ("string", v)
    if isinstance(v, list):
        return ("tensor_list", [_tensor_to(a) for a in v])
    return ("tensor", _tensor_to(v))


@dataclass(frozen=True)
class MatrixReport:
    """Several runners checked on the same sets; the fields of
    ``pte samples check --runner NAME=CMD ... --json``.

    ``runners`` maps each runner's name to its :class:`CheckReport`, in the
    order given (also ``order``); ``sets`` names the sets (``method/set``);
    ``table`` holds one dict per runner and set: ``runner``, ``method``,
    ``set``, ``status`` (``passed``, ``mismatch``, ``runner_failed``,
    ``not_run``), ``failures`` and ``worst`` (the worst failure, as in
    :attr:`CheckReport.failures`, or None). ``verdict`` is the worst runner's.
    """

    verdict: str
    passed: bool
    order: List[str]
    sets: List[str]
    runners: Dict[str, CheckReport]
    table: List[Dict[str, Any]] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """What ``pte samples check`` exits with for this verdict: 0, 1 or 2."""
        return {"passed": 0, "mismatch": 1}.get(self.verdict, 2)

    def to_json(self) -> Dict[str, Any]:
        """The matrix as the CLI's JSON object."""
        j = {k: getattr(self, k) for k in self.__dataclass_fields__}
        j["runners"] = {n: r.to_json() for n, r in self.runners.items()}
        return j

    def __str__(self) -> str:
        lines = [f"{row['runner']} {row['method']}/{row['set']}: {row['status']}"
                 + (f", worst: {row['worst']['message']}" if row.get("worst") else "") for row in self.table]
        lines.append(f"{_count(len(self.order), 'runner')}, {_count(len(self.sets), 'set')}: {self.verdict}")
        return "\n".join(lines)


#: What the native check needs of one runner: fresh(), call(method, tagged inputs) -> tagged
#: outputs, its methods (or None) and its name (or None).
Engine = Tuple[Callable[[], Any], Callable[[str, List[Tuple[str, Any]]], List[Tuple[str, Any]]],
               Optional[List[str]], Optional[str]]


def _engine(runner: Any) -> Engine:
    """The one place a runner object becomes what the native check drives: an
    :class:`pte_rs.runners.InProcess` (or an object whose ``in_process()`` gives one, such as
    :class:`pte_rs.runners.ExecuTorch`) gets its inputs as tensors straight from the samples'
    bytes; any other object with ``fresh()`` and ``call()`` gets numpy arrays and scalars."""
    runner = in_process_of(runner) or runner
    if isinstance(runner, InProcess):
        return runner.fresh, _in_process_call(runner), runner.methods, runner.name
    for needed in ("fresh", "call"):
        if not callable(getattr(runner, needed, None)):
            raise TypeError(f"the runner needs a callable {needed}(): {type(runner).__name__} has none")
    methods = getattr(runner, "methods", None)
    known = methods() if callable(methods) else methods
    name = getattr(runner, "name", None)

    def call(m: str, inputs: List[Tuple[str, Any]]) -> List[Tuple[str, Any]]:
        outs = runner.call(m, [_from_tagged(v) for v in inputs])
        if isinstance(outs, (list, tuple)):
            return [_to_tagged(o) for o in outs]
        return [_to_tagged(outs)]

    return runner.fresh, call, list(known) if known is not None else None, str(name) if name is not None else None


def _in_process_call(runner: "InProcess") -> Callable[[str, List[Tuple[str, Any]]], List[Tuple[str, Any]]]:
    execute = runner.execute
    if runner.tensors == "torch":
        import torch

        from_numpy = torch.from_numpy

        def tensor(code: str, shape: List[int], data: bytearray) -> Any:
            a = _array(code, shape, data)
            if code == "BF16":
                return from_numpy(a.view(np.int16)).view(torch.bfloat16)
            return from_numpy(a)
    else:
        tensor = _array

    def call(m: str, inputs: List[Tuple[str, Any]]) -> List[Tuple[str, Any]]:
        args = [tensor(*x) if kind == "tensor" else [tensor(*t) for t in x] if kind == "tensor_list" else x
                for kind, x in inputs]
        outs = execute(m, args)
        if isinstance(outs, (list, tuple)):
            return [_to_tagged(o) for o in outs]
        return [_to_tagged(outs)]

    return call


def _named_runners(runners: Any) -> Optional[List[Tuple[str, Any]]]:
    """The ``(name, runner)`` pairs of a dict or a list of pairs; None for one runner."""
    if isinstance(runners, dict):
        pairs = list(runners.items())
    elif isinstance(runners, (list, tuple)) and not callable(getattr(runners, "call", None)):
        pairs = []
        for p in runners:
            if not (isinstance(p, (list, tuple)) and len(p) == 2):
                raise TypeError(f"several runners are (name, runner) pairs, not {type(p).__name__}")
            pairs.append((p[0], p[1]))
    else:
        return None
    names = [n for n, _ in pairs]
    for n in names:
        if not isinstance(n, str) or not n:
            raise TypeError(f"a runner's name must be a non-empty str, not {n!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"runner names must differ: {names}")
    return pairs


def verify(source: Union[str, "os.PathLike[str]"], runner: Any, *, method: Optional[str] = None,
           set: Optional[str] = None) -> Union[CheckReport, MatrixReport]:  # noqa: A002 - as in the CLI
    """Replays the samples at ``source`` through ``runner`` and checks every output.

    ``runner`` needs ``fresh()`` (drop all state) and ``call(method, inputs)``
    (numpy arrays, BF16 as :data:`pte_rs._protocol.BF16` words, and Python
    scalars in; the same, or torch tensors, out); ``methods()`` and ``name``
    are used when present. A :class:`pte_rs.runners.InProcess` (and a runner
    whose ``in_process()`` returns one, as :class:`pte_rs.runners.ExecuTorch`
    does) is called without any conversion in between: each input tensor is
    one copy of the recorded bytes, handed to its ``execute`` as a torch
    tensor (or numpy array), and its outputs are read as they come. An
    exception the runner raises ends the check with verdict
    ``runner_failed``, its type and message in the failure
    (``KeyboardInterrupt`` and ``SystemExit`` propagate instead); a runner
    without ``fresh`` and ``call`` raises :class:`TypeError`. Raises
    :class:`pte_rs.PteError` when ``source`` holds no samples to check.

    Several runners, as a dict ``{name: runner}`` or a list of ``(name,
    runner)`` pairs, are checked in turn on the same sets and give a
    :class:`MatrixReport` (``pte samples check --runner NAME=CMD ...``);
    names must be distinct non-empty strings (``TypeError``, ``ValueError``).
    """
    named = _named_runners(runner)
    if named is not None:
        args = [(n, *_engine(r)) for n, r in named]
        j = json.loads(_native.check_samples_matrix(_path(source), args, method, set))
        j["runners"] = {n: CheckReport(**j["runners"][n]) for n in j["order"]}
        return MatrixReport(**j)
    fresh, call, known, name = _engine(runner)
    raw = _native.check_samples(_path(source), fresh, call, known, name, method, set)
    return CheckReport(**json.loads(raw))
