//! What the memory walks read of one instruction: the values it names and
//! where a loop jumps back to. Both the plan walk and the verifier's gather
//! read instructions the same way, so the reading lives here once.

use pte_schema::InstructionRef;

/// Calls `f` with each value index `instruction` names.
pub(crate) fn named_values(instruction: InstructionRef<'_>, mut f: impl FnMut(i32)) {
    match instruction {
        InstructionRef::KernelCall { args, .. } | InstructionRef::DelegateCall { args, .. } => {
            args.iter().flat_map(|l| l.iter()).for_each(f)
        }
        InstructionRef::MoveCall { move_from, move_to } => {
            f(move_from);
            f(move_to);
        }
        InstructionRef::JumpFalseCall { cond_value_index, .. } => f(cond_value_index),
        InstructionRef::FreeCall { value_index } => f(value_index),
        InstructionRef::None | InstructionRef::Unknown(_) => {}
    }
}

/// Where instruction `i` of a chain jumps back to, when it is a jump to an
/// earlier instruction of the chain (a loop).
pub(crate) fn back_jump(instruction: InstructionRef<'_>, i: usize) -> Option<u64> {
    let InstructionRef::JumpFalseCall { destination_instruction: d, .. } = instruction else { return None };
    u64::try_from(d).ok().filter(|&d| usize::try_from(d).is_ok_and(|d| d < i))
}
