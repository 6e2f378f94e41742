//! One class per verifier rule the corruption classes in `catalogue.rs` do
//! not already break, named after the rule itself, so that `pte mutate
//! --rule RULE` exists for every rule of docs/verifier.md. Each edit is the
//! smallest one that breaks its rule: most add one bad entry (a value, a
//! delegate, a key) to an otherwise valid file, so they apply to any input of
//! their kind that reads.

mod bpte;
mod edits;
mod program;
mod ptd;
mod ptn;
mod ptn_limits;

use crate::corruption::Corruption;

/// The classes, in docs/verifier.md order.
pub(crate) fn rule_classes() -> impl Iterator<Item = &'static Corruption> {
    [program::CLASSES, ptd::CLASSES, bpte::CLASSES, ptn::CLASSES, ptn_limits::CLASSES].into_iter().flatten()
}
