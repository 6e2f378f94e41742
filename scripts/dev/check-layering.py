#!/usr/bin/env python3
"""The layering check (issue 46): crates and modules import downwards only.

Crates: no dependency of any kind (normal, dev, build) from a workspace
crate X on a crate that depends on X through normal dependencies, itself
included. A dev-dependency on a crate above is how test support used to
climb the stack (`pte-testkit` building on `pte-report`, whose tests used
the kit); it compiles, but the crates no longer stack, and a crate cannot be
tested or packaged without the ones above it.

Modules: no circle of imports among the sibling modules of one crate (the
modules under one parent, each standing for everything below it). Each
`.rs` file under `src/` is a module; an import is a `crate::`, `super::` or
`self::` path, or a child's name, (in a `use` or in code) naming another
module or an item of one. Naming an ancestor's item (the folder's shared
type, a re-export) and a parent reaching into its children are not circles:
the check is that the parts of each folder stack. `#[cfg(test)]` modules and
`#[path]` files are left out (tests may reach anywhere).

Kinds: no `FileKind` match (`match` arm, `matches!`, `==`, `let` pattern)
in a crate that is not the door (`pte`) or beneath it: per-kind dispatch is
the door's (issue 46).

Reads `cargo metadata --format-version 1 --no-deps` and the sources; exits
1 with the offending edges, circles and matches, 0 with a one-line count.
"""
import json
import os
import re
import subprocess
import sys

# What was there when the check came (issue 46), each to be cut: a new edge
# or circle fails, and so does one of these once gone, so that the list only
# shrinks. Every one is cut now; the list stays, empty, as the place a
# deliberate exception would have to be argued.
KNOWN: set = set()


def crate_edges(meta):
    """(from, to, kind) for every dependency between workspace crates."""
    names = {p["name"] for p in meta["packages"]}
    for p in meta["packages"]:
        for d in p["dependencies"]:
            if d["name"] in names and d.get("path"):
                yield p["name"], d["name"], d["kind"] or "normal"


def crate_problems(meta):
    edges = list(crate_edges(meta))
    normal = {}
    for a, b, kind in edges:
        if kind in ("normal", "build"):
            normal.setdefault(a, set()).add(b)

    def above(x):
        """Every crate that depends on `x` through normal dependencies."""
        out, todo = set(), [x]
        while todo:
            y = todo.pop()
            for a, bs in normal.items():
                if y in bs and a not in out:
                    out.add(a)
                    todo.append(a)
        return out

    bad = []
    for a, b, kind in sorted(set(edges)):
        if a == b:
            bad.append((f"{a} -> {b} ({kind})", "a dependency on itself"))
        elif b in above(a):
            bad.append((f"{a} -> {b} ({kind})", f"{b} depends on {a}"))
    return bad, len(edges)


PATH = re.compile(r"\b(crate|super|self)((?:::\w+)+)")
CHILD = re.compile(r"(?<![:\w])(\w+)::")
USE_TREE = re.compile(r"\buse\s+((?:crate|super|self)(?:::\w+)*)::\{([^;]*)\};", re.S)


