//! Which operators and delegates each method of a program calls, and the
//! selected-operators file ExecuTorch's selective build reads.
//!
//! A method's operator table lists every kernel it may call, with its
//! overload (`aten::add` + `out`); its kernel-call instructions say which
//! one each call runs, and its delegate-call instructions which backend.
//! For each kernel call the dtype and dim order of every tensor argument
//! form a *kernel key* (`v1/6;0,1|6;0,1|6;0,1|6;0,1`: scalar type number,
//! then dim order, per tensor), the signature a dtype-selective build keeps
//! a kernel specialization for.
//!
//! The analysis reads the zero-copy views of the verified flatbuffer
//! ([`pte_schema::ProgramView`]); it never decodes the owned model, and the
//! text it builds for kernel keys is bounded by the size of the program, so
//! a small hostile file cannot make it allocate much. An index an
//! instruction holds that points nowhere is an error naming the
//! instruction.
//!
//! [`OperatorUnion`] merges the programs of many files and writes them in
//! the YAML layout of ExecuTorch's `gen_oplist.py` ([`OperatorUnion::to_yaml`]).
//!
//! ```
//! let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
//! let ops = pte_analysis::operators::of_program(&bytes)?;
//! let forward = &ops.methods[0];
//! assert_eq!(forward.name.as_deref(), Some("forward"));
//! assert_eq!((forward.operators[0].name.as_str(), forward.operators[0].overload.as_str()), ("aten::add", "out"));
//! assert_eq!(forward.operators[0].calls, 1);
//! assert!(forward.operators[0].kernel_keys.contains("v1/6;0,1|6;0,1|6;0,1|6;0,1"));
//! # Ok::<(), pte_file::Error>(())
//! ```

pub mod runtimes;
mod yaml;

use std::collections::{BTreeMap, BTreeSet};

use pte_schema::native::NativeProgramView;
use pte_schema::{Error, ErrorKind, InstructionRef, Limits, List, PlanView, ProgramView, Result, TensorView, ValueRef};
use serde::Serialize;

/// Kernel-key text the analysis may build per byte of program (on top of
/// [`KEY_TEXT_FLOOR`]): a real program builds about one byte of key per
/// byte of instructions, a hostile one pointing every argument of every
/// call at one tensor of large rank would build far more.
const KEY_TEXT_PER_BYTE: usize = 16;

/// Kernel-key text any program may build, whatever its size.
const KEY_TEXT_FLOOR: usize = 1 << 20;

/// The operators and delegates of every method of one program.
///
/// ```
/// let ops = pte_analysis::operators::ProgramOperators::default();
/// assert!(ops.methods.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ProgramOperators {
    /// One entry per method, in the program's order.
    pub methods: Vec<MethodOperators>,
}

/// What one method calls.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
/// let m = &pte_analysis::operators::of_program(&bytes)?.methods[0];
/// assert!(m.operators.is_empty());
/// assert_eq!((m.delegates[0].id.as_str(), m.delegates[0].calls), ("XnnpackBackend", 1));
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MethodOperators {
    /// The method name (`None` when the program leaves it out).
    pub name: Option<String>,
    /// Every operator of the method's table, in table order (an entry
    /// listed twice counted once), with the calls made to it.
    pub operators: Vec<OperatorUse>,
    /// Every backend of the method's delegate table, in table order (two
    /// delegates of one backend counted together), with the calls made to it.
    pub delegates: Vec<DelegateUse>,
}

/// One operator of a method and how it is called.
///
/// ```
/// let op = pte_analysis::operators::OperatorUse { name: "aten::copy_".into(), ..Default::default() };
/// assert_eq!(op.full_name(), "aten::copy_");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OperatorUse {
    /// Namespace and name (`aten::add`); empty when the program leaves it out.
    pub name: String,
    /// The overload (`out`); empty for the default overload.
    pub overload: String,
    /// Kernel-call instructions running it.
    pub calls: u64,
    /// The kernel key of each distinct call signature, sorted (see the
    /// module documentation); empty for a native graph, which has none.
    pub kernel_keys: BTreeSet<String>,
}

