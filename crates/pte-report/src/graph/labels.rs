//! Edge labels (`float32 [4]`), each made once per value and shared between
//! the values that read the same: a program of a million tensors has a
//! handful of distinct labels, not a million strings.

use std::collections::HashMap;

/// Distinct labels kept; past this many (a hostile program giving each
/// tensor its own shape), a label is made again each time it is asked for.
const MAX_KEPT: usize = 4096;

/// No label made yet for the value.
const UNSEEN: u32 = u32::MAX;
/// The value's label is not kept (the table was full).
const UNKEPT: u32 = u32::MAX - 1;

pub(super) struct Labels {
    of_value: Vec<u32>,
    kept: Vec<String>,
    index: HashMap<String, u32>,
    scratch: String,
}

impl Labels {
    pub(super) fn new(values: usize) -> Self {
        Labels { of_value: vec![UNSEEN; values], kept: vec![], index: HashMap::new(), scratch: String::new() }
    }

    /// The label of value `i`, made by `make` the first time.
    pub(super) fn get(&mut self, i: i32, make: impl FnOnce() -> String) -> &str {
        let slot = usize::try_from(i).ok().filter(|&i| i < self.of_value.len());
        let known = slot.and_then(|s| self.of_value.get(s)).copied().unwrap_or(UNKEPT);
        if known != UNSEEN && known != UNKEPT {
            return self.kept.get(known as usize).map_or("", String::as_str);
        }
        let text = make();
        let at = match self.index.get(&text) {
            Some(&k) => Some(k),
            None if self.kept.len() < MAX_KEPT => {
                let k = u32::try_from(self.kept.len()).unwrap_or(UNKEPT);
                self.index.insert(text.clone(), k);
                self.kept.push(text.clone());
                Some(k)
            }
            None => None,
        };
        if let (Some(s), Some(k)) = (slot, at)
            && let Some(v) = self.of_value.get_mut(s)
        {
            *v = k;
        }
        match at.and_then(|k| self.kept.get(k as usize)) {
            Some(l) => l,
            None => {
                self.scratch = text;
                &self.scratch
            }
        }
    }
}
