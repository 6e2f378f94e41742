//! Neighbour lists of many vertices in two flat vectors, filled in input
//! order so that every traversal, and so the drawing, depends only on the
//! input.

/// Rows of `usize` items, one row per vertex.
pub(crate) struct Csr {
    start: Vec<usize>,
    items: Vec<usize>,
}

impl Csr {
    /// Rows `0..rows` holding, for each `(row, item)` pair in order, `item`;
    /// pairs naming a row past the end are dropped.
    pub(crate) fn new(rows: usize, pairs: &[(usize, usize)]) -> Csr {
        let mut start = vec![0usize; rows.saturating_add(1)];
        for &(row, _) in pairs {
            if row < rows
                && let Some(count) = start.get_mut(row.saturating_add(1))
            {
                *count = count.saturating_add(1);
            }
        }
        let mut total = 0usize;
        for s in start.iter_mut() {
            total = total.saturating_add(*s);
            *s = total;
        }
        let mut next = start.clone();
        let mut items = vec![0usize; total];
        for &(row, item) in pairs {
            if row >= rows {
                continue;
            }
            if let Some(at) = next.get_mut(row) {
                if let Some(slot) = items.get_mut(*at) {
                    *slot = item;
                }
                *at = at.saturating_add(1);
            }
        }
        Csr { start, items }
    }

    /// The items of `row`, empty past the end.
    pub(crate) fn row(&self, row: usize) -> &[usize] {
        let from = self.start.get(row).copied().unwrap_or(0);
        let to = self.start.get(row.saturating_add(1)).copied().unwrap_or(from);
        self.items.get(from..to).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::Csr;

    #[test]
    fn rows_keep_input_order_and_drop_out_of_range() {
        let c = Csr::new(3, &[(2, 7), (0, 1), (2, 5), (9, 9), (0, 4)]);
        assert_eq!(c.row(0), &[1, 4]);
        assert!(c.row(1).is_empty());
        assert_eq!(c.row(2), &[7, 5]);
        assert!(c.row(3).is_empty());
    }
}
