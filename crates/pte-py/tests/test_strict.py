"""The package is exactly as strict as the `pte` command: each writer makes
the command's checks through the same library call and refuses with the
command's words, files that are no ExecuTorch file are named and refused,
and every tensor comes back in one shape, from verified layouts only.

Each test mirrors a test of crates/pte-cli/tests (refusals.rs, samples.rs,
cli.rs) and, where the CLI is built, runs the command on the same input."""

import os
import re
import shutil
import struct
import subprocess
import zipfile

import numpy as np
import pytest

import pte_rs
from common import CORPUS, cli
from pte_rs import recording


def run(*args):
    return subprocess.run([cli(), *map(str, args)], capture_output=True, text=True)


def package(tmp_path):
    path = tmp_path / "model.ptn"
    shutil.copy(CORPUS / "native_ptn" / "model.ptn", path)
    return path


def one_call(x_shape, y_shape, name="shapes"):
    x = np.zeros(x_shape, dtype=np.float32)
    y = np.zeros(y_shape, dtype=np.float32)
    return pte_rs.SampleSet("forward", name, [pte_rs.Sample([pte_rs.Call([x], [y])])])


# ---- samples: the signature check of `pte samples add` ----------------------

def test_write_samples_refuses_a_call_contradicting_the_signature(tmp_path):
    # refusals.rs samples_add_refuses_and_verify_reports_a_call_contradicting_the_signature
    path = package(tmp_path)
    original = path.read_bytes()
    wrong = one_call((1, 16), (1, 8))
    with pytest.raises(pte_rs.PteError) as e:
        pte_rs.write_samples(path, [wrong])
    assert "[signature]" in str(e.value) and "dimension 0 is 1" in str(e.value), str(e.value)
    assert e.value.kind == "signature"
    assert path.read_bytes() == original
    # the command refuses the same set with the same words
    set_dir = tmp_path / "set"
    recording.write_set(wrong, set_dir)
    o = run("samples", "add", path, set_dir)
    assert o.returncode == 2, o.stderr
    assert str(e.value) in o.stderr, (str(e.value), o.stderr)
    assert path.read_bytes() == original
    # the declared shapes are accepted, and the package then verifies
    pte_rs.write_samples(path, [one_call((2, 16), (2, 8))])
    assert pte_rs.open(path).verify().valid


def test_write_samples_refuses_a_wrong_dtype_and_writes_no_set(tmp_path):
    path = package(tmp_path)
    original = path.read_bytes()
    x = np.zeros((2, 16), dtype=np.float64)
    y = np.zeros((2, 8), dtype=np.float32)
    bad = pte_rs.SampleSet("forward", "dtype", [pte_rs.Sample([pte_rs.Call([x], [y])])])
    # one bad set among good ones: nothing at all is written
    with pytest.raises(pte_rs.PteError) as e:
        pte_rs.write_samples(path, [one_call((2, 16), (2, 8), "good"), bad])
    assert "dtype F64 where the method declares F32" in str(e.value), str(e.value)
    assert path.read_bytes() == original


def test_scalar_arrays_are_stored_with_rank_0(tmp_path):
    # A 0-d array is a scalar tensor: shape [], never [1]. The method declares
    # rank 2, so the refusal names the shape that would have been stored.
    path = package(tmp_path)
    x = np.array(1.5, dtype=np.float32)
    y = np.zeros((2, 8), dtype=np.float32)
    s = pte_rs.SampleSet("forward", "scalar", [pte_rs.Sample([pte_rs.Call([x], [y])])])
    with pytest.raises(pte_rs.PteError) as e:
        pte_rs.write_samples(path, [s])
    assert "rank 0 (shape [])" in str(e.value), str(e.value)
    code, shape, data = pte_rs._tensor_to(x)
    assert (code, shape, len(data)) == ("F32", [], 4)
    assert pte_rs._tensor_to(np.float32(2.0))[1] == []


def test_write_samples_without_replace_refuses_a_duplicate(tmp_path):
    # samples.rs: `pte samples add` without --replace refuses a set it has
    path = package(tmp_path)
    pte_rs.write_samples(path, [one_call((2, 16), (2, 8))])
    with pytest.raises(pte_rs.PteError) as e:
        pte_rs.write_samples(path, [one_call((2, 16), (2, 8))], replace=False)
    assert e.value.kind == "duplicate_set"
    pte_rs.write_samples(path, [one_call((2, 16), (2, 8))])


# ---- externalize: nothing to move, naming, aliases ---------------------------

