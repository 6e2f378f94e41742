//! The zero-copy views read exactly what the decoder reads: every value,
//! tensor field and instruction of every corpus program, and of a program
//! built to hold every kind with non-default fields, compared with the
//! decoded model. (The views read tables field by field on their own, not
//! through the generated accessors the decoder uses.) So do the checks run
//! during verification (`ElementChecks`), which are handed each element
//! once, and the previews of a program read before it is verified.

use crate::support::corpus_programs;

use pte_schema::*;

fn list<T: ListItem + BitEq>(l: Option<List<'_, T>>) -> Option<Vec<T>> {
    l.map(|l| {
        let items: Vec<T> = l.iter().collect();
        assert_eq!(items.len(), l.len());
        for (i, x) in items.iter().enumerate() {
            assert!(l.get(i).is_some_and(|y| y.to_ne_bytes_eq(x)));
        }
        assert!(l.get(items.len()).is_none());
        items
    })
}

/// Equality that holds NaN payloads equal, for lists of doubles.
trait BitEq {
    fn to_ne_bytes_eq(&self, other: &Self) -> bool;
}
macro_rules! bit_eq {
    ($($t:ty),*) => {$(impl BitEq for $t {
        fn to_ne_bytes_eq(&self, other: &Self) -> bool { self.to_ne_bytes() == other.to_ne_bytes() }
    })*};
}
bit_eq!(i32, i64, u64, f64);
impl BitEq for bool {
    fn to_ne_bytes_eq(&self, other: &Self) -> bool {
        self == other
    }
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn check_tensor(t: &TensorView<'_>, m: &Tensor, at: &str) {
    assert_eq!(t.scalar_type(), m.scalar_type, "{at}");
    assert_eq!(t.storage_offset(), m.storage_offset, "{at}");
    assert_eq!(list(t.sizes()), m.sizes, "{at}");
    assert_eq!(t.dim_order().map(<[u8]>::to_vec), m.dim_order, "{at}");
    assert_eq!(t.requires_grad(), m.requires_grad, "{at}");
    assert_eq!(t.data_buffer_idx(), m.data_buffer_idx, "{at}");
    assert_eq!(t.allocation_info(), m.allocation_info, "{at}");
    assert_eq!(t.shape_dynamism(), m.shape_dynamism, "{at}");
    let extra = m.extra_tensor_info.as_ref();
    assert_eq!(t.location(), extra.map(|e| e.location), "{at}");
    assert_eq!(t.fqn(), extra.and_then(|e| e.fully_qualified_name.as_deref()), "{at}");
    assert_eq!(t.device_type(), extra.map(|e| e.device_type), "{at}");
    assert_eq!(t.device_index(), extra.map(|e| e.device_index), "{at}");
    assert_eq!(t.is_external(), m.is_external(), "{at}");
    assert_eq!(t.numel(), m.numel(), "{at}");
    assert_eq!(t.nbytes(), m.nbytes(), "{at}");
}

fn check_value(v: ValueRef<'_>, m: &EValue, at: &str) {
    use KernelTypes as K;
    match (v, &m.val) {
        (ValueRef::None, None) | (ValueRef::Null, Some(K::Null)) => {}
        (ValueRef::Int(a), Some(K::Int(b))) => assert_eq!(a, *b, "{at}"),
        (ValueRef::Bool(a), Some(K::Bool(b))) => assert_eq!(a, *b, "{at}"),
        (ValueRef::Double(a), Some(K::Double(b))) => assert_eq!(a.to_bits(), b.to_bits(), "{at}"),
        (ValueRef::String(a), Some(K::String(b))) => assert_eq!(a, b.as_deref(), "{at}"),
        (ValueRef::IntList(a), Some(K::IntList(b))) => assert_eq!(list(a), *b, "{at}"),
        (ValueRef::DoubleList(a), Some(K::DoubleList(b))) => {
            assert_eq!(list(a).as_deref().map(bits), b.as_deref().map(bits), "{at}")
        }
        (ValueRef::BoolList(a), Some(K::BoolList(b))) => assert_eq!(list(a), *b, "{at}"),
        (ValueRef::TensorList(a), Some(K::TensorList(b))) => assert_eq!(list(a), *b, "{at}"),
        (ValueRef::OptionalTensorList(a), Some(K::OptionalTensorList(b))) => assert_eq!(list(a), *b, "{at}"),
        (ValueRef::Tensor(t), Some(K::Tensor(m))) => check_tensor(&t, m, at),
        (_, m) => panic!("{at}: the view reads another kind than {m:?}"),
    }
}

fn check_instruction(i: InstructionRef<'_>, m: &Instruction, at: &str) {
    use InstructionArguments as A;
    match (i, &m.instr_args) {
        (InstructionRef::None, None) => {}
        (InstructionRef::KernelCall { op_index, args }, Some(A::KernelCall { op_index: o, args: a })) => {
            assert_eq!((op_index, list(args)), (*o, a.clone()), "{at}")
        }
        (
            InstructionRef::DelegateCall { delegate_index, args },
            Some(A::DelegateCall { delegate_index: d, args: a }),
        ) => {
            assert_eq!((delegate_index, list(args)), (*d, a.clone()), "{at}")
        }
        (InstructionRef::MoveCall { move_from, move_to }, Some(A::MoveCall { move_from: f, move_to: t })) => {
            assert_eq!((move_from, move_to), (*f, *t), "{at}")
        }
        (
            InstructionRef::JumpFalseCall { cond_value_index, destination_instruction },
            Some(A::JumpFalseCall { cond_value_index: c, destination_instruction: d }),
        ) => assert_eq!((cond_value_index, destination_instruction), (*c, *d), "{at}"),
        (InstructionRef::FreeCall { value_index }, Some(A::FreeCall { value_index: v })) => {
            assert_eq!(value_index, *v, "{at}")
        }
        (_, m) => panic!("{at}: the view reads another instruction than {m:?}"),
    }
}

/// A comparable form of an instruction, from the view or the model.
type InstructionKey = (u8, i32, i32, Option<Vec<i32>>);

fn key_of_ref(i: InstructionRef<'_>) -> InstructionKey {
    let l = |a: Option<List<'_, i32>>| a.map(|a| a.iter().collect());
    match i {
        InstructionRef::None => (0, 0, 0, None),
        InstructionRef::KernelCall { op_index, args } => (1, op_index, 0, l(args)),
        InstructionRef::DelegateCall { delegate_index, args } => (2, delegate_index, 0, l(args)),
        InstructionRef::MoveCall { move_from, move_to } => (3, move_from, move_to, None),
        InstructionRef::JumpFalseCall { cond_value_index, destination_instruction } => {
            (4, cond_value_index, destination_instruction, None)
        }
        InstructionRef::FreeCall { value_index } => (5, value_index, 0, None),
        InstructionRef::Unknown(t) => (t, 0, 0, None),
    }
}

fn key_of(m: &Instruction) -> InstructionKey {
    use InstructionArguments as A;
    match &m.instr_args {
        None => (0, 0, 0, None),
        Some(A::KernelCall { op_index, args }) => (1, *op_index, 0, args.clone()),
        Some(A::DelegateCall { delegate_index, args }) => (2, *delegate_index, 0, args.clone()),
        Some(A::MoveCall { move_from, move_to }) => (3, *move_from, *move_to, None),
        Some(A::JumpFalseCall { cond_value_index, destination_instruction }) => {
            (4, *cond_value_index, *destination_instruction, None)
        }
        Some(A::FreeCall { value_index }) => (5, *value_index, 0, None),
    }
}

/// Checks that compare each value with the model as they are handed it,
/// and record what they were handed.
struct Recorder<'m> {
    name: &'m str,
    model: &'m Program<'m>,
    values: std::sync::Mutex<Vec<(usize, usize)>>,
    instructions: std::sync::Mutex<Vec<(usize, InstructionKey)>>,
}

