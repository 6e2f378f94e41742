//! Bounds applied when reading a sidecar; the writer refuses a set that
//! would break them.

use pte_ptn::PtnLimits;

/// Limits for reading samples.
///
/// ```
/// let l = pte_samples::SampleLimits::default();
/// assert_eq!(l.max_index_size, 64 << 20);
/// assert!(pte_samples::SampleLimits::unlimited().max_calls > l.max_calls);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleLimits {
    /// Largest `index.json`, in bytes.
    pub max_index_size: usize,
    /// Most sets in one package.
    pub max_sets: usize,
    /// Most samples in one set.
    pub max_samples: usize,
    /// Most calls in one sample.
    pub max_calls: usize,
    /// Most inputs or outputs in one call.
    pub max_values: usize,
    /// Most tensors in one tensor list.
    pub max_list_len: usize,
    /// Longest string value or sample name, in bytes.
    pub max_string_len: usize,
    /// Bounds for `data.safetensors` (header size, tensor count, key length).
    pub safetensors: PtnLimits,
}

impl Default for SampleLimits {
    fn default() -> Self {
        SampleLimits {
            max_index_size: 64 << 20,
            max_sets: 4096,
            max_samples: 100_000,
            max_calls: 100_000,
            max_values: 4096,
            max_list_len: 4096,
            max_string_len: 1 << 20,
            safetensors: PtnLimits::default(),
        }
    }
}

impl SampleLimits {
    /// No bounds beyond what memory allows.
    ///
    /// ```
    /// assert_eq!(pte_samples::SampleLimits::unlimited().max_sets, usize::MAX);
    /// ```
    pub fn unlimited() -> Self {
        SampleLimits {
            max_index_size: usize::MAX,
            max_sets: usize::MAX,
            max_samples: usize::MAX,
            max_calls: usize::MAX,
            max_values: usize::MAX,
            max_list_len: usize::MAX,
            max_string_len: usize::MAX,
            safetensors: PtnLimits::unlimited(),
        }
    }
}