def test_externalize_with_nothing_to_move_raises_and_writes_nothing(tmp_path):
    # refusals.rs externalize_with_nothing_to_move_fails_and_writes_nothing
    out, data = tmp_path / "out.pte", tmp_path / "out.ptd"
    f = pte_rs.open(CORPUS / "linear" / "model.pte")
    with pytest.raises(pte_rs.PteError) as e:
        f.externalize(out, data)
    text = str(e.value)
    assert "nothing to externalize" in text and "no fully qualified name" in text and "name_constants" in text, text
    assert e.value.kind == "invalid_use"
    assert not out.exists() and not data.exists()
    o = run("externalize", CORPUS / "linear" / "model.pte", out, data)
    assert o.returncode == 2
    # the same reason, each in its own spelling of the option
    assert text.replace("name_constants=PREFIX", "--name-constants PREFIX") in o.stderr, (text, o.stderr)
    assert not out.exists() and not data.exists()
    # keys that match nothing
    with pytest.raises(pte_rs.PteError) as e:
        pte_rs.open(CORPUS / "xnnpack_mlp" / "model.pte").externalize(out, data, keys=["nope"])
    assert "matches keys=" in str(e.value), str(e.value)
    assert not out.exists() and not data.exists()


def test_externalize_names_unnamed_constants_on_request(tmp_path):
    # refusals.rs externalize_names_unnamed_constants_on_request
    out, data = tmp_path / "out.pte", tmp_path / "out.ptd"
    f = pte_rs.open(CORPUS / "linear" / "model.pte")
    tensors, named = f.externalize(out, data, name_constants="constant.")
    assert tensors == ["constant.1", "constant.2"] and named == []
    assert sorted(pte_rs.open(data).entries) == ["constant.1", "constant.2"]
    assert pte_rs.open(out).verify(ptd=[data]).valid
    o = run("verify", out, "--ptd", data)
    assert o.returncode == 0, o.stdout
    back = tmp_path / "back.pte"
    pte_rs.internalize(out, [data], back)
    assert [c.tobytes() for c in pte_rs.open(back).constants] == [c.tobytes() for c in f.constants]


def test_externalize_writes_the_bytes_the_command_writes(tmp_path):
    # refusals.rs externalize_keeps_the_input_layout_and_matches_the_door_byte_for_byte:
    # one door, one write policy (the input's layout), one key matcher (globs)
    aligned = tmp_path / "aligned.pte"
    assert run("rewrite", "--segment-alignment", "4096", CORPUS / "linear" / "model.pte", aligned).returncode == 0
    o = run("externalize", "--name-constants", "constant.", "--keys", "constant.[1]", aligned,
            tmp_path / "cli.pte", tmp_path / "cli.ptd")
    assert o.returncode == 0, o.stderr
    tensors, _ = pte_rs.open(aligned).externalize(
        tmp_path / "py.pte", tmp_path / "py.ptd", keys=["constant.[1]"], name_constants="constant.")
    assert tensors == ["constant.1"]
    assert (tmp_path / "py.pte").read_bytes() == (tmp_path / "cli.pte").read_bytes()
    assert (tmp_path / "py.ptd").read_bytes() == (tmp_path / "cli.ptd").read_bytes()
    assert run("internalize", tmp_path / "cli.pte", tmp_path / "cli.ptd", tmp_path / "cli_back.pte").returncode == 0
    pte_rs.internalize(tmp_path / "py.pte", [tmp_path / "py.ptd"], tmp_path / "py_back.pte")
    assert (tmp_path / "py_back.pte").read_bytes() == (tmp_path / "cli_back.pte").read_bytes()


def test_externalize_refuses_aliased_paths(tmp_path):
    src = tmp_path / "model.pte"
    shutil.copy(CORPUS / "xnnpack_mlp" / "model.pte", src)
    original = src.read_bytes()
    f = pte_rs.open(src)
    out, data = tmp_path / "out.pte", tmp_path / "out.ptd"
    with pytest.raises(pte_rs.PteError) as e:
        f.externalize(out, out)
    assert "two outputs name the same file" in str(e.value)
    with pytest.raises(pte_rs.PteError) as e:
        f.externalize(src, data)
    assert "an output names an input" in str(e.value)
    os.symlink(src, tmp_path / "link.ptd")
    with pytest.raises(pte_rs.PteError) as e:
        f.externalize(out, tmp_path / "link.ptd")
    assert "an output names an input" in str(e.value) and "are one file" in str(e.value)
    assert not out.exists() and not data.exists() and src.read_bytes() == original
    # the command refuses the same paths with the same words
    o = run("externalize", src, out, tmp_path / "link.ptd")
    assert o.returncode == 2 and str(e.value) in o.stderr, (str(e.value), o.stderr)


