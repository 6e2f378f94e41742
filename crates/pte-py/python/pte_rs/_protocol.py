"""Values on the wire: the runner protocol (``pte-runner`` version 1) and the
samples set directories (``index.json`` + ``data.safetensors``).

Tensors are numpy arrays. numpy has no bfloat16, so a BF16 tensor is an array
of raw ``uint16`` words whose dtype is :data:`BF16`: ``uint16`` tagged with
``metadata={"dtype": "BF16"}`` (the tag survives reshape, copy and slicing; it
compares equal to ``uint16``). Torch tensors are converted exactly, dtype and
shape, with :func:`to_numpy` and :func:`to_torch`; torch is imported only by
those two, so this module works without it.

Nothing here needs the ``safetensors`` package: the codec below is enough for
the files both sides write (tensors back to back, offsets from the end of the
header).
"""

from __future__ import annotations

import json
import math
import struct
import sys
from typing import Any, BinaryIO, Dict, Iterable, List, Optional, Tuple

import numpy as np

PROTOCOL = "pte-runner"
VERSION = 1

#: BF16 tensors as raw uint16 words, tagged so they are not taken for U16.
BF16 = np.dtype(np.uint16, metadata={"dtype": "BF16"})

#: safetensors codes to numpy dtypes.
DTYPES: Dict[str, np.dtype] = {
    "F64": np.dtype("<f8"), "F32": np.dtype("<f4"), "F16": np.dtype("<f2"), "BF16": BF16,
    "I64": np.dtype("<i8"), "I32": np.dtype("<i4"), "I16": np.dtype("<i2"), "I8": np.dtype("i1"),
    "U8": np.dtype("u1"), "BOOL": np.dtype("?"), "U16": np.dtype("<u2"), "U32": np.dtype("<u4"),
    "U64": np.dtype("<u8"), "C64": np.dtype("<c8"),
}
_CODES = {(dt.kind, dt.itemsize): code for code, dt in DTYPES.items() if code != "BF16"}

#: Longest header line (and safetensors header) read: the index limit of the samples format.
MAX_HEADER = 64 << 20
_I64 = (-(1 << 63), (1 << 63) - 1)
_QUIET_NAN = 0x7FF8000000000000


class ProtocolError(ValueError):
    """A message or value that does not follow the format."""


class StreamError(ProtocolError):
    """The stream itself broke (truncated message): nothing after it can be read."""


# ---- dtypes and torch ------------------------------------------------------

def is_bf16(a: np.ndarray) -> bool:
    """True for an array of BF16 words (dtype :data:`BF16`); False for anything else."""
    if not isinstance(a, np.ndarray):
        return False
    md = a.dtype.metadata
    return bool(md) and md.get("dtype") == "BF16" and a.dtype.kind == "u" and a.dtype.itemsize == 2


def bf16(words: Any) -> np.ndarray:
    """Tags an array of uint16 words (bfloat16 bit patterns) as BF16 (a view when possible)."""
    a = np.asarray(words)
    if a.dtype.kind not in "ui" or a.dtype.itemsize != 2:
        raise TypeError(f"bf16 wants 16-bit words, got {a.dtype}")
    return a.view(BF16)


def dtype_code(a: np.ndarray) -> str:
    """The safetensors code of an array's dtype (BF16 for :data:`BF16` arrays)."""
    dt = a.dtype
    # the common dtypes first, by a lookup: this runs for every tensor of every call
    code = _CODES.get((dt.kind, dt.itemsize)) if dt.metadata is None and dt.fields is None else None
    if code is not None and dt.subdtype is None:
        return code
    if is_bf16(a):
        return "BF16"
    if getattr(dt, "name", "") == "bfloat16":  # ml_dtypes.bfloat16, if the caller uses it
        return "BF16"
    code = _CODES.get((dt.kind, dt.itemsize))
    if code is None or dt.fields is not None or dt.subdtype is not None:
        raise TypeError(f"unsupported tensor dtype {dt} (supported: {', '.join(DTYPES)})")
    return code


def _le_array(a: np.ndarray) -> np.ndarray:
    """The array C-contiguous and little-endian: itself when it already is."""
    a = np.ascontiguousarray(a)
    if a.dtype.byteorder == ">" or (a.dtype.byteorder == "=" and sys.byteorder == "big"):
        a = a.astype(a.dtype.newbyteorder("<"))
    return a


def _is_torch_tensor(x: Any) -> bool:
    t = sys.modules.get("torch")
    return t is not None and isinstance(x, t.Tensor)


