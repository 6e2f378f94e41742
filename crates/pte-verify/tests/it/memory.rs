//! The memory plan's lifetimes (loops, tensor lists, inputs and outputs),
//! the cap on reported overlaps, agreement between the clean-file and full
//! verifier passes on the `memory.overlap` warning, and blind mutants of
//! every corpus program read without a panic into a self-consistent plan.

use pte_analysis::memory::{MemoryPlan, MAX_OVERLAPS};
use pte_file::{PteFile, WriteOptions};
use pte_schema::*;
use pte_verify::{verify_bytes, verify_bytes_full};

fn planned(offset: u32) -> EValue {
    EValue {
        val: Some(KernelTypes::Tensor(Tensor {
            scalar_type: ScalarType::FLOAT,
            sizes: Some(vec![1]),
            dim_order: Some(vec![0]),
            allocation_info: Some(AllocationDetails { memory_id: 1, memory_offset_low: offset, memory_offset_high: 0 }),
            ..Default::default()
        })),
    }
}

fn kernel(args: Vec<i32>) -> Instruction {
    Instruction { instr_args: Some(InstructionArguments::KernelCall { op_index: 0, args: Some(args) }) }
}

/// A one-method program: `values`, `instructions`, one 8-byte buffer.
fn program(values: Vec<EValue>, inputs: Vec<i32>, outputs: Vec<i32>, instructions: Vec<Instruction>) -> Vec<u8> {
    let p = Program {
        execution_plan: Some(vec![ExecutionPlan {
            name: Some("forward".into()),
            values: Some(values),
            inputs: Some(inputs),
            outputs: Some(outputs),
            chains: Some(vec![Chain {
                inputs: Some(vec![]),
                outputs: Some(vec![]),
                instructions: Some(instructions),
                stacktrace: None,
            }]),
            operators: Some(vec![Operator { name: Some("aten::add".into()), overload: Some("out".into()) }]),
            delegates: Some(vec![]),
            non_const_buffer_sizes: Some(vec![0, 8]),
            ..Default::default()
        }]),
        ..Default::default()
    };
    encode_program(&p, &Default::default()).unwrap()
}

fn overlapping(bytes: &[u8]) -> Vec<[usize; 2]> {
    let plan = MemoryPlan::from_bytes(bytes, &Default::default()).unwrap();
    plan.methods[0].overlaps.iter().map(|o| o.values).collect()
}

#[test]
fn a_loop_keeps_what_is_live_in_it_live_for_all_of_it() {
    // 0: A = f(C); 1: g(A); 2: B = h(); 3: jump back to 1 unless cond.
    // B may not take A's bytes: the next round's instruction 1 reads A.
    let loop_to = |dest: i32| {
        program(
            vec![planned(0), planned(0), planned(4), EValue { val: Some(KernelTypes::Bool(false)) }],
            vec![2],
            vec![],
            vec![
                kernel(vec![2, 0]),
                kernel(vec![0]),
                kernel(vec![1]),
                Instruction {
                    instr_args: Some(InstructionArguments::JumpFalseCall {
                        cond_value_index: 3,
                        destination_instruction: dest,
                    }),
                },
            ],
        )
    };
    let looped = loop_to(1);
    assert_eq!(overlapping(&looped), vec![[0, 1]]);
    let plan = MemoryPlan::from_bytes(&looped, &Default::default()).unwrap();
    let life = |v: usize| plan.methods[0].tensors.iter().find(|t| t.value == v).unwrap().lifetime;
    assert_eq!((life(0), life(1), life(2)), (Some([0, 3]), Some([1, 3]), Some([0, 0])));
    // a jump onto itself or forward is no loop
    assert_eq!(overlapping(&loop_to(3)), Vec::<[usize; 2]>::new());
    assert_eq!(overlapping(&loop_to(9)), Vec::<[usize; 2]>::new());
}

#[test]
fn a_use_of_a_tensor_list_is_a_use_of_its_tensors() {
    // 0: T0 = f(); 1: T1 = g(); 2: h([T0]). T1 may not take T0's bytes.
    let with = |list: bool| {
        let mut values = vec![planned(0), planned(0)];
        let last = if list {
            values.push(EValue { val: Some(KernelTypes::TensorList(Some(vec![0]))) });
            2
        } else {
            values.push(EValue { val: Some(KernelTypes::Int(0)) });
            2
        };
        program(values, vec![], vec![], vec![kernel(vec![0]), kernel(vec![1]), kernel(vec![last])])
    };
    assert_eq!(overlapping(&with(true)), vec![[0, 1]]);
    assert_eq!(overlapping(&with(false)), Vec::<[usize; 2]>::new());
}

