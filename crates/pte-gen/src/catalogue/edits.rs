//! Small edits the corruption catalogue shares: finding the first tensor,
//! instruction or test-case tensor to break, and reading a safetensors header.

use pte_schema::bundled::BundledValue;
use pte_schema::{InstructionArguments, KernelTypes};

use crate::edit::*;

pub(super) fn header_len(b: &[u8]) -> Edit<()> {
    if b.get(8..12) != Some(b"eh00".as_slice()) {
        return Err("the program has no eh00 header".into());
    }
    Ok(())
}

pub(super) fn first_tensor<'p>(pte: &'p mut pte_file::PteFile<'_>, constant: bool) -> Edit<&'p mut pte_schema::Tensor> {
    first_plan(pte)?
        .values
        .iter_mut()
        .flatten()
        .filter_map(|v| match &mut v.val {
            Some(KernelTypes::Tensor(t)) if !constant || t.data_buffer_idx > 0 || t.allocation_info.is_none() => {
                Some(t)
            }
            _ => None,
        })
        .next()
        .ok_or_else(|| "no tensor value".to_string())
}

pub(super) fn first_instruction<'p>(
    pte: &'p mut pte_file::PteFile<'_>,
    want: fn(&InstructionArguments) -> bool,
) -> Edit<&'p mut pte_schema::Instruction> {
    first_plan(pte)?
        .chains
        .iter_mut()
        .flatten()
        .flat_map(|c| c.instructions.iter_mut().flatten())
        .find(|i| i.instr_args.as_ref().is_some_and(want))
        .ok_or_else(|| "no such instruction".to_string())
}

pub(super) fn first_case_tensor<'b, 'a>(
    b: &'b mut pte_schema::bundled::BundledProgram<'a>,
) -> Edit<&'b mut pte_schema::bundled::BundledTensor<'a>> {
    test_cases_mut(b)
        .flat_map(|c| c.inputs.iter_mut().flatten())
        .find_map(|v| match v {
            BundledValue::Tensor(t) => Some(t),
            _ => None,
        })
        .ok_or_else(|| "no tensor in any case".to_string())
}

/// A safetensors blob's header as JSON, and the header's length.
pub(super) fn safetensors_header(blob: &[u8]) -> Edit<(serde_json::Map<String, serde_json::Value>, usize)> {
    let len: [u8; 8] = blob.get(..8).ok_or("blob too short")?.try_into().map_err(|_| "blob too short")?;
    let n = usize::try_from(u64::from_le_bytes(len)).map_err(|_| "header length")?;
    let text = blob.get(8..8usize.saturating_add(n)).ok_or("header past the end")?;
    Ok((serde_json::from_slice(text).map_err(|e| e.to_string())?, n))
}
