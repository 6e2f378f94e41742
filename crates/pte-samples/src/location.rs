//! Where a sample set lives inside a package: the member paths of its
//! index and its tensor data.

use crate::{DATA_FILE, INDEX_FILE, SAMPLES_DIR};

/// Where a set is stored: the member paths of its two files.
///
/// ```
/// let loc = pte_samples::Location::new("forward", "smoke");
/// assert_eq!(loc.index_member(), "samples/forward/smoke/index.json");
/// assert_eq!(loc.data_member(), "samples/forward/smoke/data.safetensors");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// Method directory name.
    pub method: String,
    /// Set directory name.
    pub set: String,
}

impl Location {
    /// A location from its two names.
    ///
    /// ```
    /// assert_eq!(pte_samples::Location::new("a", "b").set, "b");
    /// ```
    pub fn new(method: impl Into<String>, set: impl Into<String>) -> Self {
        Location { method: method.into(), set: set.into() }
    }

    /// `samples/<method>/<set>/index.json`.
    ///
    /// ```
    /// assert!(pte_samples::Location::new("a", "b").index_member().ends_with("/index.json"));
    /// ```
    pub fn index_member(&self) -> String {
        format!("{SAMPLES_DIR}/{}/{}/{INDEX_FILE}", self.method, self.set)
    }

    /// `samples/<method>/<set>/data.safetensors`.
    ///
    /// ```
    /// assert!(pte_samples::Location::new("a", "b").data_member().ends_with("/data.safetensors"));
    /// ```
    pub fn data_member(&self) -> String {
        format!("{SAMPLES_DIR}/{}/{}/{DATA_FILE}", self.method, self.set)
    }
}
