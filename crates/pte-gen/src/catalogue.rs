//! The named corruption classes.

use pte_ptn::verify::rules as ptn_rules;
use pte_samples::rules as samples_rules;
use pte_schema::{ErrorKind, InstructionArguments, KernelTypes, ScalarType};
use pte_verify::rules as pte_rules;

use crate::corruption::{class, Corruption};
use crate::edit::*;
use crate::judge::Expect;
use pte_core::FileKind;

mod edits;
use edits::*;

const MALFORMED: Expect = Expect::Kind(ErrorKind::Malformed);

/// The classes, in file-kind order. Every class has a test (in
/// `tests/catalogue.rs`) that applies it to a corpus file and checks
/// [`Corruption::expect`].
pub static CATALOGUE: &[Corruption] = &[
    class!(
        "pte.bad-identifier",
        pte_rules::FLATBUFFER_IDENTIFIER,
        Pte,
        "the ET12 file identifier at byte 4 is changed",
        MALFORMED,
        |b| {
            let mut b = b.to_vec();
            b.get_mut(4..8).ok_or("too short")?.copy_from_slice(b"ET99");
            Ok(b)
        }
    ),
    class!(
        "pte.header-length",
        pte_rules::HEADER_LENGTH,
        Pte,
        "the eh00 header declares a length below its 24-byte minimum",
        MALFORMED,
        |b| {
            header_len(b)?;
            let mut b = b.to_vec();
            put_u32(&mut b, 12, 4)?;
            Ok(b)
        }
    ),
    class!(
        "pte.header-program-size",
        pte_rules::HEADER_PROGRAM_SIZE,
        Pte,
        "eh00 program_size is u64::MAX",
        MALFORMED,
        |b| {
            header_len(b)?;
            let mut b = b.to_vec();
            put_u64(&mut b, 16, u64::MAX)?;
            Ok(b)
        }
    ),
    class!(
        "pte.header-sum-wraps",
        pte_rules::HEADER_FILE_SIZE,
        Pte,
        "eh00 segment_base_offset + segment_data_size wraps u64",
        MALFORMED,
        |b| {
            header_len(b)?;
            let mut b = b.to_vec();
            put_u64(&mut b, 24, u64::MAX - 0xF)?;
            put_u64(&mut b, 32, 0x100)?;
            Ok(b)
        }
    ),
    class!(
        "pte.segment-base-past-end",
        pte_rules::SEGMENT_BOUNDS,
        Pte,
        "segments start at the end of the file, so every segment lies outside it",
        MALFORMED,
        |b| {
            header_len(b)?;
            let mut out = b.to_vec();
            put_u64(&mut out, 24, b.len() as u64)?;
            Ok(out)
        }
    ),
    class!(
        "pte.zero-offset",
        pte_rules::FLATBUFFER_STRUCTURE,
        Pte,
        "the root table's execution_plan offset is 0, pointing at itself",
        MALFORMED,
        |b| {
            let mut b = b.to_vec();
            let slot = field_slot(&b, follow(&b, 0)?, 6)?;
            put_u32(&mut b, slot, 0)?;
            Ok(b)
        }
    ),
    class!(
        "pte.root-offset",
        pte_rules::FLATBUFFER_ROOT_OFFSET,
        Pte,
        "the flatbuffer root offset points past the end",
        MALFORMED,
        |b| {
            let mut b = b.to_vec();
            put_u32(&mut b, 0, 0xFFFF_FF00)?;
            Ok(b)
        }
    ),
    class!(
        "pte.invalid-utf8",
        pte_rules::FLATBUFFER_STRUCTURE,
        Pte,
        "a method name holds a byte that is not UTF-8",
        MALFORMED,
        |b| {
            let mut b = b.to_vec();
            replace_first(&mut b, b"forward\0", b"forw\xffrd\0")?;
            Ok(b)
        }
    ),
    class!(
        "pte.missing-nul",
        pte_rules::FLATBUFFER_STRUCTURE,
        Pte,
        "a string's NUL terminator is overwritten",
        MALFORMED,
        |b| {
            let mut b = b.to_vec();
            replace_first(&mut b, b"forward\0", b"forwardX")?;
            Ok(b)
        }
    ),
    class!(
        "pte.constant-segment-index",
        pte_rules::SEGMENT_INDEX,
        Pte,
        "constant_segment names a segment past the table",
        Expect::Rule(pte_rules::SEGMENT_INDEX),
        |b| {
            pte_model(b, |p| {
                let c = p.program.constant_segment.as_mut().ok_or("no constant segment")?;
                // One offset is the placeholder alone: the runtime then never looks the segment up.
                if c.offsets.as_ref().is_none_or(|o| o.len() < 2) {
                    return Err("the program has no constants".into());
                }
                c.segment_index = 99;
                Ok(())
            })
        }
    ),
    class!(
        "pte.data-buffer-idx",
        pte_rules::CONSTANT_BOUNDS,
        Pte,
        "a constant tensor's data_buffer_idx is past the constant table",
        Expect::Rule(pte_rules::CONSTANT_BOUNDS),
        |b| {
            pte_model(b, |p| {
                let t = first_plan(p)?
                    .values
                    .iter_mut()
                    .flatten()
                    .find_map(|v| match &mut v.val {
                        Some(KernelTypes::Tensor(t)) if t.data_buffer_idx > 0 && !t.is_external() => Some(t),
                        _ => None,
                    })
                    .ok_or("no constant tensor")?;
                t.data_buffer_idx = 1_000_000;
                Ok(())
            })
        }
    ),
    class!(
        "pte.input-index",
        pte_rules::PLAN_IO_INDEX,
        Pte,
        "a method input names a value past the value table",
        Expect::Rule(pte_rules::PLAN_IO_INDEX),
        |b| {
            pte_model(b, |p| {
                *first_plan(p)?.inputs.as_mut().and_then(|i| i.first_mut()).ok_or("no input")? = 1_000_000;
                Ok(())
            })
        }
    ),
    class!(
        "pte.output-index-negative",
        pte_rules::PLAN_IO_INDEX,
        Pte,
        "a method output index is negative",
        Expect::Rule(pte_rules::PLAN_IO_INDEX),
        |b| {
            pte_model(b, |p| {
                *first_plan(p)?.outputs.as_mut().and_then(|i| i.first_mut()).ok_or("no output")? = -5;
                Ok(())
            })
        }
    ),
    class!(
        "pte.kernel-arg-index",
        pte_rules::INSTRUCTION_ARGS,
        Pte,
        "a kernel call argument names a value past the value table",
        Expect::Rule(pte_rules::INSTRUCTION_ARGS),
        |b| {
            pte_model(b, |p| {
                let i = first_instruction(p, |a| matches!(a, InstructionArguments::KernelCall { .. }))?;
                if let Some(InstructionArguments::KernelCall { args: Some(args), .. }) = &mut i.instr_args {
                    *args.first_mut().ok_or("no argument")? = 1_000_000;
                }
                Ok(())
            })
        }
    ),
    class!(
        "pte.operator-index",
        pte_rules::INSTRUCTION_OPERATOR,
        Pte,
        "a kernel call names an operator past the operator table",
        Expect::Rule(pte_rules::INSTRUCTION_OPERATOR),
        |b| {
            pte_model(b, |p| {
                let i = first_instruction(p, |a| matches!(a, InstructionArguments::KernelCall { .. }))?;
                if let Some(InstructionArguments::KernelCall { op_index, .. }) = &mut i.instr_args {
                    *op_index = 1000;
                }
                Ok(())
            })
        }
    ),
    class!(
        "pte.delegate-index",
        pte_rules::INSTRUCTION_DELEGATE,
        Pte,
        "a delegate call names a delegate past the delegate table",
        Expect::Rule(pte_rules::INSTRUCTION_DELEGATE),
        |b| {
            pte_model(b, |p| {
                let i = first_instruction(p, |a| matches!(a, InstructionArguments::DelegateCall { .. }))?;
                if let Some(InstructionArguments::DelegateCall { delegate_index, .. }) = &mut i.instr_args {
                    *delegate_index = 99;
                }
                Ok(())
            })
        }
    ),
    class!(
        "pte.missing-method-name",
        pte_rules::PLAN_NAME,
        Pte,
        "a method has no name (the runtime dereferences it)",
        Expect::Rule(pte_rules::PLAN_NAME),
        |b| {
            pte_model(b, |p| {
                first_plan(p)?.name = None;
                Ok(())
            })
        }
    ),
    class!(
        "pte.missing-values",
        pte_rules::PLAN_FIELDS,
        Pte,
        "a method has no value table",
        Expect::Rule(pte_rules::PLAN_FIELDS),
        |b| {
            pte_model(b, |p| {
                first_plan(p)?.values = None;
                Ok(())
            })
        }
    ),
    class!(
        "pte.missing-instruction-args",
        pte_rules::PLAN_CHAINS,
        Pte,
        "an instruction has no arguments union",
        Expect::Rule(pte_rules::PLAN_CHAINS),
        |b| {
            pte_model(b, |p| {
                first_instruction(p, |_| true)?.instr_args = None;
                Ok(())
            })
        }
    ),
    class!(
        "pte.negative-size",
        pte_rules::TENSOR_SIZES,
        Pte,
        "a tensor size is negative",
        Expect::Rule(pte_rules::TENSOR_SIZES),
        |b| {
            pte_model(b, |p| {
                *first_tensor(p, false)?.sizes.as_mut().and_then(|s| s.first_mut()).ok_or("no dimension")? = -3;
                Ok(())
            })
        }
    ),
    class!(
        "pte.numel-overflow",
        pte_rules::TENSOR_SIZES,
        Pte,
        "a tensor's sizes multiply past u64",
        Expect::Rule(pte_rules::TENSOR_SIZES),
        |b| {
            pte_model(b, |p| {
                first_tensor(p, false)?.sizes = Some(vec![i32::MAX; 4]);
                Ok(())
            })
        }
    ),
    class!(
        "pte.unknown-scalar-type",
        pte_rules::TENSOR_SCALAR_TYPE,
        Pte,
        "a tensor's scalar type is not one the runtime knows",
        Expect::Rule(pte_rules::TENSOR_SCALAR_TYPE),
        |b| {
            pte_model(b, |p| {
                first_tensor(p, false)?.scalar_type = ScalarType(99);
                Ok(())
            })
        }
    ),
    class!(
        "pte.mutable-segment-index",
        pte_rules::MUTABLE_BOUNDS,
        Pte,
        "mutable_data_segments names a segment past the table",
        Expect::Rule(pte_rules::SEGMENT_INDEX),
        |b| {
            pte_model(b, |p| {
                p.program
                    .mutable_data_segments
                    .as_mut()
                    .and_then(|m| m.first_mut())
                    .ok_or("no mutable data segment")?
                    .segment_index = 99;
                Ok(())
            })
        }
    ),
    class!("ptd.bad-identifier", pte_rules::PTD_IDENTIFIER, Ptd, "the FT01 identifier is changed", MALFORMED, |b| {
        let mut b = b.to_vec();
        b.get_mut(4..8).ok_or("too short")?.copy_from_slice(b"FT99");
        Ok(b)
    }),
    class!("ptd.header-magic", pte_rules::PTD_HEADER, Ptd, "the FH01 header magic is changed", MALFORMED, |b| {
        let mut b = b.to_vec();
        replace_first(&mut b, b"FH01", b"FH99")?;
        Ok(b)
    }),
    class!(
        "ptd.header-sum-wraps",
        pte_rules::PTD_SEGMENT,
        Ptd,
        "FH01 segment_base_offset + segment_data_size wraps u64",
        MALFORMED,
        |b| {
            let mut b = b.to_vec();
            put_u64(&mut b, 32, u64::MAX - 0xF)?;
            put_u64(&mut b, 40, 0x100)?;
            Ok(b)
        }
    ),
    class!(
        "ptd.segment-data-past-end",
        pte_rules::PTD_HEADER,
        Ptd,
        "FH01 segment_data_size reaches past the file",
        Expect::Rule(pte_rules::PTD_HEADER),
        |b| {
            let mut out = b.to_vec();
            put_u64(&mut out, 40, (b.len() as u64).saturating_mul(4))?;
            Ok(out)
        }
    ),
    class!(
        "bpte.bad-identifier",
        pte_rules::BPTE_STRUCTURE,
        Bpte,
        "the BP08 identifier is changed to an older one",
        MALFORMED,
        |b| {
            let mut b = b.to_vec();
            b.get_mut(4..8).ok_or("too short")?.copy_from_slice(b"BP07");
            Ok(b)
        }
    ),
    class!(
        "bpte.bad-embedded-program",
        pte_rules::FLATBUFFER_IDENTIFIER,
        Bpte,
        "the embedded program's identifier is broken",
        MALFORMED,
        |b| {
            bundle_model(b, |m| {
                let mut p = m.program.take().ok_or("no program")?.into_owned();
                p.get_mut(4..8).ok_or("program too short")?.copy_from_slice(b"XX12");
                m.program = Some(p.into());
                Ok(())
            })
        }
    ),
    class!(
        "bpte.case-count",
        pte_rules::BPTE_CASE_COUNT,
        Bpte,
        "a test case has fewer inputs than its method",
        Expect::Rule(pte_rules::BPTE_CASE_COUNT),
        |b| {
            bundle_model(b, |m| {
                let c = test_cases_mut(m).next().ok_or("no case")?;
                c.inputs = Some(vec![]);
                Ok(())
            })
        }
    ),
    class!(
        "bpte.tensor-dtype",
        pte_rules::BPTE_TENSOR,
        Bpte,
        "a test-case tensor's dtype differs from the method's",
        Expect::Rule(pte_rules::BPTE_TENSOR),
        |b| {
            bundle_model(b, |m| {
                let t = first_case_tensor(m)?;
                t.scalar_type =
                    if t.scalar_type == ScalarType::DOUBLE { ScalarType::FLOAT } else { ScalarType::DOUBLE };
                Ok(())
            })
        }
    ),
    class!(
        "bpte.tensor-data-short",
        pte_rules::BPTE_TENSOR,
        Bpte,
        "a test-case tensor holds fewer bytes than its sizes need",
        Expect::Rule(pte_rules::BPTE_TENSOR),
        |b| {
            bundle_model(b, |m| {
                first_case_tensor(m)?.data = Some(vec![0u8; 1].into());
                Ok(())
            })
        }
    ),
    class!(
        "bpte.unknown-method",
        pte_rules::BPTE_SUITE_METHOD,
        Bpte,
        "a suite names a method the program lacks",
        Expect::Rule(pte_rules::BPTE_SUITE_METHOD),
        |b| {
            bundle_model(b, |m| {
                m.method_test_suites.as_mut().and_then(|s| s.first_mut()).ok_or("no suite")?.method_name =
                    Some("no_such_method".into());
                Ok(())
            })
        }
    ),
    class!(
        "ptn.zip-slip",
        ptn_rules::PTN_CONTAINER,
        Ptn,
        "a member name climbs out of the extraction directory",
        MALFORMED,
        |b| {
            let z = ptn_members(b, |m| {
                m.push(("zz/escape.txt".into(), b"x".to_vec()));
                Ok(())
            })?;
            let mut z = z;
            while find_bytes(&z, b"zz/escape.txt").is_some() {
                replace_first(&mut z, b"zz/escape.txt", b"../escape.txt")?;
            }
            Ok(z)
        }
    ),
    class!("ptn.duplicate-member", ptn_rules::PTN_CONTAINER, Ptn, "two members share a name", MALFORMED, |b| {
        let mut z = ptn_members(b, |m| {
            m.push(("dup-a.bin".into(), b"a".to_vec()));
            m.push(("dup-b.bin".into(), b"a".to_vec()));
            Ok(())
        })?;
        while find_bytes(&z, b"dup-b.bin").is_some() {
            replace_first(&mut z, b"dup-b.bin", b"dup-a.bin")?;
        }
        Ok(z)
    }),
    class!(
        "ptn.crc-mismatch",
        ptn_rules::PTN_CONTAINER,
        Ptn,
        "the first member's CRC in the central directory is wrong",
        MALFORMED,
        |b| {
            let mut z = b.to_vec();
            let cd = find_bytes(&z, b"PK\x01\x02").ok_or("no central directory")?;
            let at = cd.checked_add(16).ok_or("offset")?;
            let crc = get_u32(&z, at)?;
            put_u32(&mut z, at, crc ^ 0xDEAD_BEEF)?;
            Ok(z)
        }
    ),
    class!("ptn.missing-program", ptn_rules::PTN_PROGRAM, Ptn, "program.ptg is removed", MALFORMED, |b| {
        without_members(b, |n| n == "program.ptg", "no program.ptg")
    }),
    class!(
        "ptn.safetensors-header-huge",
        ptn_rules::PTN_SAFETENSORS,
        Ptn,
        "program.safetensors declares a 2^62-byte header",
        Expect::Kind(ErrorKind::LimitExceeded),
        |b| {
            ptn_members(b, |m| {
                put_u64(member(m, "program.safetensors")?, 0, 1 << 62)?;
                Ok(())
            })
        }
    ),
    class!(
        "ptn.safetensors-offset-past-end",
        ptn_rules::PTN_SAFETENSORS,
        Ptn,
        "a constant's data_offsets end past the data",
        MALFORMED,
        |b| {
            ptn_members(b, |m| {
                let blob = member(m, "program.safetensors")?;
                let (mut header, n) = safetensors_header(blob)?;
                let key = header.keys().find(|k| *k != "__metadata__").cloned().ok_or("no tensor")?;
                let entry =
                    header.get_mut(&key).and_then(|v| v.as_object_mut()).ok_or("tensor entry is not an object")?;
                entry.insert("data_offsets".into(), serde_json::json!([0u64, 1u64 << 40]));
                let text = serde_json::Value::Object(header).to_string();
                let mut out = (text.len() as u64).to_le_bytes().to_vec();
                out.extend_from_slice(text.as_bytes());
                out.extend_from_slice(blob.get(8usize.saturating_add(n)..).unwrap_or(&[]));
                *blob = out;
                Ok(())
            })
        }
    ),
    class!(
        "ptn.dangling-alias",
        ptn_rules::PTN_ALIASES,
        Ptn,
        "aliases.json names an owner that does not exist",
        MALFORMED,
        |b| {
            ptn_members(b, |m| {
                m.retain(|(n, _)| n != "aliases.json");
                m.push(("aliases.json".into(), br#"{"ghost": "nobody"}"#.to_vec()));
                Ok(())
            })
        }
    ),
    class!(
        "samples.traversal-name",
        samples_rules::PTN_SAMPLES_NAME,
        Ptn,
        "a samples index names its set `..`",
        Expect::Rule(samples_rules::PTN_SAMPLES_NAME),
        |b| {
            with_samples(b, |index, _| {
                *index = index.replacen("\"set\": \"generated\"", "\"set\": \"..\"", 1);
                Ok(())
            })
        }
    ),
    class!(
        "samples.missing-tensor",
        samples_rules::PTN_SAMPLES_MISSING_TENSOR,
        Ptn,
        "a samples value names a tensor data.safetensors lacks",
        Expect::Rule(samples_rules::PTN_SAMPLES_MISSING_TENSOR),
        |b| {
            with_samples(b, |index, _| {
                *index = index.replacen("\"0.0.in.0\"", "\"0.0.in.9\"", 1);
                Ok(())
            })
        }
    ),
    class!(
        "samples.dtype-mismatch",
        samples_rules::PTN_SAMPLES_DTYPE_MISMATCH,
        Ptn,
        "a samples value declares another dtype than the stored tensor",
        Expect::Rule(samples_rules::PTN_SAMPLES_DTYPE_MISMATCH),
        |b| {
            with_samples(b, |index, _| {
                *index = index.replacen("\"F32\"", "\"F16\"", 1);
                Ok(())
            })
        }
    ),
    class!(
        "samples.huge-shape",
        samples_rules::PTN_SAMPLES_SHAPE_MISMATCH,
        Ptn,
        "a samples value declares a shape of 2^32 × 2^32 elements",
        Expect::Rule(samples_rules::PTN_SAMPLES_SHAPE_MISMATCH),
        |b| {
            with_samples(b, |index, _| {
                let i = index.find("\"shape\": [").ok_or("no shape")?;
                let end = index.get(i..).and_then(|s| s.find(']')).ok_or("no shape end")?;
                index.replace_range(i..i.saturating_add(end).saturating_add(1), "\"shape\": [4294967296, 4294967296]");
                Ok(())
            })
        }
    ),
    class!(
        "samples.unknown-version",
        samples_rules::PTN_SAMPLES_UNKNOWN_VERSION,
        Ptn,
        "a samples index declares version 7",
        Expect::Rule(samples_rules::PTN_SAMPLES_UNKNOWN_VERSION),
        |b| {
            with_samples(b, |index, _| {
                *index = index.replacen("\"version\": 1", "\"version\": 7", 1);
                Ok(())
            })
        }
    ),
    class!(
        "samples.unreferenced-tensor",
        samples_rules::PTN_SAMPLES_UNREFERENCED_TENSOR,
        Ptn,
        "data.safetensors holds a tensor no value refers to",
        Expect::Rule(samples_rules::PTN_SAMPLES_UNREFERENCED_TENSOR),
        |b| {
            with_samples(b, |index, _| {
                // Drop the output; its tensor stays in the blob.
                let mut doc: serde_json::Value = serde_json::from_str(index).map_err(|e| e.to_string())?;
                let outputs = doc.pointer_mut("/samples/0/calls/0/outputs").ok_or("no outputs")?;
                *outputs = serde_json::Value::Array(vec![]);
                *index = doc.to_string();
                Ok(())
            })
        }
    ),
];
