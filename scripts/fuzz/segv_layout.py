"""How small can a program be that still reaches the stock runtime's null
read in BackendDelegate::Init (tests/regressions/out-of-bounds/
pte-delegate-inline-table-absent.pte)? Asked of the z3 SMT solver: the file's
bytes are unknowns, and the constraints are what flatbuffers' C++ verifier
checks (alignment, bounds, forward offsets, vtable sizes, NUL-terminated
strings) plus what the runtime needs to get there, each part found by
dropping it from a hand-built program (docs/fuzzing.md):

* the ET12 identifier, no eh00 header; program version absent or 0, no
  named_data; constant_buffer, backend_delegate_data, segments and
  mutable_data_segments absent or empty vectors;
* a constant segment whose offsets hold exactly one entry;
* one plan with a name, empty values, inputs and outputs, chains and
  operators absent or empty, container_meta_type absent or a string,
  non_const_buffer_sizes of at most one entry, and one delegate;
* the delegate's id the string "XnnpackBackend", compile_specs absent or
  empty, and `processed` absent (route A) or a table naming inline data of a
  program without backend_delegate_data (route B, --route b).

Any table may share a vtable with any other and any object may overlap any
other where the bytes agree: the solver places them. A file shorter than L
that satisfies the constraints also satisfies them padded to L (trailing
bytes are never read), so `unsat` at L means no such file of L bytes or fewer.

    python segv_layout.py L [--route a|b] [--no-meta-type] [--timeout S] [--pin FILE] [--out FILE]

Prints `L sat` (and writes the file with --out), `L unsat` or `L unknown`.
--pin fixes the bytes to FILE's (which must be L long): a check that the
model admits a known reproducer. Needs z3 (`pip install z3-solver`); skips
cleanly without it.
"""

import argparse
import sys

try:
    import z3
except ImportError:
    print("skipped: no z3 (pip install z3-solver)")
    sys.exit(0)

ap = argparse.ArgumentParser()
ap.add_argument("length", type=int)
ap.add_argument("--route", choices=["a", "b"], default="a")
ap.add_argument("--timeout", type=int, default=3600)
ap.add_argument("--pin")
ap.add_argument("--out")
ap.add_argument("--no-meta-type", action="store_true", help="the plan's container_meta_type absent (a smaller search)")
args = ap.parse_args()
L = args.length
s = z3.Tactic("qfbv").solver()
BYTES = [z3.BitVec(f"b{i}", 8) for i in range(L)]


def rd8(p):
    # a byte at a symbolic position, as a chain of choices: pure bit-vectors
    e = z3.BitVecVal(0, 8)
    for i in reversed(range(L)):
        e = z3.If(p == i, BYTES[i], e)
    return e


def rd16(p):
    return z3.ZeroExt(16, z3.Concat(rd8(p + 1), rd8(p)))


def rd32(p):
    return z3.Concat(rd8(p + 3), rd8(p + 2), rd8(p + 1), rd8(p))


def inside(p, n):
    return z3.ULE(p + n, L)


def aligned(p, a):
    return z3.URem(p, a) == 0


def offset_at(fp):
    """The verifier's check of an offset stored at fp; where it points."""
    o = rd32(fp)
    s.add(aligned(fp, 4), inside(fp, 4), o != 0, z3.ULT(o, 1 << 31))
    s.add(z3.ULT(fp + o, L))
    return fp + o


def vector(v, elem, n=None):
    s.add(aligned(v, 4), inside(v, 4))
    ln = rd32(v)
    s.add(z3.ULE(ln, 64), z3.ULE(v + 4 + ln * elem, L))
    if n is not None:
        s.add(ln == n)
    return ln


def string(p, text=None):
    ln = vector(p, 1)
    s.add(z3.ULT(p + 4 + ln, L), rd8(p + 4 + ln) == 0)
    if text is not None:
        s.add(ln == len(text))
        for i, ch in enumerate(text.encode()):
            s.add(rd8(p + 4 + i) == ch)


