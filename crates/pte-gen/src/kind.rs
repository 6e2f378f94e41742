//! Which kind of file some bytes are, by content: a class only applies to
//! inputs of its own kind (a `.pte` edit must not "succeed" on a `.ptn`).

use pte_core::FileKind;

/// Refuses an input that is not of kind `want` (another kind, or no
/// recognisable identifier at all): a class edits offsets of its own format.
pub(crate) fn require(want: FileKind, input: &[u8]) -> Result<(), String> {
    let got = pte::kind_of(input);
    if got == want {
        Ok(())
    } else if !got.is_known() {
        Err(format!("the class takes {want} but the input is no ExecuTorch file"))
    } else {
        Err(format!("the class takes {want} but the input is {got}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_of_another_kind_are_refused_by_name() {
        assert!(require(FileKind::Pte, b"\0\0\0\0ET12").is_ok());
        assert_eq!(
            require(FileKind::Pte, b"PK\x03\x04rest").unwrap_err(),
            "the class takes a .pte program but the input is a .ptn package"
        );
        assert!(require(FileKind::Ptd, b"text").unwrap_err().ends_with("no ExecuTorch file"));
    }
}
