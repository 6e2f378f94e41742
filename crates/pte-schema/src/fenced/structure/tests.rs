//! The schema description against the generated verifiers: every table the
//! generated code verifies is described here with the same fields, slots,
//! types and union members, and nothing here is absent from it. A schema
//! regenerated without updating `program.rs` fails this test.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::collections::{BTreeMap, BTreeSet};

use super::schema::PROGRAM;
use super::{Field, Kind, Table, Width};

const GENERATED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/fenced/generated/program/executorch_flatbuffer");

/// One verified field as the generated code states it: (slot, type text).
type Fields = BTreeMap<String, (u16, String)>;

/// What the generated sources say: each table's verified fields, each union
/// key's members by tag, and each one-byte enum's representation.
struct Generated {
    tables: BTreeMap<String, Fields>,
    unions: BTreeMap<String, BTreeMap<u8, String>>,
    enums: BTreeMap<String, String>,
}

fn between<'a>(s: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = s.find(open)? + open.len();
    let end = s[start..].find(close)? + start;
    Some(&s[start..end])
}

fn generated() -> Generated {
    let mut g = Generated { tables: BTreeMap::new(), unions: BTreeMap::new(), enums: BTreeMap::new() };
    for entry in std::fs::read_dir(GENERATED).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("pub struct ")
                && let Some(repr) = between(rest, "(pub ", ");")
            {
                g.enums.insert(rest[..rest.find('(').unwrap()].to_string(), repr.to_string());
            }
        }
        // each enum file holds one enum: its variants are `pub const V: Self = Self(n);`
        if let Some(name) = text.lines().find_map(|l| l.strip_prefix("pub struct ").filter(|r| r.contains("(pub "))) {
            let name = name[..name.find('(').unwrap()].to_string();
            let mut variants = BTreeMap::new();
            for l in text.lines().map(str::trim) {
                if let (Some(variant), Some(n)) = (between(l, "pub const ", ": Self"), between(l, "Self(", ")")) {
                    variants.insert(n.parse::<u8>().unwrap(), variant.to_string());
                }
            }
            g.unions.insert(name, variants);
        }
        let Some(table) = between(&text, "impl ::flatbuffers::Verifiable for ", "<'_>") else { continue };
        let mut slots = BTreeMap::new();
        for line in text.lines() {
            if let (Some(name), Some(n)) = (between(line, "pub const VT_", ":"), line.rsplit("= ").next())
                && let Ok(n) = n.trim_end_matches(';').parse::<u16>()
            {
                slots.insert(name.to_string(), n);
            }
        }
        let slot = |vt: &str| slots[vt.trim_start_matches("Self::VT_")];
        let mut fields = Fields::new();
        for line in text.lines().map(str::trim) {
            if let Some(rest) = line.strip_prefix(".visit_field::<") {
                let (ty, rest) = rest.split_once(">(\"").unwrap();
                let (name, rest) = rest.split_once("\", ").unwrap();
                let vt = rest.split(',').next().unwrap();
                fields.insert(name.to_string(), (slot(vt), ty.to_string()));
            } else if let Some(rest) = line.strip_prefix(".visit_union::<") {
                let (key, rest) = rest.split_once(", _>(\"").unwrap();
                let parts: Vec<&str> = rest.split(", ").collect();
                let tag = slot(parts[1]);
                let name = parts[2].trim_matches('"');
                fields.insert(name.to_string(), (slot(parts[3]), format!("union {key} tag {tag}")));
            }
        }
        // the union arms name the member tables: `Key::Variant => ...<ForwardsUOffset<T>>`
        for line in text.lines().map(str::trim) {
            if let (Some(arm), Some(ty)) = (
                line.split_once(" => v.verify_union_variant").map(|(arm, _)| arm),
                between(line, "ForwardsUOffset<", ">>"),
            ) {
                assert_eq!(arm.rsplit("::").next(), Some(ty), "union arm {arm} names its own table");
            }
        }
        g.tables.insert(table.to_string(), fields);
    }
    g
}

