"""Exports one model twice with different weights through the stock exporter,
then compares `pte diff --json` with exir's devtools/pte_tool/diff_pte.py on
the pair: every tensor diff_pte names must be named by pte diff with the same
element count, differing count, max and mean absolute difference.

Usage: python et_diff_compare.py PTE_BINARY WORKDIR
"""

import json
import subprocess
import sys

import torch
from executorch.devtools.pte_tool.diff_pte import diff_pte
from executorch.exir import to_edge


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(16, 32)
        self.b = torch.nn.Linear(32, 8)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


def export(seed, path, scale=None):
    torch.manual_seed(seed)
    m = Mlp().eval()
    if scale is not None:
        # perturb part of one weight only, so some elements stay equal
        with torch.no_grad():
            m.a.weight[:4] *= scale
    ep = torch.export.export(m, (torch.randn(2, 16),))
    prog = to_edge(ep).to_executorch()
    with open(path, "wb") as f:
        f.write(prog.buffer)


def main():
    pte, work = sys.argv[1], sys.argv[2]
    pairs = [("seed0", 0, None), ("seed1", 1, None), ("scaled", 0, 1.5)]
    for name, seed, scale in pairs:
        export(seed, f"{work}/{name}.pte", scale)
    failures = 0
    for a, b in [("seed0", "seed1"), ("seed0", "scaled")]:
        pa, pb = f"{work}/{a}.pte", f"{work}/{b}.pte"
        ref = diff_pte(open(pa, "rb").read(), open(pb, "rb").read())
        theirs = {}
        for pd in ref.plan_diffs:
            for td in pd.tensor_diffs:
                if td.bytes_differ:
                    theirs[(pd.plan_index, td.tensor_a.evalue_index)] = (
                        td.num_elements, td.num_differing, td.max_abs_diff, td.mean_abs_diff)
        out = subprocess.run([pte, "diff", "--json", pa, pb], capture_output=True, text=True)
        if out.returncode != 1:
            print(f"FAIL  {a} vs {b}: pte diff exit {out.returncode}: {out.stderr}")
            failures += 1
            continue
        ours = {}
        for d in json.loads(out.stdout)["differences"]:
            t = d.get("tensor")
            if d["category"] != "data" or t is None:
                continue
            # path: execution_plan[P].values[V]
            p = int(d["path"].split("[")[1].split("]")[0])
            v = int(d["path"].split("values[")[1].split("]")[0])
            ours[(p, v)] = (t["num_elements"], t["num_differing"], t["max_abs_diff"], t["mean_abs_diff"])
        if set(ours) != set(theirs):
            print(f"FAIL  {a} vs {b}: tensors named differ: ours {sorted(ours)} diff_pte {sorted(theirs)}")
            failures += 1
            continue
        for k in sorted(theirs):
            n0, d0, m0, a0 = theirs[k]
            n1, d1, m1, a1 = ours[k]
            same = (n0, d0) == (n1, d1) and abs(m0 - m1) <= 1e-12 * max(1, abs(m0)) and abs(a0 - a1) <= 1e-9 * max(1, abs(a0))
            tag = "ok   " if same else "FAIL "
            failures += 0 if same else 1
            print(f"{tag} {a} vs {b} plan {k[0]} value {k[1]}: diff_pte {d0}/{n0} max {m0:.6g} mean {a0:.6g}"
                  f" | pte diff {d1}/{n1} max {m1:.6g} mean {a1:.6g}")
    print(f"diff comparison: {'all agree' if failures == 0 else f'{failures} disagreements'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
