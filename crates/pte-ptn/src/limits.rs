//! Bounds applied while reading untrusted packages.

use pte_schema::Limits;

/// The most bytes a package's deflated members may inflate to, each and in
/// all, by default ([`PtnLimits::max_inflated_size`],
/// [`PtnLimits::max_total_inflated`]). Inflated bytes are held whole beside
/// the mapped input (the program and safetensors parsers read one slice),
/// so they count against every command's budget of 64 MiB plus twice the
/// input; `diff` holds two packages, so two of these and the command's own
/// work fit in 64 MiB. Nothing needs more: upstream's C++ reader serves
/// stored members only (rule `ptn.stored`), exir writes them stored, and a
/// stored member of any size is read in place.
///
/// ```
/// assert_eq!(pte_ptn::MAX_INFLATED, 16 << 20);
/// assert_eq!(pte_ptn::PtnLimits::default().max_total_inflated, pte_ptn::MAX_INFLATED);
/// ```
pub const MAX_INFLATED: u64 = 16 << 20;

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
    /// The caps of upstream's C++ package reader, which the verifier checks
    /// (each breach is a `ptn.limit.*` rule, not a read error).
    pub caps: PtnCaps,
}

/// The caps upstream ExecuTorch's C++ `.ptn` reader applies (its zip,
/// safetensors and package readers): a package past one is refused there, so
/// `pte verify` reports it under a `ptn.limit.*` rule even where this
/// workspace's own reader, built for what exir's Python reader accepts, reads
/// it. [`PtnCaps::default`] holds upstream's values.
///
/// ```
/// let c = pte_ptn::PtnCaps::default();
/// assert_eq!((c.max_program, c.max_json_depth, c.max_dim), (1 << 30, 64, (1 << 31) - 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PtnCaps {
    /// Largest `program.ptg`, in bytes (1 GiB).
    pub max_program: u64,
    /// Largest `*.json` member, in bytes (64 MiB).
    pub max_json_member: u64,
    /// Deepest nesting of arrays and objects in a JSON member or the
    /// safetensors header (64).
    pub max_json_depth: usize,
    /// Highest tensor rank (64).
    pub max_rank: usize,
    /// Largest tensor dimension (2^31 - 1: each dimension is below 2^31).
    pub max_dim: u64,
    /// Most zip members (2^20).
    pub max_members: u64,
    /// Most tensors in `program.safetensors` (2^20).
    pub max_tensors: u64,
    /// Most aliases in `aliases.json` (2^20).
    pub max_aliases: u64,
    /// Largest package: its length and its members' declared sizes (2^40 bytes).
    pub max_package: u64,
    /// Most constant bytes: the end of the safetensors data (2^40).
    pub max_constant_bytes: u64,
}

impl Default for PtnCaps {
    fn default() -> Self {
        PtnCaps {
            max_program: 1 << 30,
            max_json_member: 64 << 20,
            max_json_depth: 64,
            max_rank: 64,
            max_dim: (1 << 31) - 1,
            max_members: 1 << 20,
            max_tensors: 1 << 20,
            max_aliases: 1 << 20,
            max_package: 1 << 40,
            max_constant_bytes: 1 << 40,
        }
    }
}

impl PtnCaps {
    /// No caps.
    ///
    /// ```
    /// assert_eq!(pte_ptn::PtnCaps::unlimited().max_rank, usize::MAX);
    /// ```
    pub fn unlimited() -> Self {
        PtnCaps {
            max_program: u64::MAX,
            max_json_member: u64::MAX,
            max_json_depth: usize::MAX,
            max_rank: usize::MAX,
            max_dim: u64::MAX,
            max_members: u64::MAX,
            max_tensors: u64::MAX,
            max_aliases: u64::MAX,
            max_package: u64::MAX,
            max_constant_bytes: u64::MAX,
        }
    }
}

impl Default for PtnLimits {
    fn default() -> Self {
        PtnLimits {
            max_members: 65_536,
            max_member_name: 4096,
            // exir stores members; deflate is tolerated, not a way to make
            // a small file cost more than the budget
            max_inflated_size: MAX_INFLATED,
            max_total_inflated: MAX_INFLATED,
            max_json_member: 64 << 20,
            max_safetensors_header: 100_000_000,
            max_tensors: 1_000_000,
            max_key_len: 4096,
            max_aliases_size: 64 << 20,
            flatbuffer: Limits::default(),
            caps: PtnCaps::default(),
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
            caps: PtnCaps::unlimited(),
        }
    }
}
