//! Work that differs by kind, for the crates above the door: they say what
//! to do for each kind, and the door alone asks which kind it is.

use pte_core::FileKind;

/// One piece of work written once per kind. [`per_kind`] calls the method
/// for the kind it is given; a crate above the door (`pte-diff` compares
/// files this way) never matches on [`FileKind`] itself.
///
/// ```
/// use pte::{per_kind, FileKind, PerKind};
///
/// /// What a kind's tables are called.
/// struct Tables;
/// impl PerKind for Tables {
///     type Output = &'static str;
///     fn pte(self) -> &'static str { "program" }
///     fn ptd(self) -> &'static str { "flat tensor" }
///     fn bpte(self) -> &'static str { "bundled program" }
///     fn ptn(self) -> &'static str { "package" }
///     fn other(self, _: FileKind) -> &'static str { "none" }
/// }
/// assert_eq!(per_kind(FileKind::Ptd, Tables), "flat tensor");
/// assert_eq!(per_kind(FileKind::Unknown, Tables), "none");
/// ```
pub trait PerKind {
    /// What the work gives back.
    type Output;
    /// The work for a `.pte` program.
    fn pte(self) -> Self::Output;
    /// The work for a `.ptd` tensor-data file.
    fn ptd(self) -> Self::Output;
    /// The work for a `.bpte` bundled program.
    fn bpte(self) -> Self::Output;
    /// The work for a `.ptn` package.
    fn ptn(self) -> Self::Output;
    /// The work for anything else (`FileKind::Unknown`).
    fn other(self, kind: FileKind) -> Self::Output;
}

/// Runs the method of `work` for `kind` (see [`PerKind`]).
///
/// ```
/// use pte::{per_kind, FileKind, PerKind};
/// struct IsProgram;
/// impl PerKind for IsProgram {
///     type Output = bool;
///     fn pte(self) -> bool { true }
///     fn ptd(self) -> bool { false }
///     fn bpte(self) -> bool { true }
///     fn ptn(self) -> bool { true }
///     fn other(self, _: FileKind) -> bool { false }
/// }
/// assert!(per_kind(FileKind::Bpte, IsProgram));
/// ```
pub fn per_kind<W: PerKind>(kind: FileKind, work: W) -> W::Output {
    match kind {
        FileKind::Pte => work.pte(),
        FileKind::Ptd => work.ptd(),
        FileKind::Bpte => work.bpte(),
        FileKind::Ptn => work.ptn(),
        other => work.other(other),
    }
}
