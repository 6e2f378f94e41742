"""`pte ops --yaml` against ExecuTorch's own selected-operators tools.

    python et_ops_compare.py PTE REPO OUT            compare (exit 1 on a difference)
    python et_ops_compare.py PTE REPO OUT --expected DIR
                                                     write gen_oplist's files for the Rust test

Compared, byte for byte:
  * every corpus program (.pte, .bpte): `pte ops --yaml F` and
    `gen_oplist.py --model_file_path F`;
  * programs edited to reach the corners of the YAML writer and of the
    kernel keys (operator names YAML must quote, fold or write as complex
    keys; tensor-list and optional-tensor-list arguments; calls with no
    tensor), each copied to a path that needs quoting too;
  * the union: `pte ops --yaml F1 F2 ...` and `gen_all_oplist.py` over the
    per-file YAMLs, whose `debug_info` names the YAML files (set order):
    mapped back to the programs and sorted, the document is dumped again.
"""
import json
import os
import shutil
import subprocess
import sys

import yaml

PY = sys.executable
PTE, REPO, OUT = sys.argv[1], sys.argv[2], sys.argv[3]


def gen_oplist(model, out, cwd=None):
    subprocess.run([PY, "-m", "executorch.codegen.tools.gen_oplist", "--model_file_path", model,
                    "--output_path", out], check=True, capture_output=True, cwd=cwd)
    return open(out, "rb").read()


def pte_yaml(files, cwd=None):
    r = subprocess.run([PTE, "ops", "--yaml", *files], capture_output=True, cwd=cwd)
    if r.returncode != 0:
        raise RuntimeError(f"pte ops --yaml {files}: exit {r.returncode}: {r.stderr.decode()}")
    return r.stdout


def corpus():
    root = os.path.join(REPO, "tests", "corpus")
    out = []
    for case in sorted(os.listdir(root)):
        for name in ("model.pte", "model.bpte"):
            p = os.path.join(root, case, name)
            if os.path.exists(p):
                out.append(p)
    return out


def summary(doc):
    d = yaml.safe_load(doc)
    return sorted(d["operators"]), d["et_kernel_metadata"]


def compare(label, ours, theirs):
    if ours == theirs:
        print(f"ok    {label}")
        return True
    ok_ops = summary(ours) == summary(theirs)
    print(f"FAIL  {label}: bytes differ (operators and et_kernel_metadata {'agree' if ok_ops else 'DIFFER'})")
    print("  ours:   " + ours.decode()[:2000].replace("\n", "\n          "))
    print("  theirs: " + theirs.decode()[:2000].replace("\n", "\n          "))
    return False


def edited(work):
    """Programs whose names and arguments reach the corners (path, program)."""
    base = os.path.join(REPO, "tests", "corpus", "dtypes", "model.pte")
    x = os.path.join(work, "x")
    subprocess.run([PTE, "extract", base, x, "--force"], check=True, capture_output=True)
    program = json.load(open(os.path.join(x, "program.json")))
    plan = program["execution_plan"][0]
    values = plan["values"]
    n = len(values)
    first_tensor = next(i for i, v in enumerate(values) if v["val_type"] == "Tensor")
    null = next(i for i, v in enumerate(values) if v["val_type"] == "Null")
    values += [
        {"val_type": "TensorList", "val": {"items": [first_tensor, first_tensor]}},
        {"val_type": "TensorList", "val": {"items": []}},
        {"val_type": "OptionalTensorList", "val": {"items": [-1, null, first_tensor]}},
        {"val_type": "OptionalTensorList", "val": {"items": [-1]}},
    ]
    calls = [i["instr_args"] for c in plan["chains"] for i in c["instructions"]
             if i["instr_args_type"] == "KernelCall"]
    calls[0]["args"] = calls[0]["args"] + [n, n + 1, n + 2, n + 3]
    calls[1]["args"] = [null, n + 1, n + 3]  # no tensor at all: key "v1"
    names = ["yes", "1.5", "a: b", "#x", "caf\u00e9::op", "k" * 130, "", "-", "it's", "tab\there",
             "line\nbreak", " lead", "2001-12-14", "x " * 60, "\"q\""]
    for i, name in enumerate(names):
        plan["operators"].append({"name": name, "overload": "out" if i % 2 else ""})
    plan["operators"][2] = {"name": "aten::add", "overload": ""}
    json.dump(program, open(os.path.join(x, "program.json"), "w"))
    out = []
    for i, d in enumerate(["plain", "with space", "yes", "caf\u00e9", "a: b", ("long folder " * 8).strip()]):
        p = os.path.join(work, d, f"edited-{i}.pte")
        os.makedirs(os.path.dirname(p), exist_ok=True)
        subprocess.run([PTE, "pack", x, p], check=True, capture_output=True)
        out.append(p)
    return out


def union(files, work):
    lists = []
    for i, f in enumerate(files):
        y = os.path.join(work, f"u{i}.yaml")
        gen_oplist(f, y)
        lists.append(y)
    listing = os.path.join(work, "list.txt")
    open(listing, "w").write("\n".join(lists))
    d = os.path.join(work, "all")
    os.makedirs(d, exist_ok=True)
    subprocess.run([PY, "-m", "executorch.codegen.tools.gen_all_oplist", "--output_dir", d,
                    "--model_file_list_path", "@" + listing], check=True, capture_output=True)
    doc = yaml.safe_load(open(os.path.join(d, "selected_operators.yaml")))
    back = {os.path.realpath(y): f for y, f in zip(lists, files)}
    for op in doc["operators"].values():
        op["debug_info"] = sorted(back[p] for p in op["debug_info"])
    return yaml.safe_dump(doc, default_flow_style=False).encode()


def write_expected(dest):
    """gen_oplist's file for every corpus program, named as the Rust test
    runs `pte ops` (from crates/pte-cli, paths under corpus/), and the union."""
    cli = os.path.join(REPO, "crates", "pte-cli")
    os.makedirs(dest, exist_ok=True)
    rel = [os.path.relpath(f, os.path.join(REPO, "tests")) for f in corpus()]
    for r in rel:
        name = r.replace("/", ".") + ".yaml"
        gen_oplist(r, os.path.join(dest, name), cwd=cli)
        print("wrote", name)
    work = os.path.join(OUT, "expected-union")
    os.makedirs(work, exist_ok=True)
    cwd = os.getcwd()
    os.chdir(cli)
    try:
        open(os.path.join(dest, "union.yaml"), "wb").write(union(rel, work))
    finally:
        os.chdir(cwd)
    print("wrote union.yaml")


def main():
    if len(sys.argv) > 5 and sys.argv[4] == "--expected":
        write_expected(sys.argv[5])
        return 0
    ok = True
    files = corpus()
    for f in files:
        ok &= compare(os.path.relpath(f, REPO), pte_yaml([f]), gen_oplist(f, os.path.join(OUT, "one.yaml")))
    work = os.path.join(OUT, "edited")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    tricky = edited(work)
    for f in tricky:
        ok &= compare("edited: " + os.path.relpath(f, work), pte_yaml([f]), gen_oplist(f, os.path.join(OUT, "one.yaml")))
    uw = os.path.join(OUT, "union")
    os.makedirs(uw, exist_ok=True)
    ok &= compare(f"union of the {len(files)} corpus programs", pte_yaml(files), union(files, uw))
    ok &= compare(f"union of the corpus and {len(tricky)} edited programs", pte_yaml(files + tricky),
                  union(files + tricky, uw))
    print("et-ops: all agree" if ok else "et-ops: disagreements above")
    return 0 if ok else 1


sys.exit(main())
