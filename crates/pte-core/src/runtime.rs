//! The stock ExecuTorch runtime's error codes (`executorch::runtime::Error`,
//! as the 1.5.1 headers number them) and the stage at which it refuses a
//! file, so a verifier rule can say what the runtime would answer.

use std::fmt;

/// One of the runtime's error codes, with what it means for a file.
///
/// ```
/// let e = pte_core::RuntimeError::find("0x23").unwrap();
/// assert_eq!((e.code, e.name), (0x23, "InvalidProgram"));
/// assert_eq!(pte_core::RuntimeError::find("invalidprogram"), Some(e));
/// assert_eq!(e.to_string(), "InvalidProgram (0x23)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuntimeError {
    /// The numeric code (`error_code_t`).
    pub code: u32,
    /// The enumerator's name.
    pub name: &'static str,
    /// What the runtime means by it, in a line.
    pub means: &'static str,
}

macro_rules! errors {
    ($($id:ident = $code:literal, $name:literal, $means:literal;)*) => {
        $(
            #[doc = concat!("`", $name, "`: ", $means)]
            pub const $id: RuntimeError = RuntimeError { code: $code, name: $name, means: $means };
        )*
        /// Every code the runtime defines, in numeric order.
        pub const ALL: &[RuntimeError] = &[$($id),*];
    };
}

/// The codes, one constant each.
pub mod errors {
    use super::RuntimeError;
    errors! {
        OK = 0x00, "Ok", "success";
        INTERNAL = 0x01, "Internal", "an internal inconsistency: an invalid dim_order, a delegate call to a missing delegate at execute time, an operator name of 100 characters or more";
        INVALID_STATE = 0x02, "InvalidState", "the runtime was not set up for the request, e.g. a program with EXTERNAL tensors loaded without a data map (.ptd)";
        END_OF_METHOD = 0x03, "EndOfMethod", "execution stepped past the last instruction";
        ALREADY_LOADED = 0x04, "AlreadyLoaded", "the method or backend is already loaded";
        NOT_SUPPORTED = 0x10, "NotSupported", "the file asks for something this runtime does not do: a non-zero storage_offset, a DYNAMIC_UNBOUND tensor";
        NOT_IMPLEMENTED = 0x11, "NotImplemented", "a feature the runtime declares but does not implement";
        INVALID_ARGUMENT = 0x12, "InvalidArgument", "a value out of range: a file under 64 bytes, named data without segments, a constant or mutable range outside its segment, a planned tensor naming a buffer that does not exist, a read past the end of the file";
        INVALID_TYPE = 0x13, "InvalidType", "a value of the wrong kind where the program says another, e.g. a value an instruction takes as a tensor that is not one";
        OPERATOR_MISSING = 0x14, "OperatorMissing", "a kernel the program calls is not linked into this runtime build (a selective build without it, or a custom op never registered)";
        REGISTRATION_EXCEEDING_MAX_KERNELS = 0x15, "RegistrationExceedingMaxKernels", "more kernels were registered than the runtime has room for";
        REGISTRATION_ALREADY_REGISTERED = 0x16, "RegistrationAlreadyRegistered", "a kernel or backend was registered twice";
        NOT_FOUND = 0x20, "NotFound", "something the file refers to is not there: a delegate segment or inline blob, a backend not linked in, a key missing from the .ptd, a mutable segment";
        MEMORY_ALLOCATION_FAILED = 0x21, "MemoryAllocationFailed", "an allocator ran out: a planned tensor that does not fit its buffer, or buffers smaller than the plan";
        ACCESS_FAILED = 0x22, "AccessFailed", "the data loader could not read the file";
        INVALID_PROGRAM = 0x23, "InvalidProgram", "the program is malformed: wrong magic or header, a flatbuffer failing the verifier, a newer schema version, missing fields, indices out of range, the deprecated constant_buffer path in a build without it";
        INVALID_EXTERNAL_DATA = 0x24, "InvalidExternalData", "a .ptd (or an EXTERNAL tensor) is malformed or does not match: wrong header or identifier, missing fields, a layout that differs from the program's tensor";
        OUT_OF_RESOURCES = 0x25, "OutOfResources", "a fixed-size resource of the runtime ran out";
        DELEGATE_INVALID_COMPATIBILITY = 0x30, "DelegateInvalidCompatibility", "a delegate payload was made for another version or device of its backend";
        DELEGATE_MEMORY_ALLOCATION_FAILED = 0x31, "DelegateMemoryAllocationFailed", "a backend ran out of memory while initializing its payload";
        DELEGATE_INVALID_HANDLE = 0x32, "DelegateInvalidHandle", "a backend was handed a handle it did not create";
    }
}

impl RuntimeError {
    /// Finds a code by number (`0x23`, `35`) or by name (any case).
    ///
    /// ```
    /// assert_eq!(pte_core::RuntimeError::find("35").map(|e| e.name), Some("InvalidProgram"));
    /// assert!(pte_core::RuntimeError::find("0x99").is_none());
    /// ```
    pub fn find(what: &str) -> Option<RuntimeError> {
        let what = what.trim();
        let number = match what.strip_prefix("0x").or_else(|| what.strip_prefix("0X")) {
            Some(hex) => u32::from_str_radix(hex, 16).ok(),
            None => what.parse::<u32>().ok(),
        };
        errors::ALL.iter().copied().find(|e| Some(e.code) == number || e.name.eq_ignore_ascii_case(what))
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (0x{:02x})", self.name, self.code)
    }
}

/// When the runtime refuses: loading the program, loading a method, or
/// running it.
///
/// ```
/// assert_eq!(pte_core::Stage::LoadMethod.name(), "load_method");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// `Program::load` (and, for a `.ptd`, loading the data map beside it).
    ProgramLoad,
    /// `Program::load_method` (`Method::init`: values, tensors, delegates, kernels).
    LoadMethod,
    /// `Method::execute`.
    Execute,
}

impl Stage {
    /// The stage's name in reports: `Program::load`, `load_method`, `execute`.
    ///
    /// ```
    /// assert_eq!(pte_core::Stage::ProgramLoad.name(), "Program::load");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Stage::ProgramLoad => "Program::load",
            Stage::LoadMethod => "load_method",
            Stage::Execute => "execute",
        }
    }
}

/// What the stock runtime answers a file that breaks a rule.
///
/// ```
/// use pte_core::{errors, Refusal, Stage};
/// let r = Refusal { error: errors::INVALID_PROGRAM, stage: Stage::ProgramLoad };
/// assert_eq!(r.to_string(), "InvalidProgram (0x23) at Program::load");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Refusal {
    /// The error code returned.
    pub error: RuntimeError,
    /// When.
    pub stage: Stage,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.error, self.stage.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_found_by_both_spellings() {
        for e in errors::ALL {
            assert_eq!(RuntimeError::find(&format!("0x{:x}", e.code)), Some(*e));
            assert_eq!(RuntimeError::find(&e.code.to_string()), Some(*e));
            assert_eq!(RuntimeError::find(&e.name.to_uppercase()), Some(*e));
            assert_eq!(errors::ALL.iter().filter(|x| x.code == e.code || x.name == e.name).count(), 1);
        }
        assert_eq!(RuntimeError::find("Bogus"), None);
    }
}
