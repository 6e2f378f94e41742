//! Blind mutations for differential testing against other loaders: small,
//! deterministic (seeded) edits of a valid file, each named by what it did.

/// A tiny deterministic generator (xorshift64*): mutants must be
/// reproducible from their seed on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator; seed 0 is remapped (xorshift needs a non-zero state).
    ///
    /// ```
    /// let mut a = pte_gen::Rng::new(7);
    /// let mut b = pte_gen::Rng::new(7);
    /// assert_eq!(a.next_u64(), b.next_u64());
    /// ```
    pub fn new(seed: u64) -> Self {
        Rng(if seed == 0 { 0x9E37_79B9_7F4A_7C15 } else { seed })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A value in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        usize::try_from(self.next_u64().checked_rem(n as u64).unwrap_or(0)).unwrap_or(0)
    }
}

/// Interesting 32-bit values for overwriting offsets, lengths and indices.
const WORDS: [u32; 10] = [0, 1, 2, 0x7F, 0xFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0xFFFF_FFFE, 0x100];

/// `count` mutants of `input`, each one edit: a bit flip, a byte set to 0 or
/// 0xFF, an aligned 32-bit word overwritten with an interesting value, or a
/// truncation. Named `flip@OFFSET.BIT`, `byte@OFFSET=V`, `word@OFFSET=V`, `cut@LEN`.
///
/// ```
/// let m = pte_gen::random_mutants(&[0u8; 64], 1, 10);
/// assert_eq!(m.len(), 10);
/// assert!(m.iter().all(|(_, b)| b != &[0u8; 64]));
/// assert_eq!(m, pte_gen::random_mutants(&[0u8; 64], 1, 10));
/// ```
pub fn random_mutants(input: &[u8], seed: u64, count: usize) -> Vec<(String, Vec<u8>)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut attempts = 0usize;
    while out.len() < count && !input.is_empty() && attempts < count.saturating_mul(4) {
        attempts = attempts.saturating_add(1);
        let at = rng.below(input.len());
        let mut b = input.to_vec();
        let name = match rng.below(8) {
            0..=2 => {
                let bit = rng.below(8);
                if let Some(x) = b.get_mut(at) {
                    *x ^= 1u8 << bit;
                }
                format!("flip@{at}.{bit}")
            }
            3 => {
                let v = if rng.below(2) == 0 { 0u8 } else { 0xFF };
                if let Some(x) = b.get_mut(at) {
                    *x = v;
                }
                format!("byte@{at}={v}")
            }
            4..=6 => {
                let at = at & !3;
                let v = WORDS.get(rng.below(WORDS.len())).copied().unwrap_or(0);
                if let Some(w) = b.get_mut(at..at.saturating_add(4)) {
                    w.copy_from_slice(&v.to_le_bytes());
                }
                format!("word@{at}={v:#x}")
            }
            _ => {
                b.truncate(at);
                format!("cut@{at}")
            }
        };
        if b != input {
            out.push((name, b));
        }
    }
    out
}
