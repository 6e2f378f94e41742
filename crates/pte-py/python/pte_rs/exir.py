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
import typing
from dataclasses import fields, is_dataclass
from functools import lru_cache
from typing import Any, Dict, Optional, Tuple, Union, get_args, get_origin, get_type_hints

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


@lru_cache(maxsize=None)
def _plan(cls: type) -> Tuple[Tuple[str, Any, bool, Optional[Tuple[type, ...]]], ...]:
    """Per field of a dataclass: name, element type, optional?, union members."""
    hints = get_type_hints(cls)
    out = []
    for f in fields(cls):
        t = hints[f.name]
        optional = False
        members = None
        if get_origin(t) is Union:
            args = tuple(a for a in get_args(t) if a is not type(None))
            optional = len(args) != len(get_args(t))
            if len(args) == 1:
                t = args[0]
            else:
                members = args
        out.append((f.name, t, optional, members))
    return tuple(out)


def _convert(value: Any, t: Any) -> Any:
    if value is None:
        return None
    if is_dataclass(t):
        return _dataclass(value, t)
    origin = get_origin(t)
    if origin is list or origin is typing.List:
        (item,) = get_args(t)
        if item is int or item is str or item is bool or item is float:
            return list(value)
        return [_convert(v, item) for v in value]
    if t is bytes:
        return bytes(value)
    if isinstance(t, enum.EnumMeta):
        return t[value] if isinstance(value, str) else t(value)
    if t is float and isinstance(value, str):
        return float(value)  # "inf", "nan" as flatc writes them
    if t in (int, str, bool, float):
        return t(value)
    return value


def _dataclass(d: Dict[str, Any], cls: type) -> Any:
    data = {}
    for name, t, _optional, members in _plan(cls):
        value = d.get(name)
        if members is not None:
            kind = d.get(name + "_type")
            match = [m for m in members if getattr(m, "__name__", None) == kind]
            if match:
                data[name] = _convert(value, match[0])
            else:
                # A non-dataclass union (exir's Double: float or str).
                data[name] = value if value is None or type(value) in members else members[0](value)
            continue
        data[name] = _convert(value, t)
    return cls(**data)


def _program_from_json(program_json: Dict[str, Any]) -> Any:
    from executorch.exir.schema import Program

    return _dataclass(program_json, Program)


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
    eh = p._get_extended_header(data)
    if eh and eh.is_valid() and eh.segment_base_offset != 0:
        return p._restore_segments(program=program, segment_data=data[eh.segment_base_offset:])
    return p.PTEFile(program=program, mutable_data=None, named_data=None)


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
