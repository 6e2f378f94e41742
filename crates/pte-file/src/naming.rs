//! Names for constants the exporter left unnamed, so they can be keyed in a
//! `.ptd`: stock exporters name only the tensors they were told to tag.

use std::collections::BTreeSet;

use pte_schema::{Error, ErrorKind, ExtraTensorInfo, KernelTypes, Result};

use crate::PteFile;

/// Gives every constant tensor without a fully qualified name the name
/// `{prefix}{data_buffer_idx}`: deterministic, and tensors sharing one
/// constant entry share one name (so one blob). Returns the names given, in
/// order of first use; refuses (`InvalidUse`) a prefix that would give a
/// name some other tensor already carries.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let mut pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let named = pte_file::external::name_unnamed_constants(&mut pte, "constant.")?;
/// assert_eq!(named, ["constant.1", "constant.2"]);
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn name_unnamed_constants(pte: &mut PteFile<'_>, prefix: &str) -> Result<Vec<String>> {
    let taken: BTreeSet<String> = pte
        .program
        .plans()
        .iter()
        .flat_map(|p| p.value_list().iter())
        .filter_map(|v| match &v.val {
            Some(KernelTypes::Tensor(t)) => t.fqn().map(str::to_owned),
            _ => None,
        })
        .collect();
    let mut given: Vec<String> = vec![];
    for plan in pte.program.execution_plan.iter_mut().flatten() {
        for v in plan.values.iter_mut().flatten() {
            let Some(KernelTypes::Tensor(t)) = &mut v.val else { continue };
            let constant = t.data_buffer_idx > 0 && t.allocation_info.is_none() && !t.is_external();
            if !constant || t.fqn().is_some() {
                continue;
            }
            let name = format!("{prefix}{}", t.data_buffer_idx);
            if taken.contains(&name) {
                return Err(Error::new(
                    ErrorKind::InvalidUse,
                    format!("the name {name:?} is already a tensor's; choose another prefix than {prefix:?}"),
                ));
            }
            t.extra_tensor_info.get_or_insert_with(ExtraTensorInfo::default).fully_qualified_name = Some(name.clone());
            if !given.contains(&name) {
                given.push(name);
            }
        }
    }
    Ok(given)
}
