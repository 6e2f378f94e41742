//! Tolerance resolution for every combination of call, sample and set
//! levels, and the loose-tolerance warning at its exact threshold.

use pte_samples::*;

fn tol(atol: f64) -> Tolerance {
    Tolerance { atol, rtol: 0.0 }
}

fn set_with(set: Option<Tolerance>, sample: Option<Tolerance>, call: Option<Tolerance>) -> SampleSet<'static> {
    SampleSet {
        method: "forward".into(),
        name: "s".into(),
        tolerance: set,
        samples: vec![Sample {
            name: None,
            tolerance: sample,
            calls: vec![Call { inputs: vec![], outputs: vec![], tolerance: call }],
        }],
    }
}

#[test]
fn the_most_specific_level_wins_in_every_combination() {
    let (s, m, c) = (tol(1e-4), tol(2e-4), tol(3e-4));
    for mask in 0u8..8 {
        let set = set_with((mask & 1 != 0).then_some(s), (mask & 2 != 0).then_some(m), (mask & 4 != 0).then_some(c));
        let (got, level) = resolve(&set, &set.samples[0], &set.samples[0].calls[0]);
        let want = if mask & 4 != 0 {
            (c, Level::Call { sample: 0, call: 0 })
        } else if mask & 2 != 0 {
            (m, Level::Sample(0))
        } else if mask & 1 != 0 {
            (s, Level::Set)
        } else {
            (DEFAULT_TOLERANCE, Level::Default)
        };
        assert_eq!((got, level), want, "mask {mask:03b}");
        // Resolution survives the round trip.
        let enc = encode_set(&set, &SampleLimits::default()).unwrap();
        let back = parse_set(&enc.index, &enc.data, None, &SampleLimits::default()).unwrap();
        assert_eq!(resolve(&back, &back.samples[0], &back.samples[0].calls[0]), want, "mask {mask:03b} after reading");
    }
}

#[test]
fn resolution_is_per_call_and_per_sample() {
    let mut set = SampleSet::new("forward", "s");
    set.tolerance = Some(tol(1e-4));
    set.samples.push(Sample {
        name: None,
        tolerance: Some(tol(2e-4)),
        calls: vec![Call::default(), Call { tolerance: Some(tol(3e-4)), ..Call::default() }],
    });
    set.samples.push(Sample { name: None, tolerance: None, calls: vec![Call::default()] });
    assert_eq!(resolve(&set, &set.samples[0], &set.samples[0].calls[0]), (tol(2e-4), Level::Sample(0)));
    assert_eq!(
        resolve(&set, &set.samples[0], &set.samples[0].calls[1]),
        (tol(3e-4), Level::Call { sample: 0, call: 1 })
    );
    assert_eq!(resolve(&set, &set.samples[1], &set.samples[1].calls[0]), (tol(1e-4), Level::Set));
}

#[test]
fn the_warning_fires_exactly_above_the_threshold() {
    let above = f64::from_bits(WARN_TOLERANCE.to_bits() + 1);
    for (value, warns) in [(0.0, false), (1e-8, false), (WARN_TOLERANCE, false), (above, true), (0.5, true)] {
        for level in 0..3 {
            for field in 0..2 {
                let t = if field == 0 {
                    Tolerance { atol: value, rtol: 0.0 }
                } else {
                    Tolerance { atol: 0.0, rtol: value }
                };
                let set = match level {
                    0 => set_with(Some(t), None, None),
                    1 => set_with(None, Some(t), None),
                    _ => set_with(None, None, Some(t)),
                };
                let warnings = encode_set(&set, &SampleLimits::default()).unwrap().warnings;
                assert_eq!(!warnings.is_empty(), warns, "value {value} level {level} field {field}");
                if warns {
                    assert_eq!(warnings.len(), 1);
                    let want = [Level::Set, Level::Sample(0), Level::Call { sample: 0, call: 0 }][level];
                    assert_eq!(warnings[0].level, want);
                    assert_eq!(warnings[0].tolerance, t);
                }
            }
        }
    }
}

#[test]
fn a_loose_tolerance_that_no_call_resolves_to_does_not_warn() {
    // The set is loose, but every call overrides it with a tight one.
    let set = set_with(Some(tol(0.5)), None, Some(tol(1e-6)));
    assert!(encode_set(&set, &SampleLimits::default()).unwrap().warnings.is_empty());
    // The default never warns.
    assert!(encode_set(&set_with(None, None, None), &SampleLimits::default()).unwrap().warnings.is_empty());
}

#[test]
fn writers_return_warnings_with_their_origin() {
    let bytes = pte_testkit::corpus_bytes("native_ptn/model.ptn");
    let mut ptn = pte_ptn::PtnFile::from_bytes(&bytes).unwrap();
    let w = write_samples(&mut ptn, &[set_with(None, Some(tol(0.01)), None)]).unwrap();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].level, Level::Sample(0));
    assert!(w[0].to_string().contains("forward/s: sample 0"));
    let w = put_set(&mut ptn, &set_with(None, None, Some(tol(0.02))), true).unwrap();
    assert_eq!(w[0].level, Level::Call { sample: 0, call: 0 });
}
