//! Every class, from the corruption catalogue, the payload classes and the
//! one-per-rule classes, and lookups by name and by rule.

use crate::catalogue::CATALOGUE;
use crate::corruption::Corruption;

/// The class of this name.
///
/// ```
/// assert!(pte_gen::find("ptn.zip-slip").is_some());
/// assert!(pte_gen::find("nope").is_none());
/// ```
pub fn find(name: &str) -> Option<&'static Corruption> {
    classes().find(|c| c.name == name)
}

/// Every class: the corruption catalogue, then one class per verifier rule
/// the catalogue does not already break (named after the rule).
///
/// ```
/// assert!(pte_gen::classes().count() > pte_gen::CATALOGUE.len());
/// assert!(pte_gen::classes().any(|c| c.name == "tensor.dim_order" || c.rule == "tensor.dim_order"));
/// ```
pub fn classes() -> impl Iterator<Item = &'static Corruption> {
    CATALOGUE.iter().chain(crate::payload::PAYLOAD_CLASSES).chain(crate::rules::rule_classes())
}

/// The classes whose result `pte verify` reports under verifier rule `rule`.
///
/// ```
/// assert!(pte_gen::breaking("flatbuffer.identifier").any(|c| c.name == "pte.bad-identifier"));
/// assert!(pte_gen::breaking("no.such.rule").next().is_none());
/// ```
pub fn breaking(rule: &str) -> impl Iterator<Item = &'static Corruption> + '_ {
    classes().filter(move |c| c.rule == rule)
}