def test_internalize_refuses_an_output_naming_a_data_file(tmp_path):
    out, data = tmp_path / "m.pte", tmp_path / "m.ptd"
    pte_rs.open(CORPUS / "xnnpack_mlp" / "model.pte").externalize(out, data)
    before = data.read_bytes()
    with pytest.raises(pte_rs.PteError) as e:
        pte_rs.internalize(out, [data], data)
    assert "an output names an input" in str(e.value)
    assert data.read_bytes() == before
    # a data file that is not one is named
    with pytest.raises(pte_rs.PteError) as e:
        pte_rs.internalize(out, [CORPUS / "linear" / "model.pte"], tmp_path / "x.pte")
    assert "a .pte program" in str(e.value) and not (tmp_path / "x.pte").exists()
    # in place, as `pte internalize IN DATA IN` does
    pte_rs.internalize(out, [data], out)
    assert pte_rs.open(out).verify().valid


def test_save_in_place_is_allowed_but_not_over_a_bundle(tmp_path):
    # `pte rewrite IN IN` is an in-place edit; a bundle's program is not the bundle
    src = tmp_path / "model.pte"
    shutil.copy(CORPUS / "linear" / "model.pte", src)
    pte_rs.open(src).save(src)
    assert pte_rs.open(src).verify().valid
    bundle = tmp_path / "model.bpte"
    shutil.copy(CORPUS / "bundled" / "model.bpte", bundle)
    before = bundle.read_bytes()
    with pytest.raises(pte_rs.PteError) as e:
        pte_rs.open(bundle).program.save(bundle)
    assert "an output names an input" in str(e.value)
    assert bundle.read_bytes() == before


# ---- open: files that are not ExecuTorch files -------------------------------

def zip_of(names):
    import io
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for n in names:
            z.writestr(n, b"x")
    return buf.getvalue()


def safetensors():
    header = b'{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}'
    return struct.pack("<Q", len(header)) + header + b"\0\0\0\0"


FOREIGN = [
    ("safetensors", safetensors(), "a safetensors file, not an ExecuTorch file"),
    ("random", bytes(range(7, 107)), "not an ExecuTorch file (no known identifier"),
    ("short", b"abc", "too short to be an ExecuTorch file"),
    ("checkpoint", zip_of(["archive/data.pkl", "archive/version"]), "a PyTorch checkpoint"),
    ("zip", zip_of(["a.png"]), "a zip archive without program.ptg, not a .ptn package"),
]


@pytest.mark.parametrize("name,data,words", FOREIGN, ids=[f[0] for f in FOREIGN])
def test_open_names_and_refuses_foreign_files(tmp_path, name, data, words):
    # refusals.rs checkpoints_and_other_zips_are_named_and_skipped_by_folder_walks
    path = tmp_path / f"{name}.bin"
    path.write_bytes(data)
    with pytest.raises(pte_rs.PteError) as e:
        pte_rs.open(path)
    assert words in str(e.value) and str(path) in str(e.value), str(e.value)
    assert e.value.kind == "invalid_use"
    with pytest.raises(pte_rs.PteError) as e2:
        pte_rs.open(data)
    assert words in str(e2.value)
    o = run("info", path)
    assert o.returncode == 2 and words in o.stderr, o.stderr


def test_a_damaged_program_still_opens_to_be_judged(tmp_path):
    data = bytearray((CORPUS / "linear" / "model.pte").read_bytes())
    data[4:8] = b"XT12"
    f = pte_rs.open(bytes(data))
    assert f.kind == "unknown"
    assert not f.verify().valid
    # a damaged package (a package member, no program) is one too
    assert pte_rs.open(zip_of(["program.safetensors"])).kind == "ptn"


# ---- one tensor shape across kinds -------------------------------------------

def check_tensor(t, dtype, shape):
    assert isinstance(t, pte_rs.Tensor)
    assert isinstance(t.name, str) and t.name
    assert t.dtype == dtype and t.shape == shape
    a = t.array()
    assert a.dtype == np.dtype(dtype) and list(a.shape) == shape
    assert t.nbytes == a.nbytes == len(t.data) == len(t.tobytes())
    assert np.array_equal(np.asarray(t), a)


def test_every_kind_hands_out_one_tensor_type():
    p = pte_rs.open(CORPUS / "linear" / "model.pte")
    check_tensor(p.constants[0], "float32", [3, 4])
    assert p.constants[0].name == "1" and p.constants[0].index == 1
    d = pte_rs.open(CORPUS / "external" / "_default_external_constant.ptd")
    check_tensor(d.entries["seq.0.weight"], "float32", [32, 16])
    assert d.entries["seq.0.weight"].info["dim_order"] == [0, 1]
    n = pte_rs.open(CORPUS / "native_ptn" / "model.ptn")
    check_tensor(n.tensors["seq.0.weight"], "float32", [32, 16])
    # opaque blobs are bytes: uint8 of their length
    x = pte_rs.open(CORPUS / "xnnpack_mlp" / "model.pte")
    blob = next(iter(x.named_data.values()))
    check_tensor(blob, "uint8", [blob.size])
    dt = pte_rs.open(CORPUS / "dtypes" / "model.pte")
    names = [c.dtype for c in dt.constants]
    assert "bfloat16" in names and "float16" in names and "bool" in names