def torch_as_numpy(t: Any) -> np.ndarray:
    """A torch tensor's elements as a numpy array, dtype and shape exact (BF16 tagged): a view
    of the tensor's memory (its strides kept) when numpy can wrap it, else a contiguous copy."""
    import torch

    if t.dtype is not torch.bfloat16:
        try:  # a CPU tensor without grad, conjugate or negative bits: numpy wraps its memory as it is
            return t.numpy()
        except (RuntimeError, TypeError):
            pass
    t = t.detach()
    if t.device.type != "cpu":
        t = t.cpu()
    t = t.resolve_conj().resolve_neg().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(BF16)
    try:
        return t.numpy()
    except TypeError as e:
        raise TypeError(f"unsupported tensor dtype {t.dtype}: {e}") from None


def to_numpy(t: Any) -> np.ndarray:
    """A torch tensor as a new numpy array of the same dtype and shape (BF16 tagged)."""
    return torch_as_numpy(t).copy()


def to_torch(a: np.ndarray, copy: bool = True) -> Any:
    """A numpy array as a new torch tensor of the same dtype and shape (BF16 words as bfloat16);
    with ``copy=False``, over the array's own memory when it is contiguous and writable."""
    import torch

    code = dtype_code(a)
    dt = DTYPES[code] if code != "BF16" else a.dtype
    if copy or not (a.flags.c_contiguous and a.flags.writeable and a.dtype == dt):
        a = np.array(a, dtype=dt, order="C", copy=True)
    if code == "BF16":
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


# ---- scalars ---------------------------------------------------------------

def encode_float(x: float) -> Any:
    """A float as the format writes it: a JSON number, or "inf", "-inf", "nan", "nan:0x<bits>"."""
    x = float(x)
    if math.isfinite(x):
        return x
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
    return "nan" if bits == _QUIET_NAN else f"nan:0x{bits:016x}"


def decode_float(v: Any) -> float:
    """The inverse of :func:`encode_float` (NaN payloads kept bit for bit)."""
    if isinstance(v, bool):
        raise ProtocolError(f"float value is a bool: {v!r}")
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        if v == "inf":
            return math.inf
        if v == "-inf":
            return -math.inf
        if v == "nan":
            return struct.unpack("<d", struct.pack("<Q", _QUIET_NAN))[0]
        digits = v[6:]
        if v.startswith("nan:0x") and len(digits) == 16 and all(c in "0123456789abcdef" for c in digits):
            x = struct.unpack("<d", struct.pack("<Q", int(digits, 16)))[0]
            if math.isnan(x):
                return x
    raise ProtocolError(f"bad float value {v!r} (a number, 'inf', '-inf', 'nan' or 'nan:0x' + 16 hex digits)")


# ---- safetensors -----------------------------------------------------------

def encode_safetensors(tensors: Dict[str, np.ndarray]) -> bytearray:
    """A safetensors file with the arrays back to back, in the dict's order: each array's
    bytes copied once, straight into the result."""
    header: Dict[str, Any] = {}
    arrays: List[np.ndarray] = []
    at = 0
    for key, a in tensors.items():
        code, shape = dtype_code(a), [int(s) for s in a.shape]
        a = _le_array(a)  # ndim >= 1: a 0-d array's shape is the one above
        header[key] = {"dtype": code, "shape": shape, "data_offsets": [at, at + a.nbytes]}
        arrays.append(a)
        at += a.nbytes
    h = json.dumps(header, separators=(",", ":"), ensure_ascii=True).encode()
    h += b" " * (-len(h) % 8)
    out = bytearray(struct.pack("<Q", len(h)))
    out += h
    for a in arrays:
        out += memoryview(a.reshape(-1).view(np.uint8))
    return out