def table(t):
    """The verifier's check of a table at t; its slot reader."""
    s.add(aligned(t, 4), inside(t, 4))
    vt = t - rd32(t)
    s.add(vt >= 0, vt < L, aligned(vt, 2))
    size = rd16(vt)
    s.add(aligned(size, 2), inside(vt, size))
    return lambda i: z3.If(z3.ULT(z3.BitVecVal(4 + 2 * i, 32), size), rd16(vt + 4 + 2 * i), z3.BitVecVal(0, 32))


def present(t, slot, i):
    s.add(slot(i) != 0)
    return offset_at(t + slot(i))


def absent_or_empty(t, slot, i):
    fp = t + slot(i)
    o = rd32(fp)
    s.add(z3.Or(slot(i) == 0, z3.And(aligned(fp, 4), inside(fp, 4), o != 0, z3.ULT(o, 256), z3.ULT(fp + o, L),
                                     aligned(fp + o, 4), inside(fp + o, 4), rd32(fp + o) == 0)))


def absent_or_string(t, slot, i):
    fp = t + slot(i)
    o = rd32(fp)
    p = fp + o
    n = rd32(p)
    s.add(z3.Or(slot(i) == 0, z3.And(aligned(fp, 4), inside(fp, 4), o != 0, z3.ULT(o, 256), z3.ULT(p, L),
                                     aligned(p, 4), inside(p, 4), z3.ULE(n, 64), z3.ULT(p + 4 + n, L),
                                     rd8(p + 4 + n) == 0)))


def at(x):
    return z3.BitVecVal(x, 32)


for i, ch in enumerate(b"ET12"):
    s.add(rd8(at(4 + i)) == ch)
s.add(z3.Not(z3.And(*[rd8(at(8 + i)) == ch for i, ch in enumerate(b"eh00")])))
program = offset_at(at(0))
p_slot = table(program)
v0 = p_slot(0)
s.add(z3.Or(v0 == 0, z3.And(aligned(program + v0, 4), inside(program + v0, 4), rd32(program + v0) == 0)))
plans = present(program, p_slot, 1)
vector(plans, 4, 1)
plan = offset_at(plans + 4)
for i in (2, 4, 6) if args.route == "b" else (2, 3, 4, 6):
    absent_or_empty(program, p_slot, i)
if args.route == "b":
    s.add(p_slot(3) == 0)
s.add(p_slot(7) == 0)
segment = present(program, p_slot, 5)
c_slot = table(segment)
c0 = c_slot(0)
s.add(z3.Or(c0 == 0, z3.And(aligned(segment + c0, 4), inside(segment + c0, 4))))
vector(present(segment, c_slot, 1), 8, 1)
e_slot = table(plan)
string(present(plan, e_slot, 0))
if args.no_meta_type:
    s.add(e_slot(1) == 0)
else:
    absent_or_string(plan, e_slot, 1)
for i in (2, 3, 4):
    vector(present(plan, e_slot, i), 4, 0)
absent_or_empty(plan, e_slot, 5)
absent_or_empty(plan, e_slot, 6)
delegates = present(plan, e_slot, 7)
vector(delegates, 4, 1)
s.add(z3.ULE(vector(present(plan, e_slot, 8), 8), 1))
delegate = offset_at(delegates + 4)
d_slot = table(delegate)
string(present(delegate, d_slot, 0), "XnnpackBackend")
if args.route == "a":
    s.add(d_slot(1) == 0)
else:
    processed = present(delegate, d_slot, 1)
    r_slot = table(processed)
    l0 = r_slot(0)
    s.add(z3.Or(l0 == 0, z3.And(inside(processed + l0, 1), rd8(processed + l0) == 0)))
    i1 = r_slot(1)
    s.add(z3.Or(i1 == 0, z3.And(aligned(processed + i1, 4), inside(processed + i1, 4))))
absent_or_empty(delegate, d_slot, 2)
if args.pin:
    data = open(args.pin, "rb").read()
    if len(data) != L:
        sys.exit(f"{args.pin} is {len(data)} bytes, not {L}")
    for i, b in enumerate(data):
        s.add(BYTES[i] == b)
s.set("timeout", args.timeout * 1000)
verdict = s.check()
print(L, verdict, flush=True)
if verdict == z3.sat and args.out:
    m = s.model()
    open(args.out, "wb").write(bytes(m.eval(b, model_completion=True).as_long() for b in BYTES))