#[test]
fn inputs_hold_data_from_the_start_and_outputs_to_the_end() {
    // 0: X = f(IN); 1: OUT = g(X). IN and OUT may share bytes (IN is
    // consumed before OUT is written); IN and X may not, nor X and OUT.
    let bytes = program(
        vec![planned(0), planned(4), planned(0)],
        vec![0],
        vec![2],
        vec![kernel(vec![0, 1]), kernel(vec![1, 2])],
    );
    assert_eq!(overlapping(&bytes), Vec::<[usize; 2]>::new());
    let plan = MemoryPlan::from_bytes(&bytes, &Default::default()).unwrap();
    let m = &plan.methods[0];
    let life: Vec<_> = m.tensors.iter().map(|t| t.lifetime).collect();
    assert_eq!(life, [Some([0, 0]), Some([0, 1]), Some([1, 1])]);
    assert_eq!((m.arenas[0].peak, m.arenas[0].peak_at, m.arenas[0].high_water), (8, Some(0), 8));
    // an output nothing writes still holds data at the end, and an input
    // nothing reads at the start: both at once when there is one instruction
    let idle = program(vec![planned(0), planned(0)], vec![0], vec![1], vec![kernel(vec![])]);
    assert_eq!(overlapping(&idle), vec![[0, 1]]);
}

#[test]
fn overlaps_are_listed_up_to_the_cap() {
    let n = MAX_OVERLAPS + 20;
    let values: Vec<EValue> = (0..n).map(|_| planned(0)).collect();
    let outputs: Vec<i32> = (0..n as i32).collect();
    let bytes = program(values, vec![], outputs, vec![kernel(vec![])]);
    let plan = MemoryPlan::from_bytes(&bytes, &Default::default()).unwrap();
    assert_eq!(plan.methods[0].overlaps.len(), MAX_OVERLAPS);
    assert!(plan.methods[0].overlaps_truncated);
    let report = verify_bytes(&bytes, &Default::default());
    let warnings: Vec<_> = report.warnings.iter().filter(|w| w.rule == "memory.overlap").collect();
    assert_eq!(warnings.len(), MAX_OVERLAPS + 1);
    assert!(warnings.last().unwrap().message.contains("more overlapping tensors than the 100 listed"));
}

fn corpus(case: &str) -> Vec<u8> {
    pte_testkit::model_bytes(case)
}

#[test]
fn the_clean_file_and_full_verifier_passes_agree_on_the_warning() {
    let bytes = corpus("linear");
    let mut p = PteFile::from_bytes(&bytes).unwrap().into_owned();
    let plan = &mut p.program.execution_plan.as_mut().unwrap()[0];
    if let Some(KernelTypes::Tensor(t)) = &mut plan.values.as_mut().unwrap()[7].val {
        t.allocation_info.as_mut().unwrap().memory_offset_low = 0;
    }
    let bad = p.to_bytes(&WriteOptions::default()).unwrap();
    let clean = verify_bytes(&bad, &Default::default());
    assert!(clean.is_ok());
    assert_eq!(clean.warnings.len(), 2, "{:#?}", clean.warnings);
    assert!(clean.warnings.iter().all(|w| w.rule == "memory.overlap" && w.offset.is_some()));
    assert_eq!(clean, verify_bytes_full(&bad, &Default::default()));
    // a program breaking another rule is not judged on its plan
    let mut p = PteFile::from_bytes(&bad).unwrap().into_owned();
    p.program.execution_plan.as_mut().unwrap()[0].non_const_buffer_sizes = Some(vec![0, -1, 112]);
    let broken = verify_bytes(&p.to_bytes(&WriteOptions::default()).unwrap(), &Default::default());
    assert!(broken.breaks("plan.buffer_sizes") && !broken.breaks("memory.overlap"));
}

/// `count` copies of `input`, each with one byte set to a value drawn
/// from a fixed seed (0, 0xFF, a bit flipped, or a random byte), or cut short.
fn mutants(input: &[u8], count: usize) -> Vec<(String, Vec<u8>)> {
    let mut next = pte_testkit::xorshift(0x9E37_79B9_7F4A_7C15);
    (0..count)
        .map(|_| {
            let at = (next() % input.len() as u64) as usize;
            let mut b = input.to_vec();
            let name = match next() % 5 {
                0 => {
                    b.truncate(at);
                    format!("cut@{at}")
                }
                k => {
                    b[at] = match k {
                        1 => 0,
                        2 => 0xFF,
                        3 => b[at] ^ (1 << (next() % 8)),
                        _ => next() as u8,
                    };
                    format!("byte@{at}={}", b[at])
                }
            };
            (name, b)
        })
        .collect()
}