impl OperatorUse {
    /// The name the runtime looks the kernel up by: `name.overload`, or
    /// `name` alone when the overload is empty.
    ///
    /// ```
    /// let op = pte_analysis::operators::OperatorUse { name: "aten::add".into(), overload: "out".into(), ..Default::default() };
    /// assert_eq!(op.full_name(), "aten::add.out");
    /// ```
    pub fn full_name(&self) -> String {
        full_name(&self.name, &self.overload)
    }
}

/// One backend a method delegates to.
///
/// ```
/// let d = pte_analysis::operators::DelegateUse { id: "XnnpackBackend".into(), calls: 2 };
/// assert_eq!(d.calls, 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DelegateUse {
    /// The backend id (`XnnpackBackend`); empty when the program leaves it out.
    pub id: String,
    /// Delegate-call instructions running one of its delegates.
    pub calls: u64,
}

fn full_name(name: &str, overload: &str) -> String {
    if overload.is_empty() {
        name.to_string()
    } else {
        format!("{name}.{overload}")
    }
}

/// The operators of a `.pte` file (its bytes, extended header and all).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("multi_method/model.pte"))?;
/// let ops = pte_analysis::operators::of_program(&bytes)?;
/// assert_eq!(ops.methods.len(), 2);
/// assert!(pte_analysis::operators::of_program(b"not a program").is_err());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn of_program(bytes: &[u8]) -> Result<ProgramOperators> {
    let (_, region) = pte_file::program_region(bytes)?;
    let view = ProgramView::new(region, &Limits::default())?;
    let budget = region.len().saturating_mul(KEY_TEXT_PER_BYTE).saturating_add(KEY_TEXT_FLOOR);
    of_view(&view, budget)
}

/// The operators of the program a `.bpte` bundle embeds.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
/// let ops = pte_analysis::operators::of_bundle(&bytes)?;
/// assert_eq!(ops.methods[0].operators.len(), 3);
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn of_bundle(bytes: &[u8]) -> Result<ProgramOperators> {
    let bundle = pte_schema::bundled::decode_bundled_program(bytes, &Limits::default())?;
    let program = bundle
        .program
        .ok_or_else(|| Error::new(ErrorKind::Malformed, "the bundle has no embedded program").at_path("program"))?;
    of_program(&program).map_err(|e| e.within("program"))
}

/// The operators of a native program (the `program.ptg` member of a `.ptn`
/// package): each operator call of a method's graph, subgraphs included,
/// by its target. A target `torch.ops.NS.OP.OVERLOAD` is read as operator
/// `NS::OP` with overload `OVERLOAD`; any other target is the name with an
/// empty overload. A native graph has no kernel calls to specialize, so
/// kernel keys are empty, and no delegates.
///
/// ```
/// use pte_schema::native::*;
/// let mut m = NativeMethod::named("forward");
/// m.graph.nodes.push(Node { name: "y".into(), target: Some("torch.ops.aten.relu.default".into()), ..Default::default() });
/// let bytes = encode_native_program(&NativeProgram { version: None, methods: vec![m] })?;
/// let ops = pte_analysis::operators::of_native(&bytes)?;
/// let relu = &ops.methods[0].operators[0];
/// assert_eq!((relu.name.as_str(), relu.overload.as_str(), relu.calls), ("aten::relu", "default", 1));
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn of_native(program_ptg: &[u8]) -> Result<ProgramOperators> {
    let view = NativeProgramView::new(program_ptg, &Limits::default())?;
    let mut methods = Vec::with_capacity(view.method_count());
    for (i, method) in (0..view.method_count()).filter_map(|i| Some((i, view.method(i)?))) {
        let mut targets: Vec<Option<&str>> = vec![];
        method.visit_calls(&mut |t| targets.push(t)).map_err(|e| e.within(&format!("methods[{i}]")))?;
        let mut operators: Vec<OperatorUse> = vec![];
        let mut at: BTreeMap<&str, usize> = BTreeMap::new();
        for t in targets {
            let t = t.unwrap_or("");
            let slot = *at.entry(t).or_insert_with(|| {
                let (name, overload) = split_target(t);
                operators.push(OperatorUse { name, overload, calls: 0, kernel_keys: BTreeSet::new() });
                operators.len().saturating_sub(1)
            });
            if let Some(op) = operators.get_mut(slot) {
                op.calls = op.calls.saturating_add(1);
            }
        }
        methods.push(MethodOperators { name: Some(method.name().to_string()), operators, delegates: vec![] });
    }
    Ok(ProgramOperators { methods })
}

