"""docs/python.md cannot drift from the package: every ```python block in it
runs, and every class attribute or ``pte_rs.`` name it mentions exists.

The blocks run as the doc says, from the repository root: each in a fresh
namespace, in a scratch directory holding a link to every top-level entry of
the repository (so ``tests/corpus/...`` resolves, and the files a block
writes land in the scratch directory, not in the repository). A block that needs more than pte_rs and numpy says so in
its first line, ``# needs: executorch, torch``; it is compiled always and run
only where those modules import.
"""

import dataclasses
import re
import textwrap
from pathlib import Path
from typing import List, NamedTuple

import pytest

import pte_rs

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "python.md"
NEEDS = re.compile(r"#\s*needs:\s*([\w.]+(?:\s*,\s*[\w.]+)*)\s*")


class Block(NamedTuple):
    line: int  # of the block's first code line in the doc (1-based)
    code: str
    needs: List[str]


def blocks(text: str) -> List[Block]:
    """The ```python blocks of a Markdown text, each with the modules its marker names."""
    lines = text.splitlines()
    out: List[Block] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            end = i + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            assert end < len(lines), f"python.md:{i + 1}: a ```python block is never closed"
            code = textwrap.dedent("\n".join(lines[i + 1:end]))
            m = NEEDS.fullmatch(code.split("\n", 1)[0].strip())
            needs = [n.strip() for n in m.group(1).split(",")] if m else []
            out.append(Block(i + 2, code, needs))
            i = end
        i += 1
    return out


TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = blocks(TEXT)


def test_the_doc_has_blocks_that_run_everywhere():
    # a check that finds nothing to run would pass on any doc
    assert any(not b.needs for b in BLOCKS), "no ```python block of docs/python.md runs without extras"


def test_every_needs_marker_is_a_block_s_first_line():
    # a misspelt or misplaced marker would make its block run (and fail) or be
    # silently treated as needing nothing
    for b in BLOCKS:
        for k, line in enumerate(b.code.splitlines()):
            if re.match(r"\s*#\s*needs\b", line):
                where = f"python.md:{b.line + k}"
                assert k == 0, f"{where}: a needs marker must be the block's first line"
                assert b.needs, f"{where}: malformed marker {line.strip()!r} (# needs: module, module)"


@pytest.mark.parametrize("block", BLOCKS, ids=[f"line{b.line}" for b in BLOCKS])
def test_snippet_runs_from_the_repository_root(block, tmp_path, monkeypatch):
    # blank lines in front so that a traceback names the doc's own line numbers
    code = compile("\n" * (block.line - 1) + block.code, str(DOC), "exec")
    for module in block.needs:
        pytest.importorskip(module, reason=f"the block at python.md:{block.line} needs {module}")
    for entry in ROOT.iterdir():
        (tmp_path / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    monkeypatch.chdir(tmp_path)
    exec(code, {"__name__": "python_md_snippet"})


def test_a_loop_over_entries_as_tensors_fails_the_check(tmp_path, monkeypatch):
    """What the doc once invited (entries and tensors as sequences of Tensors)
    fails here: the check is able to catch that drift."""
    [block] = blocks(textwrap.dedent("""\
        ```python
        import pte_rs
        for t in pte_rs.open("tests/corpus/native_ptn/model.ptn").tensors:
            print(t.name, t.dtype, t.shape)
        ```
        """))
    with pytest.raises(AttributeError, match="'str' object has no attribute 'name'"):
        test_snippet_runs_from_the_repository_root(block, tmp_path, monkeypatch)


# ---- names in the prose ----------------------------------------------------

#: pte_rs's classes by name, for ``Class.attribute`` mentions.
CLASSES = {n: getattr(pte_rs, n) for n in pte_rs.__all__ if isinstance(getattr(pte_rs, n), type)}


def _has(cls: type, name: str) -> bool:
    if hasattr(cls, name):
        return True
    if dataclasses.is_dataclass(cls) and name in {f.name for f in dataclasses.fields(cls)}:
        return True
    # instance attributes: set in __init__ (File.path) or on each error (PteError.kind)
    if issubclass(cls, pte_rs.File):
        return name == "path"
    if issubclass(cls, pte_rs.PteError):
        return name in ("kind", "path", "offset", "message")
    return False


def test_every_class_attribute_the_doc_names_exists():
    found = re.findall(r"`(?:pte_rs\.)?([A-Z]\w*)\.(\w+)", TEXT)
    checked = [(c, a) for c, a in found if c in CLASSES]
    assert len(checked) > 10
    missing = sorted({f"{c}.{a}" for c, a in checked if not _has(CLASSES[c], a)})
    assert not missing, f"docs/python.md names attributes the classes lack: {missing}"


def test_every_pte_rs_name_the_doc_uses_resolves():
    import importlib

    missing = []
    for dotted in sorted(set(re.findall(r"`(pte_rs(?:\.\w+)+)", TEXT))):
        parts = dotted.split(".")
        obj = importlib.import_module(parts[0])
        for i, part in enumerate(parts[1:], 1):
            if not hasattr(obj, part):
                try:
                    obj = importlib.import_module(".".join(parts[:i + 1]))
                    continue
                except ImportError:
                    missing.append(dotted)
                    break
            obj = getattr(obj, part)
    assert not missing, f"docs/python.md names what pte_rs does not have: {missing}"
