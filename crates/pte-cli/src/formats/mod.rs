//! What each format shows in `info` and `dump`, shared by the commands.

pub(crate) mod bpte;
pub(crate) mod inspect;
pub(crate) mod payload;
pub(crate) mod program;
pub(crate) mod ptd;
pub(crate) mod pte_info;
pub(crate) mod ptn;
