//! Proving a program buffer well formed before anything reads it: the
//! schema-specific structural walk every reader uses (it sits in the fence,
//! `crate::fenced::structure`, because the unchecked root relies on its
//! proof), the generic path it is held to (the flatbuffers verifier plus the
//! runtime's offset rules), the caller's per-element checks run during the
//! walk ([`ElementChecks`]), and byte offsets for field paths ([`locate`]).

pub(crate) mod checks;
pub(crate) mod locate;

use pte_core::{Error, ErrorKind, Result};

use crate::decode_common::{check_identifier, from_verifier};
use crate::fenced::et;
use crate::fenced::structure::{self, Findings};
use crate::limits::Limits;
use crate::program::PROGRAM_IDENTIFIER;
use checks::ElementChecks;

/// Checks the identifier, then proves the buffer well formed with the
/// structural verifier under `limits`.
pub(crate) fn verify_root<'a>(buf: &'a [u8], limits: &Limits) -> Result<et::Program<'a>> {
    verify_root_found(buf, limits, None).map(|(root, _)| root)
}

/// [`verify_root`], with what the structural walk noticed on the way.
pub(crate) fn verify_root_found<'a>(
    buf: &'a [u8],
    limits: &Limits,
    checks: Option<&dyn ElementChecks>,
) -> Result<(et::Program<'a>, Findings)> {
    check_identifier(buf, PROGRAM_IDENTIFIER)?;
    match structure::check_program(buf, limits, checks.map(|c| c as &dyn structure::MemberChecks)) {
        Ok(checked) => Ok((crate::fenced::program_root(checked), checked.findings())),
        Err(refused) => Err(explain_refusal(buf, limits, refused.at)),
    }
}

/// Why the structural verifier refused `buf`, in the words of the generic
/// verifier and the offset walk (their field paths and offsets). Both accept
/// exactly what it accepts, so the fallback error is never expected.
fn explain_refusal(buf: &[u8], limits: &Limits, at: usize) -> Error {
    match verify_root_generic(buf, limits) {
        Err(e) => e,
        Ok(_) => Error::new(ErrorKind::Malformed, "the program's flatbuffer structure is invalid".to_string())
            .at_offset(at as u64),
    }
}

/// Verifies a program flatbuffer the generic way: the flatbuffers crate's
/// verifier, then the runtime's offset rules in a second walk. Every reader
/// here uses the faster structural verifier instead; this one is its
/// reference, gives the same verdict on every input (the differential tests
/// hold them to it) and supplies the detailed error when a buffer is refused.
/// Useful to compare the two, and in benchmarks.
///
/// Test-only and unstable (hidden from the docs), for the workspace's
/// differential tests, fuzz target and benches; not part of the API.
///
/// ```
/// use pte_schema::{verify_program_reference, Limits, ProgramView};
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// assert!(verify_program_reference(&bytes, &Limits::default()).is_ok());
/// let mut broken = bytes.clone();
/// broken[0] ^= 0x80; // the root offset now points outside
/// let reference = verify_program_reference(&broken, &Limits::default()).unwrap_err();
/// let fast = ProgramView::new(&broken, &Limits::default()).err().unwrap();
/// assert_eq!(fast.to_string(), reference.to_string());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[doc(hidden)]
pub fn verify_program_reference(buf: &[u8], limits: &Limits) -> Result<()> {
    verify_root_generic(buf, limits).map(drop)
}

/// The generic verification (the reference of the structural walk),
/// returning the root.
pub(crate) fn verify_root_generic<'a>(buf: &'a [u8], limits: &Limits) -> Result<et::Program<'a>> {
    check_identifier(buf, PROGRAM_IDENTIFIER)?;
    let opts = limits.verifier_options(buf.len());
    let root = et::root_as_program_with_opts(&opts, buf).map_err(from_verifier)?;
    crate::offsets::check_offsets(buf, crate::offsets::Schema::Program, limits.max_depth)?;
    Ok(root)
}