/// `torch.ops.aten.linear.default` as (`aten::linear`, `default`).
fn split_target(t: &str) -> (String, String) {
    let parts: Vec<&str> = t.strip_prefix("torch.ops.").map(|r| r.split('.').collect()).unwrap_or_default();
    match parts.as_slice() {
        [ns, op, overload] if !ns.is_empty() && !op.is_empty() && !overload.is_empty() => {
            (format!("{ns}::{op}"), (*overload).to_string())
        }
        _ => (t.to_string(), String::new()),
    }
}

/// The analysis over a verified program; `budget` bounds the kernel-key text.
fn of_view(view: &ProgramView<'_>, mut budget: usize) -> Result<ProgramOperators> {
    let mut methods = Vec::with_capacity(view.plan_count());
    for p in 0..view.plan_count() {
        let Some(plan) = view.plan(p) else { continue };
        methods.push(method(&plan, p, &mut budget)?);
    }
    Ok(ProgramOperators { methods })
}

fn method(plan: &PlanView<'_>, p: usize, budget: &mut usize) -> Result<MethodOperators> {
    let n_ops = plan.operator_count();
    let n_delegates = plan.delegates().map_or(0, |d| d.len());
    let mut op_calls = vec![0u64; n_ops];
    let mut op_keys: Vec<BTreeSet<String>> = vec![BTreeSet::new(); n_ops];
    let mut delegate_calls = vec![0u64; n_delegates];
    let mut key = String::new();
    for (c, chain) in plan.chains().into_iter().flatten().enumerate() {
        for (k, instruction) in chain.instructions().into_iter().flatten().enumerate() {
            let at = || format!("execution_plan[{p}].chains[{c}].instructions[{k}]");
            match instruction {
                InstructionRef::KernelCall { op_index, args } => {
                    let i = index(op_index, n_ops)
                        .ok_or_else(|| bad(at(), format!("op_index {op_index} is not one of the {n_ops} operators")))?;
                    kernel_key(&mut key, plan, args, budget).map_err(|e| e.within(&at()))?;
                    if let (Some(calls), Some(keys)) = (op_calls.get_mut(i), op_keys.get_mut(i)) {
                        *calls = calls.saturating_add(1);
                        // most calls repeat a key already seen: allocate only for new ones
                        if !keys.contains(&key) {
                            keys.insert(key.clone());
                        }
                    }
                }
                InstructionRef::DelegateCall { delegate_index, .. } => {
                    let i = index(delegate_index, n_delegates).ok_or_else(|| {
                        bad(at(), format!("delegate_index {delegate_index} is not one of the {n_delegates} delegates"))
                    })?;
                    if let Some(calls) = delegate_calls.get_mut(i) {
                        *calls = calls.saturating_add(1);
                    }
                }
                _ => {}
            }
        }
    }
    let mut operators: Vec<OperatorUse> = vec![];
    let mut seen: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for (i, (calls, keys)) in op_calls.into_iter().zip(op_keys).enumerate() {
        let (name, overload) = plan.operator(i).unwrap_or_default();
        let (name, overload) = (name.unwrap_or(""), overload.unwrap_or(""));
        match seen.get(&(name, overload)).and_then(|&j| operators.get_mut(j)) {
            Some(op) => {
                op.calls = op.calls.saturating_add(calls);
                op.kernel_keys.extend(keys);
            }
            None => {
                seen.insert((name, overload), operators.len());
                operators.push(OperatorUse {
                    name: name.to_string(),
                    overload: overload.to_string(),
                    calls,
                    kernel_keys: keys,
                });
            }
        }
    }
    let mut delegates: Vec<DelegateUse> = vec![];
    for (d, calls) in plan.delegates().into_iter().flatten().zip(delegate_calls) {
        let id = d.id().unwrap_or("");
        match delegates.iter_mut().find(|x| x.id == id) {
            Some(x) => x.calls = x.calls.saturating_add(calls),
            None => delegates.push(DelegateUse { id: id.to_string(), calls }),
        }
    }
    Ok(MethodOperators { name: plan.name().map(str::to_string), operators, delegates })
}

fn index(i: i32, n: usize) -> Option<usize> {
    usize::try_from(i).ok().filter(|&i| i < n)
}

fn bad(path: String, message: String) -> Error {
    Error::new(ErrorKind::Malformed, message).at_path(path)
}