/// Blind mutants of every corpus program: the plan reads or is refused,
/// and what it says holds together.
#[test]
fn mutants_of_every_corpus_program_give_a_consistent_plan() {
    let root = pte_testkit::corpus_dir();
    let mut cases: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    cases.sort();
    let mut read = 0;
    for case in cases.iter().filter(|c| c.join("model.pte").exists()) {
        let bytes = std::fs::read(case.join("model.pte")).unwrap();
        let count = if bytes.len() > 100_000 { 8 } else { 150 };
        for (name, m) in mutants(&bytes, count) {
            let Ok(plan) = MemoryPlan::from_bytes(&m, &Default::default()) else { continue };
            read += 1;
            let what = format!("{}: {name}", case.display());
            for method in &plan.methods {
                let e = &method.method_allocator;
                assert_eq!(e.parts.total(), e.bytes, "{what}");
                for t in &method.tensors {
                    assert!(method.arenas.iter().any(|a| a.id == t.arena), "{what}: {t:?}");
                    if let Some([f, l]) = t.lifetime {
                        assert!(f <= l && l < method.instructions.max(1), "{what}: {t:?}");
                    }
                }
                for o in &method.overlaps {
                    let [a, b] = o.values.map(|v| method.tensors.iter().find(|t| t.value == v).unwrap());
                    assert!(a.arena == b.arena && a.arena == o.arena, "{what}");
                    assert!(o.bytes[0] < o.bytes[1] && o.instructions[0] <= o.instructions[1], "{what}: {o:?}");
                    for t in [a, b] {
                        let [f, l] = t.lifetime.unwrap();
                        assert!(t.offset <= o.bytes[0] && o.bytes[1] <= t.offset + t.size, "{what}: {o:?}");
                        assert!(f <= o.instructions[0] && o.instructions[1] <= l, "{what}: {o:?}");
                    }
                }
            }
            let _ = verify_bytes(&m, &Default::default());
        }
    }
    assert!(read > 500, "{read} mutants read");
}

/// A two-chain program whose plan has every kind of use the overlap check
/// follows: a loop back in the second chain, a tensor list, a view call
/// (`et_view`), inputs and outputs, and tensors sharing bytes.
fn every_use() -> Vec<u8> {
    let mut values: Vec<EValue> = (0..6).map(|k| planned(if k % 2 == 0 { 0 } else { 4 })).collect();
    values.push(EValue { val: Some(KernelTypes::TensorList(Some(vec![2, 3]))) });
    values.push(EValue { val: Some(KernelTypes::Bool(false)) });
    let chain = |instructions| Chain {
        inputs: Some(vec![]),
        outputs: Some(vec![]),
        instructions: Some(instructions),
        stacktrace: None,
    };
    let view =
        Instruction { instr_args: Some(InstructionArguments::KernelCall { op_index: 1, args: Some(vec![4, 7, 2]) }) };
    let jump = Instruction {
        instr_args: Some(InstructionArguments::JumpFalseCall { cond_value_index: 7, destination_instruction: 0 }),
    };
    let p = Program {
        execution_plan: Some(vec![ExecutionPlan {
            name: Some("forward".into()),
            values: Some(values),
            inputs: Some(vec![0]),
            outputs: Some(vec![5]),
            chains: Some(vec![
                chain(vec![kernel(vec![0, 1]), kernel(vec![6])]),
                chain(vec![kernel(vec![1, 4]), view, jump, kernel(vec![2, 5])]),
            ]),
            operators: Some(vec![
                Operator { name: Some("aten::add".into()), overload: Some("out".into()) },
                Operator { name: Some("executorch_prim::et_view".into()), overload: Some("default".into()) },
            ]),
            delegates: Some(vec![]),
            non_const_buffer_sizes: Some(vec![0, 8]),
            ..Default::default()
        }]),
        ..Default::default()
    };
    encode_program(&p, &Default::default()).unwrap()
}

/// The clean-file pass reads the plan from what its walk gathered, the
/// full pass walks the plan again: the two must state the same overlaps,
/// on the program and on each of its mutants that stays clean.
#[test]
fn gathered_and_walked_plans_give_the_same_overlaps() {
    let bytes = every_use();
    let report = verify_bytes(&bytes, &Default::default());
    assert!(report.is_ok(), "{report:#?}");
    assert!(report.warnings.iter().any(|w| w.rule == "memory.overlap"), "{report:#?}");
    assert_eq!(report, verify_bytes_full(&bytes, &Default::default()));
    let mut compared = 0;
    for (name, m) in mutants(&bytes, 400) {
        let gathered = verify_bytes(&m, &Default::default());
        if !gathered.is_ok() {
            continue;
        }
        compared += 1;
        assert_eq!(gathered, verify_bytes_full(&m, &Default::default()), "{name}");
    }
    assert!(compared > 20, "{compared} mutants compared");
}