def strip(text):
    """The source without comments, strings and `#[cfg(test)]` modules."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i : m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def modules(src):
    """Module path (tuple) -> file, for the files `mod` declarations reach."""
    mods = {}

    def visit(path, file, folder):
        mods[path] = file
        text = strip(open(file, encoding="utf-8").read())
        for m in re.finditer(r"^\s*(#\[path\s*=[^\]]*\]\s*)?(?:pub(?:\([^)]*\))?\s+)?mod\s+(r#)?(\w+)\s*;", text, re.M):
            if m.group(1):
                continue
            name = m.group(3)
            for f, sub in ((os.path.join(folder, name + ".rs"), os.path.join(folder, name)),
                           (os.path.join(folder, name, "mod.rs"), os.path.join(folder, name))):
                if os.path.isfile(f):
                    visit(path + (name,), f, sub)
                    break

    for root in ("lib.rs", "main.rs"):
        f = os.path.join(src, root)
        if os.path.isfile(f):
            visit((), f, src)
            break
    return mods


def module_edges(mods):
    edges = {m: set() for m in mods}
    for m, file in mods.items():
        text = strip(open(file, encoding="utf-8").read())
        paths = [p.group(1) + p.group(2) for p in PATH.finditer(text)]
        # a child module named without `self::` (`file::section`, `use file::x`)
        paths += ["self::" + c.group(1) for c in CHILD.finditer(text) if m + (c.group(1),) in mods]
        for tree in USE_TREE.finditer(text):
            for leaf in re.split(r"[,{}\s]+", tree.group(2)):
                if re.fullmatch(r"\w+", leaf) and leaf not in ("self",):
                    paths.append(tree.group(1) + "::" + leaf)
        for p in paths:
            parts = p.split("::")
            here = list(m)
            while parts and parts[0] in ("crate", "super", "self"):
                head = parts.pop(0)
                if head == "crate":
                    here = []
                elif head == "super":
                    here = here[:-1]
            target = tuple(here)
            for part in parts:
                if target + (part,) in mods:
                    target = target + (part,)
                else:
                    break
            # between siblings only: the modules under one parent, each
            # standing for everything below it. Naming an ancestor is naming
            # the folder's shared items (or a re-export), and a parent
            # reaching into its children is the downward direction.
            common = 0
            while common < min(len(m), len(target)) and m[common] == target[common]:
                common += 1
            if common < len(m) and common < len(target):
                edges[m[: common + 1]].add(target[: common + 1])
    return edges


def circles(edges):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def module_problems(meta):
    bad, count = [], 0
    for p in meta["packages"]:
        src = os.path.join(os.path.dirname(p["manifest_path"]), "src")
        mods = modules(src)
        count += len(mods)
        for comp in circles(module_edges(mods)):
            names = ", ".join("::".join(("crate",) + c) for c in comp)
            bad.append((f"{p['name']}: {names}", "an import circle"))
    return bad, count


# A question "which kind is it" answered by matching `FileKind` (a `match`
# arm, `matches!`, `==`/`!=` (also of `Some(FileKind::..)`), `contains`, a
# `let` pattern): the door (`pte`) decides
# per-kind dispatch and the crates beneath it hold the formats; every other
# crate asks the door (its answers, `pte::KINDS`, `FileKind::is_pte` and its
# siblings). Naming a kind as a value (a catalogue's input, `require_kind`'s
# argument) is not a question.
KIND_MATCH = re.compile(
    r"[=!]=\s*(?:[\w:]+\(\s*)*(?:\w+::)*FileKind::\w+"
    r"|\.contains\(\s*&\s*(?:\w+::)*FileKind::"
    r"|FileKind::\w+\s*[=!]="
    r"|FileKind::\w+[\s)]*(?:=>|\|(?!\|)|\bif\b)"
    r"|matches!\s*\([^;]*?FileKind::"
    r"|\blet\s+(?:\w+::)*FileKind::"
)


def beneath(meta, top):
    """`top` and every workspace crate it depends on through normal dependencies."""
    names = {p["name"] for p in meta["packages"]}
    deps = {p["name"]: {d["name"] for d in p["dependencies"] if d["name"] in names and not d["kind"]}
            for p in meta["packages"]}
    out, todo = set(), [top]
    while todo:
        x = todo.pop()
        if x not in out:
            out.add(x)
            todo.extend(deps.get(x, ()))
    return out


def kind_problems(meta):
    """Each `FileKind` match in a crate above or beside the door."""
    allowed = beneath(meta, "pte")
    bad, count = [], 0
    for p in meta["packages"]:
        if p["name"] in allowed:
            continue
        root = os.path.dirname(p["manifest_path"])
        for sub in ("src", "tests", "examples", "benches"):
            for folder, _, files in os.walk(os.path.join(root, sub)):
                for f in sorted(files):
                    if not f.endswith(".rs"):
                        continue
                    path = os.path.join(folder, f)
                    count += 1
                    text = open(path, encoding="utf-8").read()
                    # comments and strings only: a test module asks the door too
                    text = re.sub(r"//[^\n]*", "", text)
                    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
                    for m in KIND_MATCH.finditer(text):
                        line = text.count("\n", 0, m.start()) + 1
                        rel = os.path.relpath(path, os.path.dirname(os.path.dirname(root)))
                        bad.append((f"{rel}:{line}: {m.group(0).strip()}", "a FileKind match outside the door; ask the door"))
    return bad, count


def main():
    meta = json.loads(subprocess.check_output(["cargo", "metadata", "--format-version", "1", "--no-deps"]))
    crates, edges = crate_problems(meta)
    mods, count = module_problems(meta)
    kinds, scanned = kind_problems(meta)
    found = crates + mods + kinds
    new = [f"{what}: {why}" for what, why in found if what not in KNOWN]
    gone = sorted(KNOWN - {what for what, _ in found})
    if new or gone:
        sys.exit(
            "layering:\n  "
            + "\n  ".join(new + [f"{what}: gone, drop it from KNOWN in {__file__}" for what in gone])
        )
    print(
        f"layering: {edges} dependencies between {len(meta['packages'])} crates and {count} modules, "
        f"none circular but the {len(KNOWN)} known ones; no FileKind match in {scanned} files above the door"
    )


if __name__ == "__main__":
    main()
