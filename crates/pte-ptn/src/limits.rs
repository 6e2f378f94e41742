//! Bounds applied while reading untrusted packages.

use pte_schema::Limits;

/// Bounds on what reading a `.ptn` may cost. Stored members are borrowed, so
/// their size is bounded by the input itself; the limits cap what a reader
/// would otherwise allocate from declared numbers (decompressed sizes, the
/// safetensors JSON header, counts).
///
/// The writer checks the same defaults before writing anything, so a package
/// it writes is always readable with [`PtnLimits::default`].
///
/// ```
/// let l = pte_ptn::PtnLimits::default();
/// assert_eq!(l.max_safetensors_header, 100_000_000);
/// assert!(pte_ptn::PtnLimits::unlimited().max_members > l.max_members);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PtnLimits {
    /// Most zip members.
    pub max_members: usize,
    /// Longest member name, in bytes.
    pub max_member_name: usize,
    /// Largest decompressed size of a deflated member (stored members are
    /// borrowed and need no bound). Checked against the declared size before
    /// inflating; inflation stops one byte past the declared size.
    pub max_inflated_size: u64,
    /// Largest decompressed size of all deflated members together.
    pub max_total_inflated: u64,
    /// Largest decompressed size of a deflated `*.json` member (the alias
    /// map, sample indexes).
    pub max_json_member: u64,
    /// Largest safetensors JSON header, in bytes (the safetensors crate's own cap).
    pub max_safetensors_header: usize,
    /// Most tensors in `program.safetensors`.
    pub max_tensors: usize,
    /// Longest tensor key or alias, in bytes.
    pub max_key_len: usize,
    /// Largest `aliases.json`, in bytes.
    pub max_aliases_size: usize,
    /// Bounds for the NPTG flatbuffer verifier.
    pub flatbuffer: Limits,
}

impl Default for PtnLimits {
    fn default() -> Self {
        PtnLimits {
            max_members: 65_536,
            max_member_name: 4096,
            // exir stores members; deflate is tolerated, not a way to make
            // a small file cost gigabytes
            max_inflated_size: 256 << 20,
            max_total_inflated: 256 << 20,
            max_json_member: 64 << 20,
            max_safetensors_header: 100_000_000,
            max_tensors: 1_000_000,
            max_key_len: 4096,
            max_aliases_size: 64 << 20,
            flatbuffer: Limits::default(),
        }
    }
}

impl PtnLimits {
    /// No bounds beyond what the formats can address.
    ///
    /// ```
    /// assert_eq!(pte_ptn::PtnLimits::unlimited().max_tensors, usize::MAX);
    /// ```
    pub fn unlimited() -> Self {
        PtnLimits {
            max_members: usize::MAX,
            max_member_name: usize::MAX,
            max_inflated_size: u64::MAX,
            max_total_inflated: u64::MAX,
            max_json_member: u64::MAX,
            max_safetensors_header: usize::MAX,
            max_tensors: usize::MAX,
            max_key_len: usize::MAX,
            max_aliases_size: usize::MAX,
            flatbuffer: Limits::unlimited(),
        }
    }
}