/// The kernel key of one call: `v1/`, then `dtype;dim,order|` for each
/// argument that is a tensor, a non-empty tensor list (its first tensor
/// speaks for it) or an optional tensor list holding a tensor (its first
/// one), the last separator dropped (`v1` for a call with no tensor).
fn kernel_key(key: &mut String, plan: &PlanView<'_>, args: Option<List<'_, i32>>, budget: &mut usize) -> Result<()> {
    key.clear();
    key.push_str("v1/");
    for (a, arg) in args.iter().flat_map(|l| l.iter()).enumerate() {
        let at = || format!("instr_args.args[{a}]");
        match value(plan, arg).map_err(|e| e.at_path(at()))? {
            ValueRef::Tensor(t) => push_tensor(key, t, budget)?,
            ValueRef::TensorList(items) => {
                let Some(first) = items.and_then(|l| l.get(0)) else { continue };
                match value(plan, first).map_err(|e| e.at_path(at()))? {
                    ValueRef::Tensor(t) => push_tensor(key, t, budget)?,
                    _ => {
                        return Err(bad(at(), format!("tensor list value {arg} holds value {first}, not a tensor")));
                    }
                }
            }
            ValueRef::OptionalTensorList(items) => {
                for item in items.iter().flat_map(|l| l.iter()) {
                    if item == -1 {
                        continue;
                    }
                    if let ValueRef::Tensor(t) = value(plan, item).map_err(|e| e.at_path(at()))? {
                        push_tensor(key, t, budget)?;
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    key.pop();
    Ok(())
}

/// Value `j` of the plan, or an error saying it does not exist.
fn value<'a>(plan: &PlanView<'a>, j: i32) -> Result<ValueRef<'a>> {
    let n = plan.value_count();
    index(j, n)
        .and_then(|j| plan.value_ref(j))
        .ok_or_else(|| Error::new(ErrorKind::Malformed, format!("value index {j} is not one of the {n} values")))
}

/// Appends `dtype;d0,d1,...|`, charging its length to `budget`.
fn push_tensor(key: &mut String, t: TensorView<'_>, budget: &mut usize) -> Result<()> {
    let dims = t.dim_order().unwrap_or_default();
    // at most 4 characters per dimension, 5 for the dtype and separators
    let most = dims.len().saturating_mul(4).saturating_add(6);
    *budget = budget.checked_sub(most).ok_or_else(|| {
        Error::new(ErrorKind::LimitExceeded, "the kernel keys of this program are over the limit of text it may build")
    })?;
    push_small(key, i16::from(t.scalar_type().0));
    key.push(';');
    for (i, d) in dims.iter().enumerate() {
        if i > 0 {
            key.push(',');
        }
        push_small(key, i16::from(*d));
    }
    key.push('|');
    Ok(())
}

/// Appends a small integer in decimal. Keys are built once per kernel call,
/// hundreds of thousands of times in a large program, where `write!`'s
/// formatting machinery was most of the command's cost.
fn push_small(key: &mut String, n: i16) {
    if n < 0 {
        key.push('-');
    }
    let n = n.unsigned_abs();
    let mut started = false;
    for div in [10_000u16, 1_000, 100, 10, 1] {
        let digit = n.checked_div(div).and_then(|q| q.checked_rem(10)).unwrap_or(0);
        if digit != 0 || started || div == 1 {
            started = true;
            key.push(char::from_digit(u32::from(digit), 10).unwrap_or('0'));
        }
    }
}

/// Operators and delegates of many programs together: what a selective
/// build of a runtime for all of them must keep.
///
/// ```
/// use pte_analysis::operators::{of_program, OperatorUnion};
/// let dir = pte_testkit::corpus_dir();
/// let mut all = OperatorUnion::default();
/// for case in ["add", "linear"] {
///     let path = dir.join(case).join("model.pte");
///     all.add(&path.to_string_lossy(), &of_program(&std::fs::read(&path)?)?);
/// }
/// let names: Vec<String> = all.operators().map(|o| o.full_name()).collect();
/// assert_eq!(names, ["aten::add.out", "aten::addmm.out", "aten::permute_copy.out", "aten::relu.out"]);
/// assert!(all.to_yaml().starts_with("build_features: []\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OperatorUnion {
    operators: BTreeMap<String, UnionOperator>,
    delegates: BTreeMap<String, u64>,
}

/// One operator of an [`OperatorUnion`]: every call of it in every file.
///
/// ```
/// let op = pte_analysis::operators::UnionOperator::default();
/// assert!(op.files.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct UnionOperator {
    /// Namespace and name, as the first file listing it spells it.
    pub name: String,
    /// The overload, likewise.
    pub overload: String,
    /// Kernel calls over all methods of all files.
    pub calls: u64,
    /// Every kernel key of every file, sorted.
    pub kernel_keys: BTreeSet<String>,
    /// The files listing it, sorted.
    pub files: BTreeSet<String>,
}

impl UnionOperator {
    /// `name.overload`, or `name` alone when the overload is empty.
    ///
    /// ```
    /// let op = pte_analysis::operators::UnionOperator { name: "aten::relu".into(), overload: "out".into(), ..Default::default() };
    /// assert_eq!(op.full_name(), "aten::relu.out");
    /// ```
    pub fn full_name(&self) -> String {
        full_name(&self.name, &self.overload)
    }
}

impl OperatorUnion {
    /// Adds every method of `program`, read from `file` (the name the
    /// YAML's `debug_info` gives). Operators are merged by the name the
    /// runtime looks them up by (`name.overload`), delegates by backend id.
    ///
    /// ```
    /// let mut u = pte_analysis::operators::OperatorUnion::default();
    /// u.add("none.pte", &Default::default());
    /// assert_eq!(u.operators().count(), 0);
    /// ```
    pub fn add(&mut self, file: &str, program: &ProgramOperators) {
        for m in &program.methods {
            for op in &m.operators {
                let entry = self.operators.entry(op.full_name()).or_insert_with(|| UnionOperator {
                    name: op.name.clone(),
                    overload: op.overload.clone(),
                    ..Default::default()
                });
                entry.calls = entry.calls.saturating_add(op.calls);
                entry.kernel_keys.extend(op.kernel_keys.iter().cloned());
                entry.files.insert(file.to_string());
            }
            for d in &m.delegates {
                let calls = self.delegates.entry(d.id.clone()).or_insert(0);
                *calls = calls.saturating_add(d.calls);
            }
        }
    }

    /// The operators, sorted by `name.overload`.
    ///
    /// ```
    /// assert_eq!(pte_analysis::operators::OperatorUnion::default().operators().count(), 0);
    /// ```
    pub fn operators(&self) -> impl Iterator<Item = &UnionOperator> {
        self.operators.values()
    }

    /// The backends, sorted by id, with their calls over all files.
    ///
    /// ```
    /// assert_eq!(pte_analysis::operators::OperatorUnion::default().delegates().count(), 0);
    /// ```
    pub fn delegates(&self) -> impl Iterator<Item = DelegateUse> + '_ {
        self.delegates.iter().map(|(id, calls)| DelegateUse { id: id.clone(), calls: *calls })
    }

    /// The selected-operators YAML of ExecuTorch's selective build, byte
    /// for byte what `gen_oplist.py --model_file_path FILE` writes for one
    /// file, and what `gen_all_oplist.py` makes of several such files
    /// (there with each operator's `debug_info` sorted): every operator
    /// under `operators` (a root operator, used for training, overloads
    /// not all included, `debug_info` the files listing it), and the
    /// kernel keys of those called under `et_kernel_metadata`, keys and
    /// lists sorted as PyYAML's `safe_dump` writes them.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let mut u = pte_analysis::operators::OperatorUnion::default();
    /// u.add("model.pte", &pte_analysis::operators::of_program(&bytes)?);
    /// let yaml = u.to_yaml();
    /// assert!(yaml.contains("et_kernel_metadata:\n  aten::add.out:\n  - v1/6;0,1|6;0,1|6;0,1|6;0,1\n"));
    /// assert!(yaml.contains("  aten::add.out:\n    debug_info:\n    - model.pte\n"));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn to_yaml(&self) -> String {
        yaml::selected_operators(&self.operators)
    }
}

impl Serialize for OperatorUnion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Shape<'a> {
            operators: Vec<&'a UnionOperator>,
            delegates: Vec<DelegateUse>,
        }
        Shape { operators: self.operators().collect(), delegates: self.delegates().collect() }.serialize(s)
    }
}
