"""pytest suite of the pte_rs package: corpus answers equal the CLI's, zero-copy
arrays, round trips, hostile files raising PteError, the samples sidecar."""

import gc
import json
import shutil
import subprocess
import warnings

import numpy as np
import pytest

import pte_rs
from common import CORPUS, REGRESSIONS, FILES, HOSTILE, cli


def test_corpus_found():
    assert len(FILES) >= 15
    assert HOSTILE


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_dump_equals_cli(path):
    out = subprocess.run([cli(), "dump", str(path)], check=True, capture_output=True, text=True).stdout
    f = pte_rs.open(path)
    assert f.to_json() == json.loads(out)
    # The same answer from bytes as from the map.
    assert pte_rs.open(path.read_bytes()).to_json() == f.to_json()


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_verify_equals_cli(path):
    r = subprocess.run([cli(), "verify", "--json", str(path)], capture_output=True, text=True)
    expected = json.loads(r.stdout)
    got = pte_rs.open(path).verify()
    assert got.valid == expected["valid"]
    as_dicts = [{k: v for k, v in vars(x).items() if v is not None or k == "offset"} for x in got.violations]
    assert as_dicts == expected["violations"]
    # needs.* warnings included: one library call answers both
    assert [w.rule for w in got.warnings] == [w["rule"] for w in expected["warnings"]]


@pytest.mark.parametrize("path", [p for p in FILES if p.suffix == ".pte"], ids=lambda p: p.parent.name)
def test_program_views_and_round_trip(path, tmp_path):
    f = pte_rs.open(path)
    assert isinstance(f, pte_rs.Program)
    assert f.methods and all(m.name for m in f.methods)
    for c in f.constants + f.mutable_buffers:
        a = c.array()
        assert a.nbytes <= c.size
        assert bytes(c.data) == f.buffer.tobytes()[c.offset:c.offset + c.size]
    for b in list(f.named_data.values()) + f.delegate_blobs:
        assert len(b.data) == b.size
    # Default options keep the layout, atomically saved; legacy inline
    # constants are moved to a segment (same data, new place).
    out = tmp_path / "copy.pte"
    f.save(out)
    again = pte_rs.open(out)
    if not f.to_json().get("constant_buffer"):
        assert again.to_json() == f.to_json()
    assert [c.array().tobytes() for c in again.constants] == [c.array().tobytes() for c in f.constants]
    assert f.to_bytes() == out.read_bytes()
    repacked = pte_rs.open(f.to_bytes(layout="repack", tensor_alignment=64))
    assert repacked.verify().valid == f.verify().valid
    assert [c.array().tobytes() for c in repacked.constants] == [c.array().tobytes() for c in f.constants]


def test_constant_array_shares_memory_and_outlives_file():
    f = pte_rs.open(CORPUS / "linear" / "model.pte")
    c = f.constants[0]
    a = c.array()
    assert a.dtype == np.float32 and a.shape == (3, 4)
    whole = np.frombuffer(f._buf, dtype=np.uint8)
    assert np.shares_memory(a, whole)
    assert not a.flags.writeable
    # The base chain ends at the map itself, which keeps it alive.
    base = a
    while isinstance(base, np.ndarray):
        base = base.base
    if isinstance(base, memoryview):
        base = base.obj
    assert base is f._buf
    expected = a.copy()
    del f, c, whole, base
    gc.collect()
    assert np.array_equal(a, expected)


def test_dtypes_corpus_arrays_match_nbytes():
    f = pte_rs.open(CORPUS / "dtypes" / "model.pte")
    for c in f.constants:
        if c.tensor and c.tensor["dtype"] != "BFLOAT16":
            assert c.array().nbytes == c.tensor["nbytes"]


def test_ptd_entries_typed():
    d = pte_rs.open(CORPUS / "external" / "_default_external_constant.ptd")
    assert isinstance(d, pte_rs.DataFile)
    arrays = {k: b.array() for k, b in d.entries.items()}
    assert arrays["seq.0.weight"].shape == (32, 16)
    assert arrays["seq.0.weight"].dtype == np.float32