impl ElementChecks for Recorder<'_> {
    fn value(&self, plan: usize, index: usize, v: ValueRef<'_>) -> bool {
        let m = &self.model.execution_plan.as_ref().unwrap()[plan].values.as_ref().unwrap()[index];
        check_value(v, m, &format!("{}: checked plan {plan} value {index}", self.name));
        self.values.lock().unwrap().push((plan, index));
        true
    }

    fn instruction(&self, plan: usize, i: InstructionRef<'_>) -> bool {
        self.instructions.lock().unwrap().push((plan, key_of_ref(i)));
        true
    }
}

/// The checks run during verification are handed every value and every
/// instruction exactly once, each as the views read it; the previews read
/// what the views read.
fn check_elements_and_preview(name: &str, bytes: &[u8], model: &Program<'_>) {
    let rec = Recorder { name, model, values: Default::default(), instructions: Default::default() };
    let (_, passed) = ProgramView::with_checks(bytes, &Limits::default(), &rec).unwrap();
    assert!(passed, "{name}");
    let mut values = rec.values.into_inner().unwrap();
    let mut instructions = rec.instructions.into_inner().unwrap();
    values.sort();
    instructions.sort();
    let plans = model.execution_plan.as_deref().unwrap_or_default();
    let mut expected_values = vec![];
    let mut expected_instructions = vec![];
    for (p, m) in plans.iter().enumerate() {
        expected_values.extend((0..m.values.as_ref().map_or(0, Vec::len)).map(|j| (p, j)));
        for c in m.chains.as_deref().unwrap_or_default() {
            expected_instructions.extend(c.instructions.iter().flatten().map(|i| (p, key_of(i))));
        }
    }
    expected_instructions.sort();
    assert_eq!(values, expected_values, "{name}: values handed to the checks");
    assert_eq!(instructions, expected_instructions, "{name}: instructions handed to the checks");

    let pre = ProgramPreview::new(bytes);
    assert_eq!(pre.plan_count(), plans.len(), "{name}");
    let segments = model.segments.as_deref().unwrap_or_default();
    for i in 0..=segments.len() {
        assert_eq!(pre.segment_size(i), segments.get(i).map(|s| s.size), "{name}: segment {i}");
    }
    let sub = |s: &SubsegmentOffsets| (s.segment_index, s.offsets.clone());
    let pre_sub = |s: (u32, Option<List<'_, u64>>)| (s.0, s.1.map(|o| o.iter().collect::<Vec<_>>()));
    assert_eq!(pre.constant_offsets().map(pre_sub), model.constant_segment.as_ref().map(sub), "{name}");
    let mutable = model.mutable_data_segments.as_deref().unwrap_or_default();
    for i in 0..=mutable.len() {
        assert_eq!(pre.mutable_offsets(i).map(pre_sub), mutable.get(i).map(sub), "{name}: mutable {i}");
    }
    assert!(pre.plan(plans.len()).is_none());
    for (p, m) in plans.iter().enumerate() {
        let plan = pre.plan(p).unwrap();
        let values = m.values.as_deref().unwrap_or_default();
        assert_eq!(plan.value_count(), values.len(), "{name}");
        for (j, mv) in values.iter().enumerate() {
            check_value(plan.value_ref(j).unwrap(), mv, &format!("{name}: preview plan {p} value {j}"));
        }
        assert!(plan.value_ref(values.len()).is_none());
        assert_eq!(list(plan.buffer_sizes()), m.non_const_buffer_sizes, "{name}");
        let operators = m.operators.as_deref().unwrap_or_default();
        assert_eq!(plan.operator_count(), operators.len(), "{name}");
        for (i, o) in operators.iter().enumerate() {
            assert_eq!(plan.operator(i), Some((o.name.as_deref(), o.overload.as_deref())), "{name}: operator {i}");
        }
        assert!(plan.operator(operators.len()).is_none());
        assert_eq!(plan.delegate_count(), m.delegates.as_ref().map_or(0, Vec::len), "{name}");
    }
}

/// Compares every value and instruction; returns how many were compared.
fn check_program(name: &str, bytes: &[u8]) -> usize {
    let model = decode_program(bytes, &Limits::default()).unwrap();
    check_elements_and_preview(name, bytes, &model);
    let view = ProgramView::new(bytes, &Limits::default()).unwrap();
    let plans = model.execution_plan.as_deref().unwrap_or_default();
    assert_eq!(view.plan_count(), plans.len(), "{name}");
    let mut compared = 0;
    for (p, m) in plans.iter().enumerate() {
        let plan = view.plan(p).unwrap();
        let values = m.values.as_deref().unwrap_or_default();
        assert_eq!(plan.value_count(), values.len(), "{name}");
        let refs: Vec<_> = plan.value_refs().collect();
        assert_eq!(refs.len(), values.len(), "{name}");
        // the halves a checker walks separately cover the same values
        let half = values.len() / 2;
        let split = plan.value_refs_in(0..half).count() + plan.value_refs_in(half..usize::MAX).count();
        assert_eq!(split, values.len(), "{name}");
        for (j, (v, mv)) in refs.into_iter().zip(values).enumerate() {
            check_value(v, mv, &format!("{name}: plan {p} value {j}"));
            check_value(plan.value_ref(j).unwrap(), mv, &format!("{name}: plan {p} value_ref {j}"));
            compared += 1;
        }
        assert!(plan.value_ref(values.len()).is_none());
        let chains = m.chains.as_deref().unwrap_or_default();
        assert_eq!(plan.chains().map(|c| c.len()), m.chains.as_ref().map(Vec::len), "{name}");
        for (c, (chain, mc)) in plan.chains().into_iter().flatten().zip(chains).enumerate() {
            assert_eq!(chain.instructions().is_some(), mc.instructions.is_some(), "{name}");
            let instructions = mc.instructions.as_deref().unwrap_or_default();
            assert_eq!(chain.instruction_count(), instructions.len(), "{name}");
            let views: Vec<_> = chain.instructions().into_iter().flatten().collect();
            let ranged: Vec<_> = chain.instructions_in(0..usize::MAX).collect();
            assert_eq!((views.len(), ranged.len()), (instructions.len(), instructions.len()), "{name}");
            for (i, ((v, r), mi)) in views.into_iter().zip(ranged).zip(instructions).enumerate() {
                check_instruction(v, mi, &format!("{name}: plan {p} chain {c} instruction {i}"));
                check_instruction(r, mi, &format!("{name}: plan {p} chain {c} instruction {i} (ranged)"));
                compared += 1;
            }
        }
    }
    compared
}

#[test]
fn views_read_every_corpus_value_and_instruction_as_the_decoder_does() {
    let mut compared = 0;
    for (name, bytes) in corpus_programs() {
        compared += check_program(&name, &bytes);
    }
    assert!(compared > 27_000, "{compared} items compared");
}

/// A program with every value kind, every instruction kind, and tensors
/// whose every field differs from its default.
fn every_kind() -> Program<'static> {
    let tensor = |i: i32| Tensor {
        scalar_type: ScalarType(i8::try_from(i % 30).unwrap()),
        storage_offset: -i,
        sizes: Some(vec![i, 2, 3]),
        dim_order: Some(vec![2, 0, 1]),
        requires_grad: i % 2 == 0,
        data_buffer_idx: u32::try_from(i).unwrap() * 7,
        allocation_info: (i % 3 != 0).then_some(AllocationDetails {
            memory_id: 5,
            memory_offset_low: 0xdead_beef,
            memory_offset_high: u32::try_from(i).unwrap(),
        }),
        layout: 3,
        shape_dynamism: TensorShapeDynamism(i8::try_from(i % 3).unwrap()),
        extra_tensor_info: (i % 2 == 1).then(|| ExtraTensorInfo {
            mutable_data_segments_idx: 9,
            fully_qualified_name: Some(format!("layer.{i}.weight")),
            location: TensorDataLocation::EXTERNAL,
            device_type: DeviceType(1),
            device_index: -2,
        }),
    };
    let mut values = vec![EValue { val: None }, EValue { val: Some(KernelTypes::Null) }];
    for i in 1..40 {
        values.push(EValue { val: Some(KernelTypes::Tensor(tensor(i))) });
        values.push(EValue { val: Some(KernelTypes::Int(-i64::from(i) << 40)) });
        values.push(EValue { val: Some(KernelTypes::Bool(i % 2 == 0)) });
        values.push(EValue { val: Some(KernelTypes::Double(f64::from(i) / 3.0)) });
        values.push(EValue { val: Some(KernelTypes::String((i % 4 != 0).then(|| format!("s{i}")))) });
        values.push(EValue { val: Some(KernelTypes::IntList(Some(vec![i64::MIN, 1, i64::from(i)]))) });
        values.push(EValue { val: Some(KernelTypes::DoubleList(Some(vec![f64::NAN, -0.0, f64::from(i)]))) });
        values.push(EValue { val: Some(KernelTypes::BoolList(Some(vec![true, false, i % 2 == 0]))) });
        values.push(EValue { val: Some(KernelTypes::TensorList((i % 5 != 0).then(|| vec![2, i]))) });
        values.push(EValue { val: Some(KernelTypes::OptionalTensorList(Some(vec![-1, 2, i]))) });
    }
    let mut instructions = vec![Instruction { instr_args: None }];
    for i in 0..30 {
        instructions.extend([
            Instruction { instr_args: Some(InstructionArguments::KernelCall { op_index: i, args: Some(vec![i, -i]) }) },
            Instruction { instr_args: Some(InstructionArguments::DelegateCall { delegate_index: -i, args: None }) },
            Instruction { instr_args: Some(InstructionArguments::MoveCall { move_from: i, move_to: i + 1 }) },
            Instruction {
                instr_args: Some(InstructionArguments::JumpFalseCall {
                    cond_value_index: i,
                    destination_instruction: 1000 - i,
                }),
            },
            Instruction { instr_args: Some(InstructionArguments::FreeCall { value_index: i * 3 }) },
        ]);
    }
    let operator = |i: usize| Operator {
        name: (!i.is_multiple_of(3)).then(|| format!("aten::op{i}")),
        overload: i.is_multiple_of(2).then(|| "out".to_string()),
    };
    let plan = ExecutionPlan {
        name: Some("forward".into()),
        values: Some(values),
        chains: Some(vec![
            Chain { instructions: Some(instructions.clone()), ..Default::default() },
            Chain { instructions: None, ..Default::default() },
            Chain { instructions: Some(instructions[..7].to_vec()), ..Default::default() },
        ]),
        operators: Some((0..10).map(operator).collect()),
        delegates: Some(vec![BackendDelegate { id: Some("XnnpackBackend".into()), ..Default::default() }; 2]),
        non_const_buffer_sizes: Some(vec![0, 1 << 40, -5]),
        ..Default::default()
    };
    let second = ExecutionPlan {
        name: Some("second".into()),
        values: Some(vec![EValue { val: Some(KernelTypes::Int(7)) }; 3]),
        chains: Some(vec![Chain {
            instructions: Some(vec![
                Instruction { instr_args: Some(InstructionArguments::FreeCall { value_index: 2 }) };
                4
            ]),
            ..Default::default()
        }]),
        ..Default::default()
    };
    let sub = |i: u32, o: &[u64]| SubsegmentOffsets { segment_index: i, offsets: Some(o.to_vec()) };
    Program {
        execution_plan: Some(vec![plan, ExecutionPlan::default(), second]),
        segments: Some((0..4).map(|i| DataSegment { offset: i * 64, size: 10 + i }).collect()),
        constant_segment: Some(sub(2, &[0, 16, 48])),
        mutable_data_segments: Some(vec![sub(3, &[0, 8]), SubsegmentOffsets { segment_index: 1, offsets: None }]),
        ..Default::default()
    }
}

