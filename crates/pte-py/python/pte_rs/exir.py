"""Drop-in replacements for exir's ``serialize_pte_binary`` and
``deserialize_pte_binary`` (``executorch.exir._serialize._program``).

Needs ``executorch`` installed (it returns exir's own ``PTEFile`` and
``Program`` dataclasses). Reading is done by the Rust reader: the program
table comes back as flatc-style JSON and is turned into exir's dataclasses
here; segments are restored exactly as exir restores them (constants split at
their offsets with padding, delegates moved inline, named data with alignment
1), so the result compares equal to exir's.

Writing: until the workspace has a JSON-to-program writer (``pack``), this
``serialize_pte_binary`` hands the work to exir's own implementation, so its
output is exir's byte for byte. The seam is :func:`_serialize_program`.
"""

from __future__ import annotations

import enum
from dataclasses import fields, is_dataclass
from functools import lru_cache
from typing import Any, Dict, List, Optional, Union, get_args, get_origin, get_type_hints

from . import _native

__all__ = ["deserialize_pte_binary", "serialize_pte_binary"]


def _exir() -> Any:
    from executorch.exir._serialize import _program

    return _program


try:
    # exir's own writer, bound before anyone swaps ours into its module.
    from executorch.exir._serialize._program import serialize_pte_binary as _exir_serialize
except ImportError:  # executorch is optional: only this module needs it
    _exir_serialize = None


_SCALARS = (int, str, bool, float)


@lru_cache(maxsize=None)
def _converter(t: Any) -> Any:
    """A function turning flatc-style JSON into a value of type ``t``, built
    once per type (the type inspection is the slow part in Python)."""
    if isinstance(t, type) and is_dataclass(t):
        return _dataclass_converter(t)
    origin = get_origin(t)
    if origin is list:
        (item,) = get_args(t)
        if item in _SCALARS:
            return list
        conv = _converter(item)
        return lambda v: [conv(x) for x in v]
    if t is bytes:
        return bytes
    if isinstance(t, enum.EnumMeta):
        return lambda v: t[v] if isinstance(v, str) else t(v)
    if t is float:
        return float  # also "inf" and "nan" as flatc writes them
    if t in _SCALARS:
        return t
    return lambda v: v


def _dataclass_converter(cls: type) -> Any:
    hints = get_type_hints(cls)
    plan = []
    for f in fields(cls):
        t = hints[f.name]
        members = None
        if get_origin(t) is Union:
            args = tuple(a for a in get_args(t) if a is not type(None))
            if len(args) == 1:
                t = args[0]
            else:
                members = args
        if members is None:
            plan.append((f.name, _converter(t), None))
        else:
            by_name = {getattr(m, "__name__", ""): _converter(m) for m in members}
            plan.append((f.name, by_name, members))

    def convert(d: Dict[str, Any]) -> Any:
        data = {}
        get = d.get
        for name, conv, members in plan:
            value = get(name)
            if value is None:
                data[name] = None
            elif members is None:
                data[name] = conv(value)
            else:
                c = conv.get(get(name + "_type"))
                if c is not None:
                    data[name] = c(value)
                else:
                    # A non-dataclass union (exir's Double: float or str).
                    data[name] = value if type(value) in members else members[0](value)
        return cls(**data)

    return convert


def _program_from_json(program_json: Dict[str, Any]) -> Any:
    from executorch.exir.schema import Program

    return _converter(Program)(program_json)


def deserialize_pte_binary(program_data: bytes) -> Any:
    """Returns exir's ``PTEFile`` for the given ``.pte`` bytes (exir's signature).

    Raises :class:`pte_rs.PteError` for a malformed program where exir raises
    its own errors.
    """
    p = _exir()
    data = bytes(program_data)
    handle = _native.Handle.from_bytes(data)
    import json

    program = _program_from_json(json.loads(handle.dump_json()))
    # exir's header parser copies everything after byte 8: hand it the header only.
    eh = p._get_extended_header(data[:64])
    if eh and eh.is_valid() and eh.segment_base_offset != 0:
        return _restore_segments(p, program, memoryview(data)[eh.segment_base_offset:])
    return p.PTEFile(program=program, mutable_data=None, named_data=None)


class _Segments:
    """exir's segment list, sliced from a memoryview and copied to bytes only
    when exir's helpers index it (delegates, named data)."""

    def __init__(self, views: List[memoryview]) -> None:
        self.views = views
        self.cache: Dict[int, bytes] = {}

    def __len__(self) -> int:
        return len(self.views)

    def __getitem__(self, i: int) -> bytes:
        b = self.cache.get(i)
        if b is None:
            b = self.cache[i] = bytes(self.views[i])
        return b


def _restore_segments(p: Any, program: Any, segment_data: memoryview) -> Any:
    """exir's ``_restore_segments`` with one copy per buffer instead of three."""
    views = []
    for i, segment in enumerate(program.segments):
        if segment.offset + segment.size > len(segment_data):
            raise ValueError(f"Segment {i} {segment} overflows data length {len(segment_data)}")
        views.append(segment_data[segment.offset:segment.offset + segment.size])
    segments = _Segments(views)
    program = p._restore_delegates(program, segments)

    def buffers(sub: Any) -> Any:
        out = p._restore_constant_segment(sub, views[sub.segment_index])
        for b in out:
            b.storage = bytes(b.storage)
        return out

    if program.constant_segment and len(program.constant_segment.offsets) > 0:
        if program.constant_segment.segment_index >= len(views):
            raise ValueError(
                f"Constant segment index {program.constant_segment.segment_index} >= num segments {len(views)}"
            )
        program.constant_buffer = buffers(program.constant_segment)
        program.constant_segment.segment_index = 0
        program.constant_segment.offsets = []
    mutable_data = None
    if program.mutable_data_segments and len(program.mutable_data_segments) > 0:
        if len(program.mutable_data_segments) > 1:
            raise ValueError("Can't handle more than 1 mutable data segment.")
        index = program.mutable_data_segments[0].segment_index
        if index >= len(views):
            raise ValueError(f"Mutable data segment index {index} >= num segments {len(views)}")
        mutable_data = buffers(program.mutable_data_segments[0])
        program.mutable_data_segments = None
    named_data = p._restore_named_data(program, segments) if program.named_data else None
    program.named_data = []
    program.segments = []
    return p.PTEFile(program=program, mutable_data=mutable_data, named_data=named_data)


def _serialize_program(pte_file: Any, **kwargs: Any) -> Any:
    """The seam for a Rust writer of exir's program JSON; exir's own for now."""
    if _exir_serialize is None:
        raise ImportError("serialize_pte_binary needs executorch installed")
    return _exir_serialize(pte_file, **kwargs)


def serialize_pte_binary(
    pte_file: Any,
    *,
    extract_delegate_segments: bool = False,
    segment_alignment: int = 128,
    constant_tensor_alignment: Optional[int] = None,
    delegate_alignment: Optional[int] = None,
) -> Any:
    """Serializes exir's ``PTEFile`` with exir's keyword arguments; returns a ``Cord``."""
    return _serialize_program(
        pte_file,
        extract_delegate_segments=extract_delegate_segments,
        segment_alignment=segment_alignment,
        constant_tensor_alignment=constant_tensor_alignment,
        delegate_alignment=delegate_alignment,
    )