# ---- arrays only from verified shapes ----------------------------------------

def with_weight_sizes(packed):
    """The linear program with its weight's sizes vector [3, 4] rewritten."""
    data = (CORPUS / "linear" / "model.pte").read_bytes()
    at = data.find(struct.pack("<iii", 2, 3, 4))
    assert at > 0
    return data[:at] + packed + data[at + 12:]


@pytest.mark.parametrize("sizes", [[-1], [-3, 4]], ids=["minus-1", "minus-3-by-4"])
def test_negative_sizes_raise_instead_of_an_array(sizes, tmp_path):
    packed = struct.pack("<i", len(sizes)) + struct.pack(f"<{len(sizes)}i", *sizes)
    packed += b"\0" * (12 - len(packed))
    f = pte_rs.open(with_weight_sizes(packed))
    c = f.constants[0]
    assert c.tensor["sizes"] == sizes
    with pytest.raises(pte_rs.PteError) as e:
        c.array()
    assert "not all non-negative" in str(e.value) and e.value.kind == "malformed"
    with pytest.raises(pte_rs.PteError):
        c.shape
    # the raw bytes are still there, and verify names the rule
    assert len(c.data) == c.size
    assert "tensor.sizes" in [v.rule for v in f.verify().violations]
    path = tmp_path / "bad.pte"
    path.write_bytes(with_weight_sizes(packed))
    o = run("verify", "--json", path)
    assert o.returncode == 1 and "tensor.sizes" in o.stdout


def test_sizes_that_do_not_cover_the_bytes_raise():
    # [2, 4] float32 is 32 bytes where 48 are stored; huge sizes overflow nothing
    t = pte_rs.Tensor("t", 0, 48, {"dtype": "F32", "sizes": [2, 4]}, b"\0" * 48)
    with pytest.raises(pte_rs.PteError) as e:
        t.array()
    assert "48 are stored" in str(e.value)
    huge = pte_rs.Tensor("t", 0, 48, {"dtype": "F32", "sizes": [2**62, 2**62, 0, 3]}, b"\0" * 48)
    with pytest.raises(pte_rs.PteError):
        huge.array()
    assert pte_rs.Tensor("t", 0, 48, {"dtype": "F32", "sizes": [3, 4]}, b"\0" * 48).array().shape == (3, 4)


# ---- version -----------------------------------------------------------------

def test_version_is_the_crates():
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", pte_rs.__version__)
    o = run("--version")
    assert o.stdout.split() == ["pte", pte_rs.__version__]


#: Layout requests as the command spells them and as Python does: one
#: `LayoutChange` each, so both must write the same bytes.
_REWRITES = [
    ([], {}),
    (["--segment-alignment", "4096"], {"segment_alignment": 4096}),
    (["--tensor-alignment", "64"], {"tensor_alignment": 64}),
    (["--delegate-alignment", "64"], {"delegate_alignment": 64}),
    (["--constant-alignment", "64"], {"constant_repack": 64}),
    (["--layout", "repack"], {"layout": "repack"}),
    (["--delegates", "inline"], {"delegates": "inline"}),
    (["--delegates", "segment"], {"delegates": "segment"}),
    (["--constants", "segment"], {"constants": "segment"}),
    (["--segment-alignment", "128", "--layout", "repack", "--tensor-alignment", "32"],
     {"segment_alignment": 128, "layout": "repack", "tensor_alignment": 32}),
]


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*/*.pte")), ids=lambda p: p.parent.name)
def test_rewrite_writes_the_bytes_the_command_writes(tmp_path, path):
    # one door (`pte::rewrite` from the file, `pte::rewrite_bytes` from
    # Python's bytes), one policy: the same request, the same bytes
    f = pte_rs.open(path)
    for n, (args, options) in enumerate(_REWRITES):
        cli_out, py_out = tmp_path / f"cli{n}.pte", tmp_path / f"py{n}.pte"
        o = run("rewrite", *args, path, cli_out)
        try:
            f.save(py_out, **options)
        except pte_rs.PteError as e:
            assert o.returncode == 2 and str(e) in o.stderr, (args, str(e), o.stderr)
            continue
        assert o.returncode == 0, (args, o.stderr)
        assert py_out.read_bytes() == cli_out.read_bytes(), args
        assert f.to_bytes(**options) == cli_out.read_bytes(), args
