//! Alignment arithmetic on file-derived numbers: every operation is checked.
//!
//! exir uses plain modulo, so these work for any positive alignment, not only
//! powers of two (named-data alignments of 3 or 24 exist in its tests).

use crate::{Error, ErrorKind, Result};

/// `x` rounded up to a multiple of `a` (`a` = 0 is treated as 1); `None` on overflow.
///
/// ```
/// use pte_segments::align::aligned;
/// assert_eq!(aligned(33, 16), Some(48));
/// assert_eq!(aligned(48, 16), Some(48));
/// assert_eq!(aligned(385, 384), Some(768));
/// assert_eq!(aligned(u64::MAX, 16), None);
/// ```
pub fn aligned(x: u64, a: u64) -> Option<u64> {
    x.checked_add(padding(x, a))
}

/// Zero bytes needed after `x` to reach a multiple of `a` (`a` = 0 is treated as 1).
///
/// ```
/// assert_eq!(pte_segments::align::padding(20, 16), 12);
/// assert_eq!(pte_segments::align::padding(32, 16), 0);
/// ```
pub fn padding(x: u64, a: u64) -> u64 {
    let a = a.max(1);
    match x.checked_rem(a) {
        Some(0) | None => 0,
        Some(r) => a.saturating_sub(r),
    }
}

/// Greatest common divisor.
///
/// ```
/// assert_eq!(pte_segments::align::gcd(128, 24), 8);
/// ```
pub fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let r = a.checked_rem(b).unwrap_or(0);
        a = b;
        b = r;
    }
    a
}

/// Least common multiple (0 counts as 1); `None` on overflow.
///
/// ```
/// assert_eq!(pte_segments::align::lcm(128, 3), Some(384));
/// assert_eq!(pte_segments::align::lcm(128, 256), Some(256));
/// assert_eq!(pte_segments::align::lcm(0, 16), Some(16));
/// ```
pub fn lcm(a: u64, b: u64) -> Option<u64> {
    let (a, b) = (a.max(1), b.max(1));
    a.checked_div(gcd(a, b))?.checked_mul(b)
}

/// Checks that `value` is a power of two no larger than `max`, naming the option.
///
/// ```
/// assert!(pte_segments::align::require_power_of_two("tensor alignment", 64, 1 << 16).is_ok());
/// assert!(pte_segments::align::require_power_of_two("tensor alignment", 14, 1 << 16).is_err());
/// ```
pub fn require_power_of_two(what: &str, value: u64, max: u64) -> Result<()> {
    if value.is_power_of_two() && value <= max {
        Ok(())
    } else {
        Err(Error::new(
            ErrorKind::InvalidUse,
            format!("{what} must be a power of two between 1 and {max}, got {value}"),
        ))
    }
}

/// Checks that `value` is a positive alignment no larger than `max` (any integer, as exir allows).
///
/// ```
/// assert!(pte_segments::align::require_positive("segment alignment", 12, 1 << 30).is_ok());
/// assert!(pte_segments::align::require_positive("segment alignment", 0, 1 << 30).is_err());
/// ```
pub fn require_positive(what: &str, value: u64, max: u64) -> Result<()> {
    if value >= 1 && value <= max {
        Ok(())
    } else {
        Err(Error::new(ErrorKind::InvalidUse, format!("{what} must be between 1 and {max}, got {value}")))
    }
}

/// The largest power of two dividing `x` (capped at `cap`; `x` = 0 gives `cap`).
///
/// ```
/// assert_eq!(pte_segments::align::power_of_two_dividing(384, 4096), 128);
/// assert_eq!(pte_segments::align::power_of_two_dividing(0, 4096), 4096);
/// ```
pub fn power_of_two_dividing(x: u64, cap: u64) -> u64 {
    if x == 0 {
        return cap;
    }
    let p = 1u64.checked_shl(x.trailing_zeros()).unwrap_or(cap);
    p.min(cap)
}
