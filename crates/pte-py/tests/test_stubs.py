"""The type stubs (python/pte_rs/*.pyi) agree with the modules they describe:
the same public names, the same bases and members of each class, properties
where the module has properties, and the same parameters (names, kinds,
which have defaults) for every function and method."""

import ast
import importlib
import inspect
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import pte_rs

SRC = Path(__file__).resolve().parents[1] / "python" / "pte_rs"
MODULES = {"__init__": "pte_rs", "_native": "pte_rs._native", "fuzz": "pte_rs.fuzz"}
CORPUS = Path(__file__).resolve().parents[3] / "tests" / "corpus"


def public(name: str) -> bool:
    return not name.startswith("_")


def stub(name: str) -> ast.Module:
    return ast.parse((SRC / f"{name}.pyi").read_text(encoding="utf-8"))


def declared(body: List[ast.stmt], imports: bool) -> Dict[str, ast.AST]:
    """What a module's or class's body declares, by name."""
    out: Dict[str, ast.AST] = {}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
        elif isinstance(node, ast.Assign):
            out.update({t.id: node for t in node.targets if isinstance(t, ast.Name)})
        elif imports and isinstance(node, ast.ImportFrom) and node.level > 0:
            # `from . import runner as runner`: a submodule the package exposes
            out.update({a.asname or a.name: node for a in node.names})
    return out


def exported(module) -> set:
    names = getattr(module, "__all__", None)
    return set(names) if names is not None else {n for n in dir(module) if public(n)}


@pytest.mark.parametrize("name", MODULES)
def test_stub_declares_the_public_names_of_its_module(name):
    module = importlib.import_module(MODULES[name])
    in_stub = {n for n in declared(stub(name).body, True) if public(n) or n == "__version__"}
    assert in_stub == exported(module), (
        f"{name}.pyi: missing {sorted(exported(module) - in_stub)}, extra {sorted(in_stub - exported(module))}")


def classes() -> List[Tuple[str, str]]:
    return [(m, c.name) for m in MODULES for c in stub(m).body if isinstance(c, ast.ClassDef)]


#: Attributes the stubs declare that live on instances only (set in __init__ or on
#: each raised error), with how to get an instance to check them on.
def _error():
    try:
        pte_rs.open(b"not an ExecuTorch file")
    except pte_rs.PteError as e:
        return e
    raise AssertionError("no error")


INSTANCES = {
    "PteError": _error,
    "File": lambda: pte_rs.open(CORPUS / "linear" / "model.pte"),
}


@pytest.mark.parametrize("module_name,class_name", classes(), ids=[f"{m}.{c}" for m, c in classes()])
def test_stub_class_agrees_with_the_class(module_name, class_name):
    node = next(c for c in stub(module_name).body if isinstance(c, ast.ClassDef) and c.name == class_name)
    cls = getattr(importlib.import_module(MODULES[module_name]), class_name)
    assert [ast.unparse(b) for b in node.bases] == [b.__name__ for b in cls.__bases__ if b is not object]
    members = {n: v for n, v in declared(node.body, False).items() if public(n)}
    own = {n for n in vars(cls) if public(n)} | {n for n in vars(cls).get("__annotations__", {}) if public(n)}
    instance_only = {n for n, v in members.items() if isinstance(v, ast.AnnAssign)} - own
    if instance_only:
        assert class_name in INSTANCES, f"{class_name}: the stub declares {sorted(instance_only)}, the class lacks them"
        obj = INSTANCES[class_name]()
        assert all(hasattr(obj, n) for n in instance_only), (class_name, sorted(instance_only))
    assert set(members) - instance_only == own, (f"{class_name}: stub lacks {sorted(own - set(members))}, "
                                                 f"class lacks {sorted(set(members) - instance_only - own)}")
    for n, v in members.items():
        if isinstance(v, ast.FunctionDef):
            is_property = any(ast.unparse(d) == "property" for d in v.decorator_list)
            attr = vars(cls)[n]
            runtime_property = isinstance(attr, property) or type(attr).__name__ == "getset_descriptor"
            assert is_property == runtime_property, f"{class_name}.{n}: property in one, method in the other"
            if not is_property:
                same_parameters(f"{class_name}.{n}", v, getattr(cls, n))


def stub_parameters(f: ast.FunctionDef) -> List[Tuple[str, str, bool]]:
    a = f.args
    P = inspect.Parameter
    positional = a.posonlyargs + a.args
    defaults = [False] * (len(positional) - len(a.defaults)) + [True] * len(a.defaults)
    out = [(p.arg, P.POSITIONAL_OR_KEYWORD.name, d) for p, d in zip(positional, defaults)]
    out += [(a.vararg.arg, P.VAR_POSITIONAL.name, False)] if a.vararg else []
    out += [(p.arg, P.KEYWORD_ONLY.name, d is not None) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    out += [(a.kwarg.arg, P.VAR_KEYWORD.name, False)] if a.kwarg else []
    return out


def same_parameters(where: str, node: ast.FunctionDef, obj) -> None:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        pytest.fail(f"{where}: no signature to compare (give the native function a text signature)")
    P = inspect.Parameter
    kind = {P.POSITIONAL_ONLY: P.POSITIONAL_OR_KEYWORD}
    runtime = [(p.name, kind.get(p.kind, p.kind).name, p.default is not P.empty) for p in sig.parameters.values()]
    declared_ = stub_parameters(node)
    if runtime and runtime[-1][1] == "VAR_KEYWORD" and (not declared_ or declared_[-1][1] != "VAR_KEYWORD"):
        # `**options` spelled out in the stub as keyword-only parameters
        runtime = runtime[:-1]
        declared_ = [p for p in declared_ if p[1] != "KEYWORD_ONLY"]
    if declared_ and declared_[0][0] in ("self", "cls") and (not runtime or runtime[0][0] != declared_[0][0]):
        declared_ = declared_[1:]
    assert declared_ == runtime, f"{where}: stub {declared_} != module {runtime}"


@pytest.mark.parametrize("name", MODULES)
def test_stub_functions_have_the_module_s_parameters(name):
    module = importlib.import_module(MODULES[name])
    checked = 0
    for n, v in declared(stub(name).body, False).items():
        if isinstance(v, ast.FunctionDef) and public(n):
            same_parameters(f"{name}.{n}", v, getattr(module, n))
            checked += 1
    assert checked > 0
