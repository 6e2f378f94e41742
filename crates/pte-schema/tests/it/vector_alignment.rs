//! Vectors of 8-byte scalars whose elements start 4 bytes off an 8-byte
//! boundary: ExecuTorch's writer leaves some (an empty `IntList.items` in
//! upstream's `xor.pte`), and the runtime's C++ verifier accepts them, since
//! it checks a vector's length word for alignment but not its elements.
//! Every verifier here accepts them too (the structural walk, the reference
//! path, the native graph's) and the values read back unchanged.

use crate::support::misalign_vector;

use pte_schema::native::{decode_native_program, encode_native_program, NativeProgramView};
use pte_schema::{
    decode_program, encode_program, verify_program_reference, EValue, EncodeOptions, ExecutionPlan, KernelTypes,
    Limits, Program, ProgramView, ValueRef,
};

const INTS: [i64; 3] = [0x0102_0304_0506_0708, -77, i64::MIN];
const DOUBLES: [f64; 2] = [-1.0e300, 0.1];

fn program() -> Vec<u8> {
    let values = vec![
        EValue { val: Some(KernelTypes::IntList(Some(INTS.to_vec()))) },
        EValue { val: Some(KernelTypes::DoubleList(Some(DOUBLES.to_vec()))) },
    ];
    let plan = ExecutionPlan { name: Some("forward".into()), values: Some(values), ..Default::default() };
    let p = Program { execution_plan: Some(vec![plan]), ..Default::default() };
    encode_program(&p, &EncodeOptions::default()).unwrap()
}

/// What the model holds for values 0 and 1 after `buf` passed every verifier.
fn read_back(buf: &[u8]) -> (Option<Vec<i64>>, Option<Vec<f64>>) {
    let limits = Limits::default();
    verify_program_reference(buf, &limits).unwrap();
    let view = ProgramView::new(buf, &limits).unwrap();
    let plan = view.plan(0).unwrap();
    let (ValueRef::IntList(ints), ValueRef::DoubleList(doubles)) =
        (plan.value_ref(0).unwrap(), plan.value_ref(1).unwrap())
    else {
        panic!("values 0 and 1 are lists")
    };
    let viewed = (ints.map(|l| l.iter().collect::<Vec<_>>()), doubles.map(|l| l.iter().collect::<Vec<_>>()));
    let decoded = decode_program(buf, &limits).unwrap();
    let values = decoded.execution_plan.unwrap().remove(0).values.unwrap();
    match (&values[0].val, &values[1].val) {
        (Some(KernelTypes::IntList(i)), Some(KernelTypes::DoubleList(d))) => {
            assert_eq!(viewed.0, *i);
            assert_eq!(
                viewed.1.as_ref().map(|v| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>()),
                d.as_ref().map(|v| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
            );
        }
        other => panic!("{other:?}"),
    }
    viewed
}

#[test]
fn a_misaligned_non_empty_int_list_is_accepted_and_reads_back() {
    let aligned = program();
    let (buf, start) = misalign_vector(&aligned, &INTS.map(i64::to_le_bytes), false);
    assert_eq!(start % 8, 4);
    assert_eq!(read_back(&buf), (Some(INTS.to_vec()), Some(DOUBLES.to_vec())));
}

#[test]
fn a_misaligned_empty_int_list_is_accepted_and_reads_back() {
    let (buf, _) = misalign_vector(&program(), &INTS.map(i64::to_le_bytes), true);
    assert_eq!(read_back(&buf), (Some(vec![]), Some(DOUBLES.to_vec())));
}

#[test]
fn a_misaligned_double_list_is_accepted_and_reads_back() {
    let (buf, _) = misalign_vector(&program(), &DOUBLES.map(f64::to_le_bytes), false);
    assert_eq!(read_back(&buf), (Some(INTS.to_vec()), Some(DOUBLES.to_vec())));
}

/// The length word is still held to 4 bytes, as the runtime holds it: a
/// vector whose offset lands 2 bytes further is refused by both paths.
#[test]
fn a_misaligned_length_word_is_still_refused() {
    let (mut buf, start) = misalign_vector(&program(), &INTS.map(i64::to_le_bytes), false);
    let len_word = start - 4;
    let field = (0..len_word)
        .step_by(4)
        .find(|&f| f + u32::from_le_bytes(buf[f..f + 4].try_into().unwrap()) as usize == len_word)
        .unwrap();
    buf.extend_from_slice(&[0; 4]);
    let moved = u32::from_le_bytes(buf[field..field + 4].try_into().unwrap()) + 2;
    buf[field..field + 4].copy_from_slice(&moved.to_le_bytes());
    let fast = ProgramView::new(&buf, &Limits::default()).err().unwrap();
    let reference = verify_program_reference(&buf, &Limits::default()).unwrap_err();
    assert_eq!(fast.to_string(), reference.to_string());
    assert!(fast.to_string().contains("misaligned"), "{fast}");
}

#[test]
fn a_native_graph_with_misaligned_list_arguments_is_accepted_and_reads_back() {
    let program = crate::native::fixture();
    let encoded = encode_native_program(&program).unwrap();
    let (ints, _) = misalign_vector(&encoded, &[2i64, -1].map(i64::to_le_bytes), false);
    let (both, _) = misalign_vector(&ints, &[1.5f64, -2.0].map(f64::to_le_bytes), false);
    for buf in [&ints, &both] {
        NativeProgramView::new(buf, &Limits::default()).unwrap();
        assert_eq!(decode_native_program(buf, &Limits::default()).unwrap(), program);
    }
}
