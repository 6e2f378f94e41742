#!/usr/bin/env python3
"""Regenerates docs/verifier.md from the RULES table in crates/pte-file/src/verify/mod.rs.
A test (every_verifier_rule_is_documented) fails when the two disagree."""
import pathlib, re
root = pathlib.Path(__file__).resolve().parent.parent
src = (root / "crates/pte-file/src/verify/mod.rs").read_text()
start = src.index("pub const RULES")
rules = re.findall(r'\(\s*"([a-z_.]+)",\s*"([^"]+)",?\s*\),', src[start:src.index("];", start)])
ptn_src = (root / "crates/pte-ptn/src/verify.rs").read_text()
pstart = ptn_src.index("pub const PTN_RULES")
ptn_rules = re.findall(r'\(\s*"([a-z_.]+)",\s*"([^"]+)",?\s*\),', ptn_src[pstart:ptn_src.index("];", pstart)])
samples_src = (root / "crates/pte-samples/src/error.rs").read_text()
enum_body = samples_src[samples_src.index("pub enum Rule {"):samples_src.index("\n}", samples_src.index("pub enum Rule {"))]
samples_docs = {}
doc = []
for line in enum_body.splitlines()[1:]:
    line = line.strip()
    if line.startswith("///"):
        doc.append(line[3:].strip())
    elif line.endswith(","):
        samples_docs[line[:-1]] = re.sub(r"\[`?([A-Za-z_:]+)`?\]\([^)]*\)", r"`\1`", " ".join(doc))
        doc = []
samples_rules = [(name, samples_docs[variant]) for variant, name in re.findall(r'Rule::(\w+) => "(ptn\.samples\.[a-z-]+)"', samples_src)]
out = """# Verifier rules

`pte verify FILE` (library: `pte_file::verify::verify_bytes`, `verify_ptd_bytes`,
`verify_link`) checks every rule below and reports each violation as
`[rule] message at field.path (byte N)`. Rule names are stable: tools may match
on them (`pte verify --json` gives `{"valid", "violations": [{"rule", "path",
"offset", "message"}]}`). `pte verify PROGRAM.pte --ptd DATA.ptd ...` also runs
the `ptd.*` rules on each data file and the `link.*` rules on the pair.

The letter-number codes refer to the runtime load rules in
`../shared/docs/format-facts.md` §3 and §4 (H = header, P = program data,
M = method, T = tensor, D = tensor data). Where a rule is stricter than the
runtime, its description says so ("3.8" rules are what a correct file
satisfies, not what the runtime checks).

A structural failure (header, identifier, root offset, flatbuffer verifier,
unknown union tag) stops verification: nothing after it can be trusted. All
other rules are checked together, so one run reports every violation.

| rule | what it checks |
| --- | --- |
""" + "".join(f"| `{n}` | {d} |\n" for n, d in rules) + """
## `.ptn` packages

`pte verify PACKAGE.ptn` (library: `pte_ptn::verify::verify_ptn_bytes`) applies
these rules. A container, program, safetensors or aliases failure stops the
run; the cross-reference rules are all reported together.

| rule | what it checks |
| --- | --- |
""" + "".join(f"| `{n}` | {d} |\n" for n, d in ptn_rules) + """
### The samples sidecar

`pte verify` also reads a package's `samples/` sidecar (library:
`pte_samples::check_sidecar`; format in `docs/samples.md`). Reading stops at
the first broken rule; every set naming a method the program lacks is reported.

| rule | what it checks |
| --- | --- |
""" + "".join(f"| `{n}` | {d} |\n" for n, d in samples_rules) + """
## Known differences from the stock runtime

* Strings must be valid UTF-8 (the flatbuffers verifier requires it; the C++
  runtime accepts any bytes in names). Such files fail `flatbuffer.structure`.
* `segment.overlap`, `segment.bounds` against `segment_data_size`,
  `subsegment.offsets`, `header.segment_base`, `header.required`,
  `ptd.duplicate_key`, `ptd.size` and `link.size` are stricter than the
  runtime, which leaves these to its data loader or does not check them.
* `instruction.delegate` is checked at load time here; the runtime only fails
  when the instruction executes.
* Operator availability (kernels registered in a given runtime build) and
  backend availability are not checked: they depend on the runtime, not the file.
"""
(root / "docs/verifier.md").write_text(out)