fn width_name(w: Width, enums: &BTreeMap<String, String>, ty: &str) -> bool {
    let prim = enums.get(ty).map_or(ty, String::as_str);
    let expected = match prim {
        "bool" => Width::of::<bool>(),
        "i8" => Width::of::<i8>(),
        "u8" => Width::of::<u8>(),
        "i16" => Width::of::<i16>(),
        "u16" => Width::of::<u16>(),
        "i32" => Width::of::<i32>(),
        "u32" => Width::of::<u32>(),
        "f32" => Width::of::<f32>(),
        "i64" => Width::of::<i64>(),
        "u64" => Width::of::<u64>(),
        "f64" => Width::of::<f64>(),
        _ => return false,
    };
    w == expected
}

/// Compares `desc` and every table under it with the generated code.
fn compare(desc: &'static Table, g: &Generated, seen: &mut BTreeSet<&'static str>) {
    if !seen.insert(desc.name) {
        return;
    }
    let fields = g.tables.get(desc.name).unwrap_or_else(|| panic!("no generated verifier for {}", desc.name));
    let ours: BTreeSet<&str> = desc.fields.iter().map(|f| f.name).collect();
    let theirs: BTreeSet<&str> = fields.keys().map(String::as_str).collect();
    assert_eq!(ours, theirs, "fields of {}", desc.name);
    // the walk stops at the first field beyond a vtable, so order matters
    let firsts: Vec<u16> = desc.fields.iter().map(Field::first_slot).collect();
    assert!(firsts.windows(2).all(|w| w[0] < w[1]), "{}: fields out of slot order {firsts:?}", desc.name);
    for f in desc.fields {
        let (slot, ty) = &fields[f.name];
        let at = format!("{}.{}", desc.name, f.name);
        assert_eq!(f.slot, *slot, "slot of {at}");
        let vector_of = |ty: &str| {
            ty.strip_prefix("::flatbuffers::ForwardsUOffset<::flatbuffers::Vector<'_, ")
                .and_then(|t| t.strip_suffix(">>"))
                .map(str::to_string)
        };
        match f.kind {
            Kind::Scalar(w) => assert!(width_name(w, &g.enums, ty), "{at}: {ty} is not {w:?}"),
            Kind::Str => assert_eq!(ty, "::flatbuffers::ForwardsUOffset<&str>", "{at}"),
            Kind::Scalars(w) => {
                let elem = vector_of(ty).unwrap_or_else(|| panic!("{at}: {ty} is not a vector"));
                // 8-byte elements are verified at any alignment, as the
                // runtime verifies them (regen-schema.sh wraps them), and
                // only those: smaller ones follow an aligned length word
                let unwrapped = elem.strip_prefix("crate::fenced::Unaligned<").and_then(|e| e.strip_suffix('>'));
                assert_eq!(unwrapped.is_some(), w.size == 8, "{at}: {ty} (element alignment)");
                let elem = unwrapped.map_or(elem.clone(), str::to_string);
                assert!(width_name(w, &g.enums, &elem), "{at}: {ty} is not a vector of {w:?}");
            }
            Kind::Table(sub) => {
                assert_eq!(*ty, format!("::flatbuffers::ForwardsUOffset<{}>", sub.name), "{at}");
                compare(sub, g, seen);
            }
            Kind::Tables(sub) => {
                let expected = format!(
                    "::flatbuffers::ForwardsUOffset<::flatbuffers::Vector<'_, ::flatbuffers::ForwardsUOffset<{}>>>",
                    sub.name
                );
                assert_eq!(*ty, expected, "{at}");
                compare(sub, g, seen);
            }
            Kind::Union { tag, members } => {
                let key = between(ty, "union ", " tag").unwrap();
                assert_eq!(*ty, format!("union {key} tag {tag}"), "{at}: tag slot");
                let variants = &g.unions[key];
                assert_eq!(members.len(), variants.len(), "{at}: members of {key}");
                for (t, member) in members.iter().enumerate() {
                    let variant = &variants[&u8::try_from(t).unwrap()];
                    match member {
                        None => assert_eq!(variant, "NONE", "{at}: tag {t}"),
                        Some(sub) => {
                            assert_eq!(variant, sub.name, "{at}: tag {t}");
                            compare(sub, g, seen);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn the_description_matches_the_generated_verifiers() {
    let g = generated();
    let mut seen = BTreeSet::new();
    compare(&PROGRAM, &g, &mut seen);
    let generated: BTreeSet<&str> = g.tables.keys().map(String::as_str).collect();
    assert_eq!(seen, generated, "every generated table is described");
    assert!(seen.len() > 30, "{seen:?}");
}

/// Each table type keeps its last vtable in a place of its own: two types
/// sharing one would only cost time, but a number past the end would leave
/// a type unremembered, and a count too large wastes the walk's room.
#[test]
fn every_table_type_has_its_own_number() {
    let mut all = vec![];
    reachable(&PROGRAM, &mut all);
    let mut ids = std::collections::BTreeMap::new();
    for t in &all {
        assert!(t.id < super::schema::TABLE_TYPES, "{} is #{}", t.name, t.id);
        if let Some(other) = ids.insert(t.id, t.name) {
            panic!("{} and {other} are both #{}", t.name, t.id);
        }
    }
    assert_eq!(ids.len(), super::schema::TABLE_TYPES, "{ids:?}");
}

/// Limits as large as they go still verify a program, as the reference
/// verifier does: the counter's ceiling stands in for them without refusing
/// anything a limit would accept (a ceiling too low would refuse this).
#[test]
fn the_largest_limits_are_held_under_the_counters_ceiling() {
    let p = crate::encode_program(&crate::Program::default(), &Default::default()).unwrap();
    let limits = crate::Limits {
        max_apparent_size: usize::MAX,
        apparent_size_factor: usize::MAX,
        max_tables: Some(usize::MAX),
        ..Default::default()
    };
    assert!(super::check_program(&p, &limits, None).is_ok());
    let tight = crate::Limits { max_apparent_size: 8, apparent_size_factor: usize::MAX, ..Default::default() };
    assert!(super::check_program(&p, &tight, None).is_err());
}

/// Every table type reachable from `desc`, once each.
fn reachable(desc: &'static Table, out: &mut Vec<&'static Table>) {
    if out.iter().any(|t| std::ptr::eq(*t, desc)) {
        return;
    }
    out.push(desc);
    for f in desc.fields {
        match f.kind {
            Kind::Table(sub) | Kind::Tables(sub) => reachable(sub, out),
            Kind::Union { members, .. } => members.iter().flatten().for_each(|sub| reachable(sub, out)),
            _ => {}
        }
    }
}

/// The element checks read the table a union member's walk notes: exactly
/// the members of the unions must note theirs (a member that did not would
/// hand the checks no table), and no member may reach another (whose note
/// would replace its own).
#[test]
fn exactly_the_union_members_note_their_tables_and_none_reaches_another() {
    let mut all = vec![];
    reachable(&PROGRAM, &mut all);
    let members: Vec<&'static Table> = all
        .iter()
        .flat_map(|t| t.fields.iter())
        .filter_map(|f| match f.kind {
            Kind::Union { members, .. } => Some(members.iter().flatten().copied()),
            _ => None,
        })
        .flatten()
        .collect();
    assert!(members.len() > 10, "{members:?}");
    for t in &all {
        let is_member = members.iter().any(|m| std::ptr::eq(*m, *t));
        assert_eq!(t.member, is_member, "{}: noted as a member {}, a union member {is_member}", t.name, t.member);
    }
    for m in &members {
        let mut under = vec![];
        reachable(m, &mut under);
        for t in under.iter().skip(1) {
            assert!(!t.member, "{} reaches {}, also a union member", m.name, t.name);
        }
    }
}
