"""The CLI and the Python package verify through one library call, so their
verdicts are identical: every rule, path, offset, message, severity and
runtime answer, on every corpus file and on every catalogue mutant. The
summary of every kind is one library type too (``pte::FileSummary``):
Python's ``summary()`` is what ``pte info --json`` prints, and raises
``PteError`` where ``pte info`` exits 2."""

import json
import subprocess

import pytest

import pte_rs
from common import CORPUS, FILES, cli


def cli_verdict(path, ptd=()):
    args = [cli(), "verify", "--json", str(path)]
    for p in ptd:
        args += ["--ptd", str(p)]
    r = subprocess.run(args, capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def classes():
    out = subprocess.run([cli(), "mutate", "--list"], check=True, capture_output=True, text=True).stdout
    return [line.split()[:2] for line in out.splitlines() if line.strip()]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_verdicts_identical(path):
    assert pte_rs.open(path).verify_json() == cli_verdict(path)


def test_linked_verdict_identical():
    program = CORPUS / "external" / "model.pte"
    ptd = [CORPUS / "external" / "_default_external_constant.ptd"]
    got = pte_rs.open(program).verify_json(ptd=ptd)
    assert got == cli_verdict(program, ptd)
    assert got["valid"] and not got["warnings"]
    # alone, the same program needs its data file: a needs.* warning in both
    alone = pte_rs.open(program).verify()
    assert any(w.rule.startswith("needs.") for w in alone.warnings)


def test_data_files_only_link_to_programs():
    ptd = CORPUS / "external" / "_default_external_constant.ptd"
    with pytest.raises(pte_rs.PteError):
        pte_rs.open(ptd).verify(ptd=[ptd])


def test_every_catalogue_mutant_gets_one_verdict(tmp_path):
    kinds = {"pte": ".pte", "ptd": ".ptd", "ptn": ".ptn", "bpte": ".bpte"}
    compared = 0
    for name, kind in classes():
        inputs = [p for p in FILES if p.suffix == kinds.get(kind)]
        for src in inputs:
            out = tmp_path / f"{name}{kinds[kind]}"
            made = subprocess.run([cli(), "mutate", "--rule", name, str(src), str(out)], capture_output=True)
            if made.returncode != 0:
                continue
            try:
                got = pte_rs.open(out).verify_json()
            except pte_rs.PteError:
                # not an ExecuTorch file any more: the CLI refuses it too
                r = subprocess.run([cli(), "verify", "--json", str(out)], capture_output=True, text=True)
                assert r.returncode == 2, name
            else:
                assert got == cli_verdict(out), name
            compared += 1
            break
    assert compared >= 90


PROGRAMS = [p for p in FILES if p.suffix == ".pte"]


def cli_info(path):
    r = subprocess.run([cli(), "info", "--json", str(path)], capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_summary_is_what_info_prints(path):
    # one library type (pte::FileSummary) behind both, for every kind
    f = pte_rs.open(path)
    got = f.summary()
    assert got == cli_info(path)
    assert got["format"] == f.kind
    if f.kind == "pte":
        assert got["methods"]
        assert [m.name for m in f.methods] == [m["name"] for m in got["methods"]]


def _mutants(tmp_path):
    """(class name, path) of one mutant per catalogue class, of the first corpus file of its kind."""
    kinds = {"pte": ".pte", "ptd": ".ptd", "ptn": ".ptn", "bpte": ".bpte"}
    for name, kind in classes():
        src = next((p for p in FILES if p.suffix == kinds.get(kind)), None)
        if src is None:
            continue
        out = tmp_path / f"{name}{kinds[kind]}"
        if subprocess.run([cli(), "mutate", "--rule", name, str(src), str(out)], capture_output=True).returncode:
            continue
        yield name, out


def test_every_catalogue_mutant_gets_the_same_summary(tmp_path):
    compared = refused = 0
    for name, out in _mutants(tmp_path):
        r = subprocess.run([cli(), "info", "--json", str(out)], capture_output=True, text=True)
        try:
            got = pte_rs.open(out).summary()
        except pte_rs.PteError:
            assert r.returncode == 2, name
            refused += 1
        else:
            assert r.returncode in (0, 1), (name, r.stderr)
            assert got == json.loads(r.stdout), name
        compared += 1
    assert compared >= 90 and refused > 0


def test_bundled_program_summary_is_what_info_prints():
    bundles = [p for p in FILES if p.suffix == ".bpte"]
    assert bundles
    for path in bundles:
        assert pte_rs.open(path).program.summary() == cli_info(path)["program"]


def _cli_json(args):
    """(exit code, parsed stdout or None) of ``pte ARGS``."""
    r = subprocess.run([cli(), *args], capture_output=True, text=True)
    return r.returncode, (json.loads(r.stdout) if r.returncode in (0, 1) and r.stdout.strip() else None)


def _same_answers(path):
    """Python's size, memory and operators of ``path`` against the CLI's ``--json``:
    equal documents, and PteError exactly where the CLI exits 2."""
    f = pte_rs.open(path)
    answers = [
        ("size", f.size, ["size", "--json", str(path)], lambda v: v),
        ("memory", f.memory, ["memory", "--json", str(path)], lambda v: v),
        ("ops", f.operators, ["ops", "--json", str(path)],
         lambda v: {k: x for k, x in v["files"][0].items() if k != "file"}),
    ]
    for name, call, args, entry in answers:
        code, doc = _cli_json(args)
        try:
            got = call()
        except pte_rs.PteError:
            assert code == 2, (name, path, code)
            continue
        assert code in (0, 1), (name, path, code)
        assert got == entry(doc), (name, path)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_size_memory_operators_are_what_the_cli_prints(path):
    _same_answers(path)


def test_every_catalogue_mutant_gets_the_same_answers(tmp_path):
    compared = 0
    for _, out in _mutants(tmp_path):
        try:
            pte_rs.open(out)
        except pte_rs.PteError:
            continue  # not an ExecuTorch file any more: compared by the summary test
        _same_answers(out)
        compared += 1
    assert compared >= 90


def _externalize_both(path, tmp):
    """`pte externalize` then `pte internalize` of ``path``, and the same through
    Python: identical bytes at each step, or a refusal on both sides."""
    tmp.mkdir()
    o = subprocess.run([cli(), "externalize", "--name-constants", "const.", str(path),
                        str(tmp / "cli.pte"), str(tmp / "cli.ptd")], capture_output=True, text=True)
    f = pte_rs.open(path)
    if not isinstance(f, pte_rs.Program):
        # a damaged identifier opens for the read verbs only; the command refuses the edit
        assert o.returncode == 2 and "this takes a .pte program" in o.stderr, (path, o.stderr)
        return False
    try:
        f.externalize(tmp / "py.pte", tmp / "py.ptd", name_constants="const.")
    except pte_rs.PteError as e:
        assert o.returncode == 2 and str(e) in o.stderr, (path, str(e), o.stderr)
        return False
    assert o.returncode == 0, (path, o.stderr)
    for name in ("pte", "ptd"):
        assert (tmp / f"py.{name}").read_bytes() == (tmp / f"cli.{name}").read_bytes(), (path, name)
    o = subprocess.run([cli(), "internalize", str(tmp / "cli.pte"), str(tmp / "cli.ptd"), str(tmp / "cli_back.pte")],
                       capture_output=True, text=True)
    assert o.returncode == 0, (path, o.stderr)
    pte_rs.internalize(tmp / "py.pte", [tmp / "py.ptd"], tmp / "py_back.pte")
    assert (tmp / "py_back.pte").read_bytes() == (tmp / "cli_back.pte").read_bytes(), path
    return True


@pytest.mark.parametrize("path", [p for p in FILES if p.suffix == ".pte"], ids=lambda p: str(p.relative_to(CORPUS)))
def test_externalize_and_internalize_write_the_commands_bytes(tmp_path, path):
    _externalize_both(path, tmp_path / "x")


def test_every_program_mutant_externalizes_as_the_command_does(tmp_path):
    compared = 0
    for name, out in _mutants(tmp_path):
        if out.suffix == ".pte":
            _externalize_both(out, tmp_path / f"x-{name}")
            compared += 1
    assert compared >= 30


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_write_summary_streams_what_info_prints(path):
    # the bounded form of summary(): the command's bytes, in pieces
    import io
    buf = io.BytesIO()
    n = pte_rs.open(path).write_summary(buf)
    r = subprocess.run([cli(), "info", "--json", str(path)], capture_output=True)
    assert r.returncode in (0, 1)
    assert buf.getvalue() == r.stdout and n == len(r.stdout)
    assert json.loads(buf.getvalue()) == pte_rs.open(path).summary()


def test_write_summary_raises_the_file_objects_error():
    class Full:
        def write(self, _):
            raise OSError(28, "No space left on device")
    with pytest.raises(OSError, match="No space left"):
        pte_rs.open(CORPUS / "linear" / "model.pte").write_summary(Full())


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_summary_with_tensors_is_what_info_tensors_prints(path):
    r = subprocess.run([cli(), "info", "--tensors", "--json", str(path)], capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr
    assert pte_rs.open(path).summary(tensors=True) == json.loads(r.stdout)
    import io
    buf = io.BytesIO()
    pte_rs.open(path).write_summary(buf, tensors=True)
    assert buf.getvalue().decode() == r.stdout


def test_every_catalogue_mutant_gets_the_same_tensor_table(tmp_path):
    compared = 0
    for name, out in _mutants(tmp_path):
        r = subprocess.run([cli(), "info", "--tensors", "--json", str(out)], capture_output=True, text=True)
        try:
            got = pte_rs.open(out).summary(tensors=True)
        except pte_rs.PteError:
            assert r.returncode == 2, name
        else:
            assert r.returncode in (0, 1), (name, r.stderr)
            assert got == json.loads(r.stdout), name
        compared += 1
    assert compared >= 90
