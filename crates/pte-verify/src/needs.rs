//! What a valid program needs from outside itself to load and run: external
//! tensor data, a runtime that can allocate planned memory on the devices it
//! names, and memory bound to tensors the program stores nowhere. These are warnings, not violations: the file is sound, but a
//! stock CPU runtime given nothing else cannot load it.

use pte_core::Violation;
use pte_schema::{DeviceType, ProgramView, ValueRef};

use super::clean_file::TensorNeeds;
use super::rules;

/// What the verifier's walk saw of the values, kept when every value
/// passed its checks.
#[derive(Clone, Debug)]
pub(super) struct Seen {
    pub(super) tensors: TensorNeeds,
    /// For each constant, where the first tensor reading it is
    /// ([`super::clean_file::first_reader`]).
    pub(super) constants: Vec<u64>,
}

/// A program that passed structural verification in
/// [`super::verify_bytes_viewed`], with what the verifier learned of its
/// tensors on the way: the warnings about its needs then cost no second
/// pass over its values when no tensor has such a need.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("external/model.pte"))?;
/// let (report, verified) = pte_verify::verify_bytes_viewed(&bytes, &Default::default());
/// let verified = verified.unwrap();
/// assert!(report.is_ok());
/// assert_eq!(verified.external_needs(), pte_verify::external_needs(verified.view()));
/// assert!(verified.device_needs().is_empty());
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone)]
pub struct Verified<'a> {
    view: ProgramView<'a>,
    /// Known when every value was checked and passed.
    seen: Option<Seen>,
    /// Which operators each plan's kernel calls name (by operator index),
    /// where the verifier saw every instruction of the plan pass.
    called: Vec<Option<Vec<bool>>>,
}

impl<'a> Verified<'a> {
    pub(super) fn new(view: ProgramView<'a>, seen: Option<Seen>, called: Vec<Option<Vec<bool>>>) -> Self {
        Verified { view, seen, called }
    }

    fn tensors(&self) -> Option<TensorNeeds> {
        self.seen.as_ref().map(|s| s.tensors)
    }

    /// What a summary reads of the values
    /// ([`pte_file::view::PteView::constants_and_external_names_known`]), as
    /// the verifier saw it: `None` unless every value passed its checks.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let (_, verified) = pte_verify::verify_bytes_viewed(&bytes, &Default::default());
    /// let known = verified.unwrap().known_values().unwrap();
    /// let view = pte_file::view::PteView::read(&bytes, Default::default())?;
    /// let sizes: Vec<_> = view.constants().unwrap().iter().map(|c| c.len).collect();
    /// assert_eq!(known.constant_sizes.iter().map(|s| s.unwrap_or(0)).collect::<Vec<_>>(), sizes);
    /// assert!(!known.external);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn known_values(&self) -> Option<pte_file::view::KnownValues> {
        let seen = self.seen.as_ref()?;
        let size = |&[p, j]: &[usize; 2]| match self.view.plan(p)?.value_ref(j)? {
            ValueRef::Tensor(t) => t.nbytes(),
            _ => None,
        };
        Some(pte_file::view::KnownValues {
            constant_sizes: seen
                .constants
                .iter()
                .map(|&mark| super::clean_file::first_reader(mark).as_ref().and_then(size))
                .collect(),
            external: seen.tensors.external,
        })
    }

    /// The verified program.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let (_, verified) = pte_verify::verify_bytes_viewed(&bytes, &Default::default());
    /// assert_eq!(verified.unwrap().view().plan_count(), 1);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn view(&self) -> &ProgramView<'a> {
        &self.view
    }

    /// [`external_needs`] of the program, skipping the pass over its values
    /// when verification saw no external tensor.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let (_, verified) = pte_verify::verify_bytes_viewed(&bytes, &Default::default());
    /// assert!(verified.unwrap().external_needs().is_empty());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn external_needs(&self) -> Vec<Violation> {
        if self.tensors().is_some_and(|t| !t.external) {
            return vec![];
        }
        external_needs(&self.view)
    }

    /// [`device_needs`] of the program, skipping the pass over its values
    /// (not over its planned buffers) when verification saw no tensor off
    /// the CPU.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let (_, verified) = pte_verify::verify_bytes_viewed(&bytes, &Default::default());
    /// assert!(verified.unwrap().device_needs().is_empty());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn device_needs(&self) -> Vec<Violation> {
        device_needs_of(&self.view, self.tensors().is_none_or(|t| t.off_cpu))
    }

    /// [`storage_needs`] of the program, skipping the pass over its values
    /// when verification saw every tensor of bytes stored somewhere.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let (_, verified) = pte_verify::verify_bytes_viewed(&bytes, &Default::default());
    /// assert!(verified.unwrap().storage_needs().is_empty());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn storage_needs(&self) -> Vec<Violation> {
        if self.tensors().is_some_and(|t| !t.unstored) {
            return vec![];
        }
        storage_needs(&self.view)
    }

    /// [`operator_needs`] of the program, reading which operators each
    /// plan calls from what verification gathered, not from its
    /// instructions again.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let (_, verified) = pte_verify::verify_bytes_viewed(&bytes, &Default::default());
    /// let verified = verified.unwrap();
    /// assert_eq!(verified.operator_needs(), pte_verify::operator_needs(verified.view()));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn operator_needs(&self) -> Vec<Violation> {
        use pte_analysis::operators::runtimes::{called_by, called_with};
        let called = called_with(&self.view, |p, plan| match self.called.get(p) {
            Some(Some(used)) => used.clone(),
            _ => called_by(plan),
        });
        operator_warnings(called)
    }
}