def test_externalize_internalize(tmp_path):
    f = pte_rs.open(CORPUS / "xnnpack_mlp" / "model.pte")
    tensors, named = f.externalize(tmp_path / "m.pte", tmp_path / "m.ptd")
    assert named
    assert pte_rs.open(tmp_path / "m.ptd").entries.keys() >= set(named)
    pte_rs.internalize(tmp_path / "m.pte", [tmp_path / "m.ptd"], tmp_path / "back.pte")
    back = pte_rs.open(tmp_path / "back.pte")
    # Same data, segments placed anew.
    assert {k: bytes(b.data) for k, b in back.named_data.items()} == {k: bytes(b.data) for k, b in f.named_data.items()}
    assert [bytes(c.data) for c in back.constants] == [bytes(c.data) for c in f.constants]
    assert back.verify().valid


def test_bundle_program_view():
    b = pte_rs.open(CORPUS / "bundled" / "model.bpte")
    assert isinstance(b, pte_rs.Bundle)
    p = b.program
    assert p.to_json() == pte_rs.open(CORPUS / "bundled" / "model.pte").to_json()
    assert p.verify().valid


def test_ptn_tensors_and_samples(tmp_path):
    path = tmp_path / "model.ptn"
    shutil.copy(CORPUS / "native_ptn" / "model.ptn", path)
    p = pte_rs.open(path)
    w = p.tensors["seq.0.weight"]
    assert w.shape == [32, 16] and w.dtype == "float32" and w.array().shape == (32, 16)
    # the method's declared signature: one [2, 16] input, one [2, 8] output
    x = np.arange(32, dtype=np.float32).reshape(2, 16)
    y = np.ones((2, 8), dtype=np.float32)
    sets = [pte_rs.SampleSet("forward", "smoke", [pte_rs.Sample([pte_rs.Call([x], [y])])])]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pte_rs.write_samples(path, sets) == []
    back = pte_rs.read_samples(path)
    assert len(back) == 1 and back[0].method == "forward" and back[0].name == "smoke"
    call = back[0].samples[0].calls[0]
    assert np.array_equal(call.inputs[0], x) and np.array_equal(call.outputs[0], y)
    assert pte_rs.open(path).verify().valid


def test_loose_tolerance_warns(tmp_path):
    path = tmp_path / "model.ptn"
    shutil.copy(CORPUS / "native_ptn" / "model.ptn", path)
    # the shapes the method declares: a contradicting set is refused before any warning
    x = np.zeros((2, 16), dtype=np.float32)
    y = np.zeros((2, 8), dtype=np.float32)
    sets = [pte_rs.SampleSet("forward", "loose", [pte_rs.Sample([pte_rs.Call([x], [y])])], tolerance=(1.0, 1.0))]
    with pytest.warns(pte_rs.SamplesWarning):
        found = pte_rs.write_samples(path, sets)
    assert found


def test_samples_unknown_method_raises(tmp_path):
    path = tmp_path / "model.ptn"
    shutil.copy(CORPUS / "native_ptn" / "model.ptn", path)
    sets = [pte_rs.SampleSet("nope", "s", [pte_rs.Sample([pte_rs.Call([], [])])])]
    with pytest.raises(pte_rs.PteError) as e:
        pte_rs.write_samples(path, sets)
    assert e.value.kind


def test_error_carries_kind_path_offset(tmp_path):
    data = bytearray((CORPUS / "linear" / "model.pte").read_bytes())
    bad = tmp_path / "bad.pte"
    bad.write_bytes(bytes(data[:100]))
    with pytest.raises(pte_rs.PteError) as e:
        pte_rs.open(bad).methods
    assert e.value.kind == "malformed"
    assert isinstance(e.value.path, str)
    assert str(bad) in str(e.value)
    with pytest.raises(pte_rs.PteError) as e:
        pte_rs.open(tmp_path / "missing.pte")
    assert e.value.kind == "io" and e.value.offset is None


def test_bad_option_raises():
    f = pte_rs.open(CORPUS / "linear" / "model.pte")
    with pytest.raises(pte_rs.PteError) as e:
        f.to_bytes(tensor_alignment=14)
    assert e.value.kind == "invalid_use"
    with pytest.raises(TypeError):
        f.to_bytes(alignment=16)


@pytest.mark.parametrize("path", HOSTILE, ids=lambda p: str(p.relative_to(REGRESSIONS)))
def test_hostile_files_raise_typed_errors(path):
    try:
        f = pte_rs.open(path)
    except pte_rs.PteError:
        return
    f.verify()
    for view in ("to_json", "methods", "constants", "entries", "tensors", "program"):
        try:
            attr = getattr(f, view, None)
            if callable(attr):
                attr()
        except pte_rs.PteError as e:
            assert e.kind in ("malformed", "unsupported", "limit_exceeded", "invalid_use", "io")
