//! The conformance suite: deterministic, fast, every class in it, every
//! verdict the verifier's.

use std::collections::BTreeSet;
use std::time::Instant;

use pte_gen::suite::{suite, RuntimeAnswer, Verdict, SUITE_VERSION};
use pte_gen::FileKind;

#[test]
fn the_suite_is_deterministic_fast_and_covers_every_class() {
    let started = Instant::now();
    let a = suite();
    let took = started.elapsed();
    assert!(took.as_secs() < 60, "generating the suite took {took:?}");
    let b = suite();
    assert_eq!(a.version, SUITE_VERSION);
    assert_eq!(a.cases.len(), b.cases.len());
    for (x, y) in a.cases.iter().zip(&b.cases) {
        assert_eq!((&x.name, &x.bytes, x.expect), (&y.name, &y.bytes, y.expect));
    }
    let names: BTreeSet<&str> = a.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), a.cases.len(), "case names are unique");
    // every class has its case, or says why not; only link rules may be left out
    for class in pte_gen::classes() {
        let has = a.cases.iter().any(|c| c.class == Some(class.name));
        let why = a.left_out.iter().find(|(c, _)| *c == class.name).map(|(_, w)| w.as_str());
        assert!(has ^ why.is_some(), "{}: in the suite {has}, left out {why:?}", class.name);
        if let Some(why) = why {
            assert!(class.rule.name().starts_with("link."), "{} left out: {why}", class.name);
        }
    }
    // valid files of every kind, invalid ones too
    for kind in [FileKind::Pte, FileKind::Ptd, FileKind::Ptn, FileKind::Bpte] {
        for v in [Verdict::Accept, Verdict::Refuse] {
            assert!(a.cases.iter().any(|c| c.kind == kind && c.expect == v), "no {v:?} case of {kind:?}");
        }
    }
    assert!(a.invalid() >= 80, "{} invalid cases", a.invalid());
}

#[test]
fn invalid_program_cases_carry_the_runtime_answer_of_their_rule() {
    let s = suite();
    let loads = s.cases.iter().filter(|c| c.runtime == Some(RuntimeAnswer::Loads)).count();
    assert!(loads >= 15, "{loads} cases the runtime loads");
    for c in &s.cases {
        match (c.class.and_then(pte_gen::find), c.runtime) {
            (Some(class), runtime) => {
                assert_eq!(
                    runtime,
                    class.rule.refusal().filter(|_| c.kind.is_pte()).map(RuntimeAnswer::Refuses),
                    "{}",
                    c.name
                )
            }
            (None, runtime) => assert!(runtime.is_none() || c.kind.is_pte(), "{}", c.name),
        }
        // a refused case names what it breaks; an accepted one breaks nothing
        assert_eq!(
            c.expect == Verdict::Refuse,
            !c.violations.is_empty() || pte_gen::judge(c.kind, &c.bytes).error.is_some(),
            "{}",
            c.name
        );
    }
}