def decode_safetensors(data: Any) -> Dict[str, np.ndarray]:
    """The arrays of a safetensors file, each writable: views of ``data`` when it is a
    ``bytearray`` (what :func:`read_message` returns: the payload's one copy), else copies."""
    if len(data) < 8:
        raise ProtocolError(f"safetensors payload of {len(data)} bytes (the header length alone is 8)")
    n = struct.unpack("<Q", data[:8])[0]
    if n > min(len(data) - 8, MAX_HEADER):
        raise ProtocolError(f"safetensors header length {n} exceeds the {len(data)}-byte payload")
    try:
        header = json.loads(data[8:8 + n])
    except (ValueError, UnicodeDecodeError) as e:
        raise ProtocolError(f"safetensors header is not JSON: {e}") from None
    if not isinstance(header, dict):
        raise ProtocolError("safetensors header is not a JSON object")
    body = memoryview(data)[8 + n:]
    out: Dict[str, np.ndarray] = {}
    for key, info in header.items():
        if key == "__metadata__":
            continue
        try:
            code, shape, (b, e) = info["dtype"], info["shape"], info["data_offsets"]
        except (TypeError, KeyError, ValueError):
            raise ProtocolError(f"safetensors entry {key!r} lacks dtype, shape or data_offsets") from None
        dt = DTYPES.get(code)
        if dt is None:
            raise ProtocolError(f"safetensors entry {key!r}: unsupported dtype {code!r}")
        if not isinstance(shape, list) or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0
                                                  for s in shape):
            raise ProtocolError(f"safetensors entry {key!r}: bad shape {shape!r}")
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (b, e)) or not 0 <= b <= e <= len(body):
            raise ProtocolError(f"safetensors entry {key!r}: data_offsets {[b, e]} outside the {len(body)}-byte data")
        count = math.prod(shape)
        if (e - b) != count * dt.itemsize:
            raise ProtocolError(f"safetensors entry {key!r}: {e - b} bytes for {code} {shape}")
        le = np.dtype("<u2") if code == "BF16" else dt
        a = np.frombuffer(body[b:e], dtype=le, count=count)
        if not a.flags.writeable or not a.flags.aligned:
            a = a.copy()
        a = a.reshape(shape)
        out[key] = a.view(BF16) if code == "BF16" else a
    return out


# ---- values ----------------------------------------------------------------

def _tensor_entry(a: np.ndarray, key: str, tensors: Dict[str, np.ndarray]) -> Dict[str, Any]:
    code = dtype_code(a)
    tensors[key] = a
    return {"key": key, "dtype": code, "shape": [int(s) for s in a.shape]}


def as_value(v: Any) -> Any:
    """Normalizes one value: torch tensors to numpy, tuples of tensors to lists; checks the type."""
    if v is None or isinstance(v, (bool, np.bool_, str)):
        return bool(v) if isinstance(v, np.bool_) else v
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v)
    if isinstance(v, np.ndarray):
        return v
    if _is_torch_tensor(v):
        return to_numpy(v)
    if isinstance(v, (list, tuple)):
        items = [as_value(x) for x in v]
        if all(isinstance(x, np.ndarray) for x in items):
            return items
        raise TypeError("a list value must hold tensors only (a tensor list); got "
                        + ", ".join(sorted({type(x).__name__ for x in items if not isinstance(x, np.ndarray)})))
    if hasattr(v, "__array__"):
        return np.asarray(v)
    raise TypeError(f"unsupported value of type {type(v).__name__} (tensors, lists of tensors, int, float, bool, "
                    "str and None are)")


def encode_value(v: Any, key: str, tensors: Dict[str, np.ndarray]) -> Dict[str, Any]:
    """One value as its JSON object; its tensors go into ``tensors`` under ``key`` (``key.<j>`` for list items)."""
    # a torch tensor is only read here: a view of its memory, copied once by the encoder
    v = torch_as_numpy(v) if _is_torch_tensor(v) else as_value(v)
    if v is None:
        return {"type": "none"}
    if isinstance(v, bool):
        return {"type": "bool", "value": v}
    if isinstance(v, int):
        if not _I64[0] <= v <= _I64[1]:
            raise OverflowError(f"int value {v} outside the i64 range")
        return {"type": "int", "value": v}
    if isinstance(v, float):
        return {"type": "float", "value": encode_float(v)}
    if isinstance(v, str):
        return {"type": "string", "value": v}
    if isinstance(v, list):
        return {"type": "tensor_list", "items": [_tensor_entry(a, f"{key}.{j}", tensors) for j, a in enumerate(v)]}
    return {"type": "tensor", **_tensor_entry(v, key, tensors)}


def encode_values(values: Iterable[Any], prefix: str, tensors: Dict[str, np.ndarray]) -> List[Dict[str, Any]]:
    """Values as JSON objects, tensors keyed ``<prefix>.<i>`` (``.<j>`` for list items)."""
    return [encode_value(v, f"{prefix}.{i}", tensors) for i, v in enumerate(values)]


def _tensor_from(d: Any, tensors: Dict[str, np.ndarray], where: str) -> np.ndarray:
    if not isinstance(d, dict) or not isinstance(d.get("key"), str):
        raise ProtocolError(f"{where}: a tensor needs a string 'key'")
    a = tensors.get(d["key"])
    if a is None:
        raise ProtocolError(f"{where}: tensor {d['key']!r} is not in the payload")
    if "dtype" in d and d["dtype"] != dtype_code(a):
        raise ProtocolError(f"{where}: dtype {d['dtype']!r} but the payload stores {dtype_code(a)} under {d['key']!r}")
    if "shape" in d and d["shape"] != list(a.shape):
        raise ProtocolError(f"{where}: shape {d['shape']!r} but the payload stores {list(a.shape)} under {d['key']!r}")
    return a


