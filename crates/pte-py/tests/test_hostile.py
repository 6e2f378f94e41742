"""Hostile inputs through every Python entry point (issue #33's sweep): only
PteError (or OSError for the file system) ever comes out, arrays come from
verified shapes only, and a program's tables cost their packed rows, not a
Python object per field, as the `pte` command reads them in place.

The large input is generated here (tests/regressions/README.md describes it);
the damaged files are the regression files, the generator's corruption
classes (`pte mutate`, when the CLI is built) and seeded blind mutants."""

import json
import os
import random
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import pte_rs

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "tests" / "corpus"
REGRESSIONS = sorted(p for p in (ROOT / "tests" / "regressions").glob("*/*") if p.is_file())
ALLOWED = (pte_rs.PteError, OSError)


def cli():
    exe = os.environ.get("PTE_BIN") or str(ROOT / "target" / "debug" / "pte")
    return exe if Path(exe).exists() else None


# ---- a program whose segment table repeats one range -------------------------

def shared_segments(n):
    """The linear program with its segment table replaced by `n` entries all
    naming its one segment (crates/pte-gen's `pte_shared_segments`, made by
    hand so the test needs no Rust build): a new table appended to the
    flatbuffer, each entry its own table (the verifier refuses shared ones),
    the program's `segments` field pointed at it, the header's program size
    and segment base moved past it, the segment data unchanged."""
    d = (CORPUS / "linear" / "model.pte").read_bytes()

    def u(fmt, at):
        return struct.unpack_from(fmt, d, at)[0]

    assert d[8:12] == b"eh00"
    size, base = struct.unpack_from("<QQ", d, 16)
    root = u("<I", 0)
    vtable = root - u("<i", root)
    field = root + u("<H", vtable + 4 + 2 * 4)  # Program.segments is field 4
    old = field + u("<I", field)
    table = old + 4 + u("<I", old + 4)
    tvt = table - u("<i", table)
    tsize = u("<H", tvt + 2)
    step = -(-tsize // 8) * 8
    fb = bytearray(d[:size])
    fb += b"\0" * (-len(fb) % 4)
    at = len(fb)
    first = at + 4 + 4 * n
    first += (table - first) % 8  # the copies keep the original's alignment
    tables = first + step * np.arange(n, dtype=np.int64)
    fb += struct.pack("<I", n) + (tables - (at + 4 + 4 * np.arange(n, dtype=np.int64))).astype("<u4").tobytes()
    fb += b"\0" * (first - len(fb))
    block = np.tile(np.frombuffer(d[table:table + tsize].ljust(step, b"\0"), np.uint8), n).reshape(n, step)
    block[:, :4] = (tables - tvt).astype("<i4").view(np.uint8).reshape(n, 4)
    fb += block.tobytes()
    struct.pack_into("<I", fb, field, at - field)
    new_size = len(fb)
    new_base = -(-new_size // 128) * 128
    fb += b"\0" * (new_base - new_size)
    struct.pack_into("<QQ", fb, 16, new_size, new_base)
    return bytes(fb) + d[base:]


def test_a_shared_segment_table_reads_as_sequences(tmp_path):
    path = tmp_path / "shared.pte"
    path.write_bytes(shared_segments(1000))
    f = pte_rs.open(path)
    assert f.verify().valid
    segs = f.segments
    assert len(segs) == 1000
    first, last = segs[0], segs[-1]
    assert (first.name, last.name, last.info["index"]) == ("0", "999", 999)
    assert first.offset == last.offset and first.size == last.size == 60
    assert [s.name for s in segs[997:]] == ["997", "998", "999"]
    assert sum(1 for _ in segs) == 1000
    with pytest.raises(IndexError):
        segs[1000]
    with pytest.raises(IndexError):
        segs[-1001]
    # constants are unaffected by the table's size and still arrays
    (w, b) = f.constants
    assert w.array().shape == (3, 4) and b.array().shape == (3,)
    assert f.constants == list(f.constants) and len(f.constants + f.mutable_buffers) == 2
    assert dict(f.named_data) == {} and f.delegate_blobs == []
    # the same parts whether mapped or given as bytes
    g = pte_rs.open(path.read_bytes())
    assert [s.offset for s in g.segments[:3]] == [first.offset] * 3
    if cli():
        o = subprocess.run([cli(), "info", "--json", str(path)], capture_output=True, text=True)
        assert o.returncode == 0, o.stderr
        assert len(json.loads(o.stdout)["segments"]) == len(segs)


# Before: `.constants`, `.named_data` and `.segments` each built every part
# as JSON then Python dicts, about 1.5 KiB an entry (1.5 GB resident for a
# million); now a part is read alone and a table is 16 bytes an entry.
RSS_CHILD = textwrap.dedent("""
    import resource, sys, pte_rs
    f = pte_rs.open(sys.argv[1])
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    n = len(f.constants) + len(f.named_data) + len(f.mutable_buffers) + len(f.delegate_blobs)
    segs = f.segments
    n += len(segs)
    segs[0], segs[-1], segs[1000:1010]
    print(n, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) // 1024)
""")


def test_program_tables_cost_their_rows_not_objects(tmp_path):
    n = 100_000
    path = tmp_path / "shared.pte"
    path.write_bytes(shared_segments(n))  # 2 MB
    o = subprocess.run([sys.executable, "-c", RSS_CHILD, str(path)], capture_output=True, text=True, timeout=300)
    assert o.returncode == 0, o.stderr
    count, grown_mib = map(int, o.stdout.split())
    assert count == n + 2
    # 1.6 MB of rows plus the file's pages; the JSON form took about 150 MB here
    assert grown_mib < 48, f"reading the tables grew the process by {grown_mib} MiB"


# ---- arrays only from verified shapes -----------------------------------------

@pytest.mark.parametrize("name", ["pte-constant-sizes-minus-1.pte", "pte-constant-sizes-minus-3-by-4.pte"])
def test_negative_sizes_in_the_regression_files_raise(name):
    # [-1] once gave 60 bytes for a 48-byte constant (reading into the next
    # one); [-3, 4] a numpy ValueError. Both are PteError now.
    f = pte_rs.open(ROOT / "tests" / "regressions" / "out-of-bounds" / name)
    weight = f.constants[0]
    with pytest.raises(pte_rs.PteError) as e:
        weight.array()
    assert e.value.kind == "malformed" and "not all non-negative" in str(e.value)
    with pytest.raises(pte_rs.PteError):
        np.asarray(weight)
    assert len(weight.data) == weight.size == 48
    assert not f.verify().valid


def test_every_layout_source_checks_its_shape():
    # ptd entries, package tensors and samples go through the same check
    bad = {"dtype": "F32", "sizes": [-2, 6]}
    for cls in (pte_rs.Tensor, pte_rs.Blob):
        with pytest.raises(pte_rs.PteError):
            cls("t", 0, 48, dict(bad), b"\0" * 48).array()
    with pytest.raises(pte_rs.PteError):
        pte_rs._value_from({"dtype": "F32", "shape": [-1], "data": b"\0" * 8}, None)
    with pytest.raises(pte_rs.PteError):
        pte_rs._value_from({"dtype": "F32", "shape": [3], "offset": 0, "size": 8}, b"\0" * 16)
    with pytest.raises(pte_rs.PteError):
        pte_rs.Tensor("t", 0, 8, {"dtype": "F32", "sizes": [2], "dim_order": [1]}, b"\0" * 8).array()
    # what a runner is handed from a bundle's cases or a package's samples
    from_tagged = pte_rs.samples._from_tagged
    for shape in ([-1], [3], [-2, -1]):
        with pytest.raises(pte_rs.PteError):
            from_tagged(("tensor", ("F32", shape, b"\0" * 8)))
    a = from_tagged(("tensor", ("F32", [2], b"\0" * 8)))
    assert a.shape == (2,) and a.flags.writeable
    assert pte_rs._protocol.is_bf16(from_tagged(("tensor", ("BF16", [], b"\0" * 2))))


# ---- every entry point over damaged files --------------------------------------

def _entry_points(f, tmp):
    """(name, call) for every entry point of an open file; parts found on
    the way (tensors, blobs, a bundle's program) add theirs."""
    yield "to_json", f.to_json
    yield "verify", f.verify
    yield "verify_json", f.verify_json
    yield "summary", f.summary
    yield "operators", f.operators
    yield "memory", f.memory
    for by in (None, "kind", "tensor", "operator", "delegate"):
        yield f"size({by})", lambda by=by: f.size(by, 3)
    found = []
    if isinstance(f, pte_rs.Program):
        yield "methods", lambda: f.methods
        yield "to_bytes", f.to_bytes
        yield "save", lambda: f.save(tmp / "out.pte", layout="repack", delegates="inline")
        yield "externalize", lambda: f.externalize(tmp / "e.pte", tmp / "e.ptd", name_constants="c")

        def parts():
            found.extend(f.constants)
            found.extend(f.mutable_buffers)
            found.extend(f.named_data.values())
            found.extend(f.delegate_blobs)
            found.extend(f.segments[:20])
        yield "parts", parts
    elif isinstance(f, pte_rs.DataFile):
        yield "entries", lambda: found.extend(f.entries.values())
    elif isinstance(f, pte_rs.Package):
        yield "tensors", lambda: found.extend(f.tensors.values())
        yield "read_samples", f.read_samples
    elif isinstance(f, pte_rs.Bundle):
        yield "program", lambda: found.append(f.program)
    for x in found:
        if isinstance(x, pte_rs.File):
            yield from (("program." + n, c) for n, c in _entry_points(x, tmp))
            continue
        yield f"{x.name!r}.dtype", lambda x=x: x.dtype
        yield f"{x.name!r}.shape", lambda x=x: x.shape
        yield f"{x.name!r}.array", lambda x=x: np.asarray(x)
        yield f"{x.name!r}.tobytes", x.tobytes


def _sweep(label, data, tmp):
    """Every entry point over `data` (as a path and as bytes): the calls that
    raised anything but PteError / OSError."""
    path = tmp / ("input" + Path(label.split()[0]).suffix)
    path.write_bytes(data)
    wrong = []

    def guard(name, call):
        try:
            call()
        except ALLOWED:
            pass
        except Exception as e:  # noqa: BLE001 - the point of the sweep
            wrong.append(f"{label}: {name}: {type(e).__name__}: {e}")

    for source in (path, data):
        try:
            f = pte_rs.open(source)
        except ALLOWED:
            continue
        except Exception as e:  # noqa: BLE001
            wrong.append(f"{label}: open: {type(e).__name__}: {e}")
            continue
        names = iter(_entry_points(f, tmp))
        while True:
            # the generator itself may raise while finding parts
            try:
                name, call = next(names)
            except StopIteration:
                break
            guard(name, call)
    guard("selected_operators", lambda: pte_rs.selected_operators([path]))
    guard("read_samples", lambda: pte_rs.read_samples(path))
    guard("internalize", lambda: pte_rs.internalize(path, [], tmp / "in.pte"))
    return wrong


def _mutate(data, rng):
    """A seeded blind mutant: a few bytes set, words set to extremes, or a cut."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(b))
        r = rng.random()
        if r < 0.6:
            b[at] = rng.randrange(256)
        elif r < 0.85:
            b[at:at + 4] = rng.choice([b"\xff\xff\xff\xff", b"\0\0\0\0", b"\xff\xff\xff\x7f", b"\0\0\0\x80"])
        else:
            del b[max(at, 16):]
    return bytes(b)


def _hostile_inputs(tmp):
    inputs = [(str(p.relative_to(ROOT)), p.read_bytes()) for p in REGRESSIONS]
    bases = [CORPUS / "linear" / "model.pte", CORPUS / "xnnpack_mlp" / "model.pte",
             CORPUS / "mutable_buffer" / "model.pte", CORPUS / "external" / "_default_external_constant.ptd",
             CORPUS / "bundled" / "model.bpte", CORPUS / "native_ptn" / "model.ptn"]
    exe = cli()
    if exe:
        listing = subprocess.run([exe, "mutate", "--list"], capture_output=True, text=True, check=True).stdout
        classes = [line.split()[:2] for line in listing.splitlines() if len(line.split()) >= 2]
        for base in bases:
            kind = base.suffix[1:]
            for name, k in classes:
                if k != kind:
                    continue
                out = tmp / f"mutant.{kind}"
                o = subprocess.run([exe, "mutate", "--rule", name, str(base), str(out)], capture_output=True)
                if o.returncode == 0:
                    inputs.append((f"{base.relative_to(CORPUS)} {name}", out.read_bytes()))
    rng = random.Random(33)
    for i in range(40):
        base = rng.choice(bases)
        inputs.append((f"{base.relative_to(CORPUS)} blind-{i}", _mutate(base.read_bytes(), rng)))
    return inputs


def test_hostile_files_raise_only_pte_error(tmp_path):
    inputs = _hostile_inputs(tmp_path)
    assert len(inputs) >= len(REGRESSIONS) + 40
    wrong = []
    for i, (label, data) in enumerate(inputs):
        work = tmp_path / f"w{i}"
        work.mkdir()
        wrong += _sweep(label, data, work)
    assert not wrong, "\n".join(wrong[:20])
