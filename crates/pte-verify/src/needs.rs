//! What a valid program needs from outside itself to load: external tensor
//! data, and a runtime that can allocate planned memory on the devices it
//! names. These are warnings, not violations: the file is sound, but a
//! stock CPU runtime given nothing else cannot load it.

use pte_core::Violation;
use pte_schema::{DeviceType, ProgramView, ValueRef};

use super::clean_file::TensorNeeds;
use super::rules;

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
    tensors: Option<TensorNeeds>,
    /// Which operators each plan's kernel calls name (by operator index),
    /// where the verifier saw every instruction of the plan pass.
    called: Vec<Option<Vec<bool>>>,
}

impl<'a> Verified<'a> {
    pub(super) fn new(view: ProgramView<'a>, tensors: Option<TensorNeeds>, called: Vec<Option<Vec<bool>>>) -> Self {
        Verified { view, tensors, called }
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
        if self.tensors.is_some_and(|t| !t.external) {
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
        device_needs_of(&self.view, self.tensors.is_none_or(|t| t.off_cpu))
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