def decode_value(d: Any, tensors: Dict[str, np.ndarray], where: str = "value") -> Any:
    """One JSON value object as a Python value (arrays for tensors)."""
    if not isinstance(d, dict) or not isinstance(d.get("type"), str):
        raise ProtocolError(f"{where}: a value is an object with a 'type'")
    t = d["type"]
    if t == "tensor":
        return _tensor_from(d, tensors, where)
    if t == "tensor_list":
        items = d.get("items")
        if not isinstance(items, list):
            raise ProtocolError(f"{where}: a tensor_list needs an 'items' array")
        return [_tensor_from(x, tensors, f"{where}.items[{j}]") for j, x in enumerate(items)]
    if t == "none":
        return None
    if "value" not in d:
        raise ProtocolError(f"{where}: a {t} value needs a 'value'")
    v = d["value"]
    if t == "int":
        if isinstance(v, bool) or not isinstance(v, int) or not _I64[0] <= v <= _I64[1]:
            raise ProtocolError(f"{where}: bad int value {v!r}")
        return v
    if t == "float":
        try:
            return decode_float(v)
        except ProtocolError as e:
            raise ProtocolError(f"{where}: {e}") from None
    if t == "bool":
        if not isinstance(v, bool):
            raise ProtocolError(f"{where}: bad bool value {v!r}")
        return v
    if t == "string":
        if not isinstance(v, str):
            raise ProtocolError(f"{where}: bad string value {v!r}")
        return v
    raise ProtocolError(f"{where}: unknown value type {t!r}")


def decode_values(values: Any, tensors: Dict[str, np.ndarray], where: str) -> List[Any]:
    """A JSON array of values as Python values."""
    if not isinstance(values, list):
        raise ProtocolError(f"'{where}' must be an array of values")
    return [decode_value(v, tensors, f"{where}[{i}]") for i, v in enumerate(values)]


# ---- messages --------------------------------------------------------------

def read_message(stream: BinaryIO) -> Optional[Tuple[Dict[str, Any], bytearray]]:
    """The next message (header object, payload as a ``bytearray``), or None at a clean end of input.

    A header line that is not a JSON object raises :class:`ProtocolError` (the
    line is consumed: the next message can still be read). A truncated message
    or an unreadable ``data`` length raises :class:`StreamError`.
    """
    line = stream.readline(MAX_HEADER + 1)
    if not line:
        return None
    if not line.endswith(b"\n"):
        if len(line) > MAX_HEADER:
            raise StreamError(f"header line longer than {MAX_HEADER} bytes")
        raise StreamError("input ended inside a header line (no newline)")
    try:
        header = json.loads(line)
    except (ValueError, UnicodeDecodeError) as e:
        raise ProtocolError(f"header line is not JSON: {e}") from None
    if not isinstance(header, dict):
        raise ProtocolError(f"header line is JSON but not an object: {line[:80]!r}")
    n = header.get("data", 0)
    if n is None:
        n = 0
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise StreamError(f"'data' must be a byte count (a non-negative integer), got {n!r}")
    return header, _read_payload(stream, n)


def _read_payload(stream: BinaryIO, n: int) -> bytearray:
    """Exactly ``n`` bytes read straight into one ``bytearray`` (the payload's one copy: the
    arrays :func:`decode_safetensors` makes of it are views)."""
    payload = bytearray(n)
    view = memoryview(payload)
    readinto = getattr(stream, "readinto", None)
    got = 0
    while got < n:
        if readinto is not None:
            k = readinto(view[got:])
        else:  # a stream without readinto: read, then place
            c = stream.read(n - got)
            k = len(c) if c else 0
            view[got:got + k] = c or b""
        if not k:
            raise StreamError(f"input ended {n - got} bytes short of a {n}-byte payload")
        got += k
    return payload


def write_message(stream: BinaryIO, header: Dict[str, Any], payload: bytes = b"") -> None:
    """Writes one message (adding ``data`` when there is a payload) and flushes."""
    if payload:
        header = {**header, "data": len(payload)}
    line = json.dumps(header, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    stream.write(line.encode() + b"\n")
    if payload:
        stream.write(payload)
    stream.flush()