#[test]
fn views_read_every_kind_and_field_as_the_decoder_does() {
    let bytes = encode_program(&every_kind(), &EncodeOptions::default()).unwrap();
    assert_eq!(check_program("every_kind", &bytes), 2 + 39 * 10 + 3 + 1 + 30 * 5 + 7 + 4);
}

/// Values and instructions whose union tag the schema does not declare are
/// handed to the checks as the views read them: unknown, with their tag.
#[test]
fn checks_see_unknown_union_tags_as_the_views_do() {
    struct Tags(std::sync::Mutex<Vec<(usize, Option<u8>)>>);
    fn unknown(v: ValueRef<'_>) -> Option<u8> {
        match v {
            ValueRef::Unknown(t) => Some(t),
            _ => None,
        }
    }
    impl ElementChecks for Tags {
        fn value(&self, _: usize, index: usize, v: ValueRef<'_>) -> bool {
            self.0.lock().unwrap().push((index, unknown(v)));
            true
        }
        fn instruction(&self, _: usize, i: InstructionRef<'_>) -> bool {
            let tag = match i {
                InstructionRef::Unknown(t) => Some(t),
                _ => None,
            };
            self.0.lock().unwrap().push((usize::MAX, tag));
            true
        }
    }
    let program = Program {
        execution_plan: Some(vec![ExecutionPlan {
            values: Some(vec![EValue { val: Some(KernelTypes::Int(5)) }; 2]),
            chains: Some(vec![Chain {
                instructions: Some(vec![Instruction {
                    instr_args: Some(InstructionArguments::MoveCall { move_from: 0, move_to: 1 }),
                }]),
                ..Default::default()
            }]),
            ..Default::default()
        }]),
        ..Default::default()
    };
    let bytes = encode_program(&program, &EncodeOptions::default()).unwrap();
    // the Int tag (2) and the MoveCall tag (3) are each a byte of their own:
    // find them by trying every byte with those values
    let mut seen = [false; 2];
    for i in 8..bytes.len() {
        let Some(which) = [2u8, 3].iter().position(|&t| t == bytes[i]) else { continue };
        let mut b = bytes.clone();
        b[i] = 200;
        let Ok(view) = ProgramView::new(&b, &Limits::default()) else { continue };
        if !view.has_unknown_union_tag() {
            continue;
        }
        let tags = Tags(Default::default());
        let (_, passed) = ProgramView::with_checks(&b, &Limits::default(), &tags).unwrap();
        assert!(passed);
        let mut got = tags.0.into_inner().unwrap();
        got.sort();
        let plan = view.plan(0).unwrap();
        let mut expected: Vec<_> = (0..2).map(|j| (j, unknown(plan.value_ref(j).unwrap()))).collect();
        let ins = plan.chain(0).unwrap().instructions().unwrap().next().unwrap();
        expected.push((usize::MAX, matches!(ins, InstructionRef::Unknown(200)).then_some(200)));
        assert_eq!(got, expected, "tag byte {i}");
        assert!(got.iter().any(|(_, t)| *t == Some(200)));
        seen[which] = true;
    }
    assert_eq!(seen, [true, true], "an unknown value tag and an unknown instruction tag were both tried");
}