/// One warning naming every EXTERNAL key, for a program checked without
/// the `.ptd` files that hold them; nothing when it has none. Read through
/// the views, so a program of any size costs no decoding.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("external/model.pte"))?;
/// let (_, region) = pte_file::program_region(&bytes)?;
/// let view = pte_schema::ProgramView::new(region, &Default::default())?;
/// let w = pte_verify::external_needs(&view);
/// assert_eq!(w.len(), 1);
/// assert!(w[0].message.contains("seq.0.weight, seq.0.bias, seq.2.weight, seq.2.bias"));
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn external_needs(program: &ProgramView<'_>) -> Vec<Violation> {
    let mut keys: Vec<&str> = vec![];
    let mut first = None;
    for (p, plan) in (0..program.plan_count()).filter_map(|p| Some((p, program.plan(p)?))) {
        for (j, v) in plan.value_refs().enumerate() {
            let ValueRef::Tensor(t) = v else { continue };
            if !t.is_external() {
                continue;
            }
            first.get_or_insert_with(|| format!("execution_plan[{p}].values[{j}]"));
            let key = t.fqn().unwrap_or("");
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    let Some(path) = first else { return vec![] };
    let n = keys.len();
    vec![Violation {
        rule: rules::NEEDS_EXTERNAL_DATA,
        path,
        offset: None,
        message: format!(
            "{n} EXTERNAL tensor key{} need{} a .ptd and none was given (--ptd): {}",
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" },
            keys.join(", ")
        ),
    }]
}

/// One warning per operator a method calls that the stock runtime of
/// release [`STOCK`](pte_analysis::operators::runtimes::STOCK) does not register
/// (`OperatorMissing` at `load_method`), naming the releases that do.
///
/// ```
/// let mut p = pte_schema::Program::default();
/// p.execution_plan = Some(vec![pte_schema::ExecutionPlan {
///     name: Some("forward".into()),
///     operators: Some(vec![pte_schema::Operator { name: Some("my_ops::fancy".into()), overload: Some("out".into()) }]),
///     chains: Some(vec![pte_schema::Chain {
///         instructions: Some(vec![pte_schema::Instruction {
///             instr_args: Some(pte_schema::InstructionArguments::KernelCall { op_index: 0, args: Some(vec![]) }),
///         }]),
///         ..Default::default()
///     }]),
///     ..Default::default()
/// }]);
/// let bytes = pte_schema::encode_program(&p, &Default::default())?;
/// let w = pte_verify::operator_needs(&pte_schema::ProgramView::new(&bytes, &Default::default())?);
/// assert_eq!(w[0].rule, "needs.operator");
/// assert!(w[0].message.contains("my_ops::fancy.out") && w[0].message.contains("OperatorMissing (0x14)"));
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn operator_needs(program: &ProgramView<'_>) -> Vec<Violation> {
    operator_warnings(pte_analysis::operators::runtimes::called(program))
}

/// The `needs.operator` warnings of `called` (as
/// [`pte_analysis::operators::runtimes::called`] answers).
fn operator_warnings(called: Vec<(String, Vec<String>)>) -> Vec<Violation> {
    use pte_analysis::operators::runtimes::{missing_of, registering, STOCK};
    let mut out = vec![];
    for (method, name) in missing_of(called, STOCK).unwrap_or_default() {
        let by = registering(&name);
        let others = if by.is_empty() {
            "no release with data registers it (a custom kernel)".to_string()
        } else {
            format!("registered by ExecuTorch {}", by.join(", "))
        };
        out.push(Violation {
            rule: rules::NEEDS_OPERATOR,
            path: format!("method {method:?}"),
            offset: None,
            message: format!(
                "method {method:?} calls {name}, which the stock runtime of ExecuTorch {STOCK} does not register: \
                 load_method fails with OperatorMissing (0x14) unless a kernel is linked in; {others}"
            ),
        });
    }
    out
}

/// One warning per named tensor (an attribute, such as a module's state)
/// that holds bytes but that the program stores nowhere (not
/// memory-planned, no constant data, not EXTERNAL), that is
/// not a method input or output (those the caller passes in or receives),
/// and that an instruction hands to a kernel or delegate (directly or in a
/// tensor list): the runtime leaves its data null until the application
/// binds memory, so the kernel would read a null pointer.
///
/// ```
/// let t = pte_schema::Tensor { scalar_type: pte_schema::ScalarType::FLOAT, sizes: Some(vec![4]),
///     dim_order: Some(vec![0]), extra_tensor_info: Some(pte_schema::ExtraTensorInfo {
///         fully_qualified_name: Some("state".into()), ..Default::default() }), ..Default::default() };
/// let mut p = pte_schema::Program::default();
/// p.execution_plan = Some(vec![pte_schema::ExecutionPlan {
///     values: Some(vec![pte_schema::EValue { val: Some(pte_schema::KernelTypes::Tensor(t)) }]),
///     chains: Some(vec![pte_schema::Chain {
///         instructions: Some(vec![pte_schema::Instruction {
///             instr_args: Some(pte_schema::InstructionArguments::KernelCall { op_index: 0, args: Some(vec![0]) }),
///         }]),
///         ..Default::default()
///     }]),
///     ..Default::default()
/// }]);
/// let bytes = pte_schema::encode_program(&p, &Default::default())?;
/// let w = pte_verify::storage_needs(&pte_schema::ProgramView::new(&bytes, &Default::default())?);
/// assert_eq!(w[0].rule, "needs.storage");
/// assert!(w[0].message.contains("\"state\" (values[0]) (16 bytes)"));
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn storage_needs(program: &ProgramView<'_>) -> Vec<Violation> {
    let mut out = vec![];
    for (p, plan) in (0..program.plan_count()).filter_map(|p| Some((p, program.plan(p)?))) {
        let name = plan.name().unwrap_or("");
        // sorted once: a hostile plan may list a million of each
        let mut io: Vec<i32> = [plan.inputs(), plan.outputs()].concat();
        io.sort_unstable();
        let io = |j: usize| i32::try_from(j).is_ok_and(|j| io.binary_search(&j).is_ok());
        let read = read_by_instructions(&plan);
        let unread = |j: usize| !read.get(j).copied().unwrap_or(false);
        for (j, v) in plan.value_refs().enumerate() {
            let ValueRef::Tensor(t) = v else { continue };
            let Some(nbytes) = t.nbytes().filter(|&n| n > 0) else { continue };
            let Some(key) = t.fqn() else { continue };
            if t.allocation_info().is_some() || t.data_buffer_idx() != 0 || t.is_external() || io(j) || unread(j) {
                continue;
            }
            out.push(Violation {
                rule: rules::NEEDS_STORAGE,
                path: format!("execution_plan[{p}].values[{j}]"),
                offset: None,
                message: format!(
                    "method {name:?} hands tensor {key:?} (values[{j}]) ({nbytes} bytes) to an instruction, and the \
                     program stores it nowhere (not memory-planned, no constant data, not EXTERNAL, not an input \
                     or output): the application must bind memory to it before execute, or a kernel reads a null \
                     pointer",
                ),
            });
        }
    }
    out
}

/// Which of `plan`'s values an instruction hands to a kernel or delegate
/// (tensor lists' items included), or moves, or tests: sized by the values
/// the plan holds, whatever indices the instructions claim.
fn read_by_instructions(plan: &pte_schema::PlanView<'_>) -> Vec<bool> {
    use pte_schema::InstructionRef as I;
    let mut read = vec![false; plan.value_count()];
    // each list's items are walked once, however many calls pass the list:
    // the work follows the file's bytes, not calls times items
    let mut expanded = vec![false; plan.value_count()];
    let mark = |j: i32, read: &mut Vec<bool>| {
        if let Some(r) = usize::try_from(j).ok().and_then(|j| read.get_mut(j)) {
            *r = true;
        }
    };
    for chain in plan.chains().into_iter().flatten() {
        for i in chain.instructions().into_iter().flatten() {
            match i {
                I::KernelCall { args, .. } | I::DelegateCall { args, .. } => {
                    for a in args.into_iter().flat_map(|l| l.iter()) {
                        mark(a, &mut read);
                        let first = usize::try_from(a)
                            .ok()
                            .and_then(|a| expanded.get_mut(a))
                            .is_some_and(|e| !std::mem::replace(e, true));
                        if !first {
                            continue;
                        }
                        let items = match usize::try_from(a).ok().and_then(|a| plan.value_ref(a)) {
                            Some(ValueRef::TensorList(l) | ValueRef::OptionalTensorList(l)) => l,
                            _ => None,
                        };
                        for x in items.into_iter().flat_map(|l| l.iter()) {
                            mark(x, &mut read);
                        }
                    }
                }
                I::MoveCall { move_from, move_to } => {
                    mark(move_from, &mut read);
                    mark(move_to, &mut read);
                }
                I::JumpFalseCall { cond_value_index, .. } => mark(cond_value_index, &mut read),
                I::FreeCall { .. } | I::None | I::Unknown(_) => {}
            }
        }
    }
    read
}

/// One warning per planned buffer (`non_const_buffer_device`) and per
/// tensor placed on a device other than the CPU, read through the views.
///
/// ```
/// let mut p = pte_schema::Program::default();
/// p.execution_plan = Some(vec![pte_schema::ExecutionPlan {
///     non_const_buffer_sizes: Some(vec![0, 64]),
///     non_const_buffer_device: Some(vec![pte_schema::NonConstBufferDevice {
///         buffer_idx: 1, device_type: pte_schema::DeviceType::CUDA, device_index: 0 }]),
///     ..Default::default()
/// }]);
/// let bytes = pte_schema::encode_program(&p, &Default::default())?;
/// let w = pte_verify::device_needs(&pte_schema::ProgramView::new(&bytes, &Default::default())?);
/// assert_eq!(w[0].rule, "needs.device");
/// assert!(w[0].message.contains("planned buffer 1 (64 bytes)"));
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn device_needs(program: &ProgramView<'_>) -> Vec<Violation> {
    device_needs_of(program, true)
}

/// [`device_needs`], reading the tensors only when `tensors`.
fn device_needs_of(program: &ProgramView<'_>, tensors: bool) -> Vec<Violation> {
    let mut out = vec![];
    for (p, plan) in (0..program.plan_count()).filter_map(|p| Some((p, program.plan(p)?))) {
        let name = plan.name().unwrap_or("");
        let sizes = plan.buffer_sizes();
        for (k, d) in plan.buffer_devices().into_iter().flatten().enumerate() {
            if d.device_type == DeviceType::CPU {
                continue;
            }
            let size = usize::try_from(d.buffer_idx).ok().and_then(|i| sizes.and_then(|s| s.get(i)));
            out.push(Violation {
                rule: rules::NEEDS_DEVICE,
                path: format!("execution_plan[{p}].non_const_buffer_device[{k}]"),
                offset: None,
                message: format!(
                    "method {name:?} places planned buffer {} ({} bytes) on {}:{}; a CPU-only runtime cannot allocate it",
                    d.buffer_idx,
                    size.map_or_else(|| "?".into(), |s| s.to_string()),
                    d.device_type,
                    d.device_index
                ),
            });
        }
        if !tensors {
            continue;
        }
        for (j, v) in plan.value_refs().enumerate() {
            let ValueRef::Tensor(t) = v else { continue };
            let Some(device) = t.device_type().filter(|&d| d != DeviceType::CPU) else { continue };
            out.push(Violation {
                rule: rules::NEEDS_DEVICE,
                path: format!("execution_plan[{p}].values[{j}].extra_tensor_info.device_type"),
                offset: None,
                message: format!(
                    "method {name:?} places tensor {} on {}:{}",
                    t.fqn().map_or_else(|| format!("values[{j}]"), str::to_string),
                    device,
                    t.device_index().unwrap_or_default()
                ),
            });
        }
    }
    out
}
