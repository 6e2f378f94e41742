//! Every rule of the `.pte`, `.ptd` and `.bpte` verifiers as a typed
//! [`Rule`], grouped into one [`Catalogue`] per format. This is a data
//! table: docs/verifier.md is generated from it, and every violation the
//! verifiers report names one of these constants.

use pte_core::{errors, Catalogue, Rule, Stage};

/// The `file.min_size` rule.
pub const FILE_MIN_SIZE: Rule =
    Rule::new("file.min_size", "the file is at least 64 bytes (H1: loaders read 64 header bytes)")
        .refused_with(errors::INVALID_ARGUMENT, Stage::ProgramLoad);
/// The `header.length` rule.
pub const HEADER_LENGTH: Rule = Rule::new("header.length", "an eh00 header's length is at least 24 (H3)")
    .refused_with(errors::INVALID_PROGRAM, Stage::ProgramLoad);
/// The `header.program_size` rule.
pub const HEADER_PROGRAM_SIZE: Rule =
    Rule::new("header.program_size", "program_size is between 8 and the file size (H6, H8)")
        .refused_with(errors::INVALID_PROGRAM, Stage::ProgramLoad);
/// The `header.file_size` rule.
pub const HEADER_FILE_SIZE: Rule =
    Rule::new("header.file_size", "segment_base_offset + segment_data_size fits in the file, without overflow (H5)")
        .refused_with(errors::INVALID_PROGRAM, Stage::ProgramLoad);
/// The `header.segment_base` rule.
pub const HEADER_SEGMENT_BASE: Rule =
    Rule::new("header.segment_base", "segment_base_offset is not inside the flatbuffer region (S2)");
/// The `header.required` rule.
pub const HEADER_REQUIRED: Rule =
    Rule::new("header.required", "a file whose segments hold data has an extended header (S1, trap 6)")
        .refused_with(errors::NOT_FOUND, Stage::LoadMethod);
/// The `flatbuffer.identifier` rule.
pub const FLATBUFFER_IDENTIFIER: Rule = Rule::new("flatbuffer.identifier", "bytes 4..8 are ET12 (H9)")
    .refused_with(errors::INVALID_PROGRAM, Stage::ProgramLoad);
/// The `flatbuffer.root_offset` rule.
pub const FLATBUFFER_ROOT_OFFSET: Rule =
    Rule::new("flatbuffer.root_offset", "the root offset is within [8, program_size - 4] (H11)")
        .refused_with(errors::INVALID_PROGRAM, Stage::ProgramLoad);
/// The `flatbuffer.structure` rule.
pub const FLATBUFFER_STRUCTURE: Rule =
    Rule::new("flatbuffer.structure", "the flatbuffer passes the verifier within the limits (H10)")
        .refused_with(errors::INVALID_PROGRAM, Stage::ProgramLoad);
/// The `flatbuffer.union_tag` rule.
pub const FLATBUFFER_UNION_TAG: Rule =
    Rule::new("flatbuffer.union_tag", "every union tag is one the schema declares (M4)")
        .refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `program.version` rule.
pub const PROGRAM_VERSION: Rule = Rule::new("program.version", "the schema version is 0 (H12)")
    .refused_with(errors::INVALID_PROGRAM, Stage::ProgramLoad);
/// The `program.execution_plan` rule.
pub const PROGRAM_EXECUTION_PLAN: Rule =
    Rule::new("program.execution_plan", "execution_plan is present (validate_program)")
        .refused_with(errors::INVALID_PROGRAM, Stage::ProgramLoad);
/// The `program.constant_segment` rule.
pub const PROGRAM_CONSTANT_SEGMENT: Rule = Rule::new("program.constant_segment", "constant_segment has offsets, else the deprecated constant_buffer path is taken (P3); a warning, since only some runtime builds compile that path out")
    .refused_with(errors::INVALID_PROGRAM, Stage::ProgramLoad);
/// The `program.constant_buffer` rule.
pub const PROGRAM_CONSTANT_BUFFER: Rule =
    Rule::new("program.constant_buffer", "constant_buffer is empty when constant_segment holds constants (P2)")
        .refused_with(errors::INVALID_PROGRAM, Stage::ProgramLoad);
/// The `program.named_data_segments` rule.
pub const PROGRAM_NAMED_DATA_SEGMENTS: Rule =
    Rule::new("program.named_data_segments", "named_data requires the segments vector (P1)")
        .refused_with(errors::INVALID_ARGUMENT, Stage::ProgramLoad);
/// The `segment.index` rule.
pub const SEGMENT_INDEX: Rule =
    Rule::new("segment.index", "every segment reference is within the segment table (P2, P5, T10, named data)")
        .refused_with(errors::INVALID_PROGRAM, Stage::ProgramLoad);
/// The `segment.bounds` rule.
pub const SEGMENT_BOUNDS: Rule =
    Rule::new("segment.bounds", "every segment lies inside the file and inside segment_data_size (S3)")
        .refused_with(errors::INVALID_ARGUMENT, Stage::ProgramLoad);
/// The `segment.overlap` rule.
pub const SEGMENT_OVERLAP: Rule = Rule::new("segment.overlap", "non-empty segments do not overlap (S4)");
/// The `subsegment.offsets` rule.
pub const SUBSEGMENT_OFFSETS: Rule =
    Rule::new("subsegment.offsets", "sub-segment offsets are non-decreasing and inside their segment (S6)")
        .refused_with(errors::INVALID_ARGUMENT, Stage::LoadMethod);
/// The `constant.bounds` rule.
pub const CONSTANT_BOUNDS: Rule =
    Rule::new("constant.bounds", "each constant tensor's bytes lie inside its sub-segment or buffer (P4)")
        .refused_with(errors::INVALID_ARGUMENT, Stage::LoadMethod);
/// The `mutable.bounds` rule.
pub const MUTABLE_BOUNDS: Rule = Rule::new("mutable.bounds", "each mutable tensor's initial data lies inside mutable segment 0, in a file with a segment base, copied into a planned buffer of non-zero size (T10)").refused_with(errors::INVALID_ARGUMENT, Stage::LoadMethod);
/// The `delegate.fields` rule.
pub const DELEGATE_FIELDS: Rule =
    Rule::new("delegate.fields", "delegates have an id, a processed reference and complete compile specs (M5)")
        .refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `delegate.data` rule.
pub const DELEGATE_DATA: Rule = Rule::new("delegate.data", "inline and segment delegate references resolve (P5, P6)")
    .refused_with(errors::NOT_FOUND, Stage::LoadMethod);
/// The `payload.structure` rule.
pub const PAYLOAD_STRUCTURE: Rule = Rule::new("payload.structure", "a delegate payload of a backend with a reader (XnnpackBackend, NativeBackend) parses as that backend reads it: XNNPACK's XH00 header ranges inside the payload and the flatbuffer's, an XN01/XN00 (NPTG) flatbuffer passing the verifier, no unknown union tag, xvalues and xnodes present, no empty node");
/// The `payload.ids` rule.
pub const PAYLOAD_IDS: Rule = Rule::new("payload.ids", "every value id a node names is defined by a value; external ids are below num_externs (at most 4096) and unique; value ids are unique");
/// The `payload.value` rule.
pub const PAYLOAD_VALUE: Rule = Rule::new("payload.value", "values carry what the backend dereferences: a tensor, quantization parameters, scales, 2 dims for blockwise quantization, only the external input/output flags");
/// The `payload.constant` rule.
pub const PAYLOAD_CONSTANT: Rule = Rule::new("payload.constant", "every constant index a value uses is in the constant table, every constant's bytes lie inside the payload's constant data, and every constant (in the payload or a named blob) holds the bytes the backend reads");
/// The `payload.named_key` rule.
pub const PAYLOAD_NAMED_KEY: Rule = Rule::new("payload.named_key", "a key a payload needs is in the program's named data; a warning, since a .ptd may provide it at load time (`--ptd` checks it: link.payload_key)");
/// The `plan.name` rule.
pub const PLAN_NAME: Rule =
    Rule::new("plan.name", "each plan has a name (M1, M2)").refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `plan.fields` rule.
pub const PLAN_FIELDS: Rule =
    Rule::new("plan.fields", "values, inputs, outputs and non_const_buffer_sizes are present (M2, M3)")
        .refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `plan.io_index` rule.
pub const PLAN_IO_INDEX: Rule =
    Rule::new("plan.io_index", "method inputs and outputs refer to existing values (MethodMeta)")
        .refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `plan.chains` rule.
pub const PLAN_CHAINS: Rule = Rule::new("plan.chains", "chains are present and non-empty, instructions present (M6)")
    .refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `plan.buffer_sizes` rule.
pub const PLAN_BUFFER_SIZES: Rule = Rule::new("plan.buffer_sizes", "planned buffer sizes are non-negative (M10)")
    .refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `value.null` rule.
pub const VALUE_NULL: Rule = Rule::new("value.null", "every value has a payload; None is the Null table (M3)")
    .refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `value.list` rule.
pub const VALUE_LIST: Rule =
    Rule::new("value.list", "list and string payloads are present; list items refer to valid values (M4)")
        .refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `value.tensor_list` rule.
pub const VALUE_TENSOR_LIST: Rule =
    Rule::new("value.tensor_list", "tensor list items refer to earlier Tensor (or, optional, Null) values (M4)")
        .refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `instruction.args` rule.
pub const INSTRUCTION_ARGS: Rule =
    Rule::new("instruction.args", "instruction arguments are present and refer to existing values (M7, M8, M9)")
        .refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `instruction.operator` rule.
pub const INSTRUCTION_OPERATOR: Rule = Rule::new(
    "instruction.operator",
    "kernel calls name an existing operator whose lookup name is under 100 bytes (M7)",
)
.refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `instruction.delegate` rule.
pub const INSTRUCTION_DELEGATE: Rule =
    Rule::new("instruction.delegate", "delegate calls name an existing delegate (M8)")
        .refused_with(errors::INTERNAL, Stage::Execute);
/// The `tensor.storage_offset` rule.
pub const TENSOR_STORAGE_OFFSET: Rule = Rule::new("tensor.storage_offset", "storage_offset is 0 (T1)")
    .refused_with(errors::NOT_SUPPORTED, Stage::LoadMethod);
/// The `tensor.scalar_type` rule.
pub const TENSOR_SCALAR_TYPE: Rule =
    Rule::new("tensor.scalar_type", "the scalar type is one the runtime accepts, 0..=29 (T2)")
        .refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `tensor.dynamism` rule.
pub const TENSOR_DYNAMISM: Rule = Rule::new("tensor.dynamism", "shape_dynamism is not DYNAMIC_UNBOUND (T3)")
    .refused_with(errors::NOT_SUPPORTED, Stage::LoadMethod);
/// The `tensor.sizes` rule.
pub const TENSOR_SIZES: Rule =
    Rule::new("tensor.sizes", "sizes are present, at most 16, non-negative, and numel × size fits (T4, T5)")
        .refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `tensor.dim_order` rule.
pub const TENSOR_DIM_ORDER: Rule =
    Rule::new("tensor.dim_order", "dim_order is a permutation of the dimensions (T4, T6)")
        .refused_with(errors::INVALID_PROGRAM, Stage::LoadMethod);
/// The `tensor.memory_plan` rule.
pub const TENSOR_MEMORY_PLAN: Rule =
    Rule::new("tensor.memory_plan", "planned tensors name an existing buffer and fit inside it (T8)")
        .refused_with(errors::INVALID_ARGUMENT, Stage::LoadMethod);
/// The `memory.overlap` rule.
pub const MEMORY_OVERLAP: Rule = Rule::new("memory.overlap", "a warning, on a program breaking no other rule: two planned tensors of one buffer share bytes while both hold data (a lifetime runs from the first instruction naming the tensor, directly or in a list, to the last; inputs from the start, outputs to the end, mutable buffers throughout; see `pte memory`), so the plan corrupts data; the runtime does not check this");
/// The `tensor.external` rule.
pub const TENSOR_EXTERNAL: Rule = Rule::new("tensor.external", "EXTERNAL tensors carry a fully qualified name (T11)")
    .refused_with(errors::INVALID_EXTERNAL_DATA, Stage::LoadMethod);

/// The `ptd.header` rule.
pub const PTD_HEADER: Rule = Rule::new(
    "ptd.header",
    "a .ptd has a valid FH01 header whose flatbuffer region and segment data fit the file (D1-D4)",
)
.refused_with(errors::INVALID_EXTERNAL_DATA, Stage::ProgramLoad);
/// The `ptd.identifier` rule.
pub const PTD_IDENTIFIER: Rule = Rule::new("ptd.identifier", "bytes 4..8 of a .ptd are FT01 (D5)")
    .refused_with(errors::INVALID_EXTERNAL_DATA, Stage::ProgramLoad);
/// The `ptd.structure` rule.
pub const PTD_STRUCTURE: Rule =
    Rule::new("ptd.structure", "the FT01 flatbuffer passes the verifier (the runtime runs none: D7)");
/// The `ptd.fields` rule.
pub const PTD_FIELDS: Rule = Rule::new("ptd.fields", "named_data and segments are present, every key is set (D8, D10)")
    .refused_with(errors::INVALID_EXTERNAL_DATA, Stage::ProgramLoad);
/// The `ptd.version` rule.
pub const PTD_VERSION: Rule = Rule::new("ptd.version", "the .ptd schema version is 0 (D9)")
    .refused_with(errors::INVALID_EXTERNAL_DATA, Stage::ProgramLoad);
/// The `ptd.segment` rule.
pub const PTD_SEGMENT: Rule =
    Rule::new("ptd.segment", "every key's segment exists and lies inside segment_data_size (D10)")
        .refused_with(errors::INVALID_EXTERNAL_DATA, Stage::LoadMethod);
/// The `ptd.duplicate_key` rule.
pub const PTD_DUPLICATE_KEY: Rule =
    Rule::new("ptd.duplicate_key", "no key appears twice (the runtime silently takes the first)");
/// The `ptd.layout` rule.
pub const PTD_LAYOUT: Rule = Rule::new(
    "ptd.layout",
    "tensor layouts have sizes and a dim_order of the same rank, a permutation, sizes >= 0 (D12)",
)
.refused_with(errors::INVALID_ARGUMENT, Stage::LoadMethod);
/// The `ptd.size` rule.
pub const PTD_SIZE: Rule = Rule::new("ptd.size", "a tensor blob holds exactly its layout's byte size (D13)")
    .refused_with(errors::INVALID_ARGUMENT, Stage::LoadMethod);
/// The `link.missing` rule.
pub const LINK_MISSING: Rule =
    Rule::new("link.missing", "every EXTERNAL tensor's key is found in the given .ptd files (T11)")
        .refused_with(errors::NOT_FOUND, Stage::LoadMethod);
/// The `link.duplicate` rule.
pub const LINK_DUPLICATE: Rule = Rule::new(
    "link.duplicate",
    "no key is found in more than one .ptd, nor in both a .ptd and the program's named data (D15, N2)",
)
.refused_with(errors::INVALID_ARGUMENT, Stage::ProgramLoad);
/// The `link.layout` rule.
pub const LINK_LAYOUT: Rule =
    Rule::new("link.layout", "the .ptd layout matches the tensor: dtype, sizes, dim_order (T11)")
        .refused_with(errors::INVALID_EXTERNAL_DATA, Stage::LoadMethod);
/// The `link.size` rule.
pub const LINK_SIZE: Rule =
    Rule::new("link.size", "the .ptd blob holds exactly the tensor's byte size (the runtime does not check this)");
/// The `link.payload_key` rule.
pub const LINK_PAYLOAD_KEY: Rule = Rule::new("link.payload_key", "every named-data key a delegate payload needs is in the program's named data or a given .ptd; the message names the key and the delegate").refused_with(errors::NOT_FOUND, Stage::LoadMethod);

/// The `bpte.structure` rule.
pub const BPTE_STRUCTURE: Rule = Rule::new("bpte.structure", "a .bpte is a BP08 flatbuffer passing the flatbuffers verifier within the limits, with no unknown union tag (stops verification)");
/// The `bpte.program` rule.
pub const BPTE_PROGRAM: Rule = Rule::new("bpte.program", "the embedded program is present and decodes; its own violations are reported under the program rules with a `program:` path and file offsets");
/// The `bpte.alignment` rule.
pub const BPTE_ALIGNMENT: Rule = Rule::new("bpte.alignment", "the embedded program starts at a multiple of 16 (the runtime needs a 16-aligned program); not a multiple of 32 as the schema asks, or tensor data not 16-aligned, is a warning");
/// The `bpte.suite_method` rule.
pub const BPTE_SUITE_METHOD: Rule = Rule::new("bpte.suite_method", "each suite names a method the program has (a second suite for the same method is a warning: the runtime uses the first)");
/// The `bpte.case_count` rule.
pub const BPTE_CASE_COUNT: Rule = Rule::new("bpte.case_count", "each case holds exactly as many inputs and expected outputs as the method has inputs and outputs, and at least one output (the runtime indexes them without bounds checks)");
/// The `bpte.value_kind` rule.
pub const BPTE_VALUE_KIND: Rule = Rule::new("bpte.value_kind", "each input matches the kind of the method's input value (tensor, int, bool, double; never an empty value) and each expected output is a tensor for a tensor output");
/// The `bpte.tensor` rule.
pub const BPTE_TENSOR: Rule = Rule::new("bpte.tensor", "each tensor matches the method's: dtype, rank, sizes (equal when static, within the bound when dynamic), dim_order, and data of exactly numel × element size bytes");

/// The `needs.external_data` rule.
pub const NEEDS_EXTERNAL_DATA: Rule = Rule::new("needs.external_data", "the program has EXTERNAL tensors and no `--ptd` was given: every key is listed. With the right `--ptd` the `link.*` rules check them instead and the warning is gone").refused_with(errors::INVALID_STATE, Stage::LoadMethod);
/// The `needs.operator` rule.
pub const NEEDS_OPERATOR: Rule = Rule::new("needs.operator", "a method calls an operator the stock runtime of the newest release with data (`pte ops --runtime VERSION` for another) does not register: a custom kernel must be linked in. The warning names the releases that do register it (data: `crates/pte-analysis/data/operators-<release>.txt`)").refused_with(errors::OPERATOR_MISSING, Stage::LoadMethod);
/// The `needs.device` rule.
pub const NEEDS_DEVICE: Rule = Rule::new("needs.device", "a planned buffer (`non_const_buffer_device`) or a tensor (`extra_tensor_info.device_type`) is on a device other than the CPU; a CPU-only runtime cannot allocate it");
/// The `needs.storage` rule.
pub const NEEDS_STORAGE: Rule = Rule::new("needs.storage", "a named tensor (an attribute, such as a module's state) that an instruction hands to a kernel or delegate, and that is neither a method input nor an output, has no storage in the program (not memory-planned, no constant data, not EXTERNAL) and holds bytes: the runtime leaves its data null until the application binds memory to it, and a kernel that reads it first reads a null pointer (the stock 1.5.1 runtime loads such a program and crashes in execute)");

/// The program rules.
pub const PTE: Catalogue = Catalogue {
    format: "`.pte` programs",
    intro: "`pte verify PROGRAM.pte` (library: `pte_verify::verify_bytes`). The \
letter-number codes name the stock runtime's load rules, each defined in \
[docs/load-rules.md](load-rules.md) (H = header, P = program data, M = method, T = tensor, \
N = named data, D = `.ptd` data, S = segment rules stricter than the runtime: what a correct \
file satisfies, not what the runtime checks).\n\nA structural failure (header, identifier, root offset, flatbuffer \
verifier, unknown union tag) stops verification: nothing after it can be trusted. All other rules \
are checked together, so one run reports every violation.",
    rules: &[
        FILE_MIN_SIZE,
        HEADER_LENGTH,
        HEADER_PROGRAM_SIZE,
        HEADER_FILE_SIZE,
        HEADER_SEGMENT_BASE,
        HEADER_REQUIRED,
        FLATBUFFER_IDENTIFIER,
        FLATBUFFER_ROOT_OFFSET,
        FLATBUFFER_STRUCTURE,
        FLATBUFFER_UNION_TAG,
        PROGRAM_VERSION,
        PROGRAM_EXECUTION_PLAN,
        PROGRAM_CONSTANT_SEGMENT,
        PROGRAM_CONSTANT_BUFFER,
        PROGRAM_NAMED_DATA_SEGMENTS,
        SEGMENT_INDEX,
        SEGMENT_BOUNDS,
        SEGMENT_OVERLAP,
        SUBSEGMENT_OFFSETS,
        CONSTANT_BOUNDS,
        MUTABLE_BOUNDS,
        DELEGATE_FIELDS,
        DELEGATE_DATA,
        PAYLOAD_STRUCTURE,
        PAYLOAD_IDS,
        PAYLOAD_VALUE,
        PAYLOAD_CONSTANT,
        PAYLOAD_NAMED_KEY,
        PLAN_NAME,
        PLAN_FIELDS,
        PLAN_IO_INDEX,
        PLAN_CHAINS,
        PLAN_BUFFER_SIZES,
        VALUE_NULL,
        VALUE_LIST,
        VALUE_TENSOR_LIST,
        INSTRUCTION_ARGS,
        INSTRUCTION_OPERATOR,
        INSTRUCTION_DELEGATE,
        TENSOR_STORAGE_OFFSET,
        TENSOR_SCALAR_TYPE,
        TENSOR_DYNAMISM,
        TENSOR_SIZES,
        TENSOR_DIM_ORDER,
        TENSOR_MEMORY_PLAN,
        TENSOR_EXTERNAL,
        MEMORY_OVERLAP,
    ],
};

/// The data file and link rules.
pub const PTD: Catalogue = Catalogue {
    format: "`.ptd` data files and their links",
    intro: "`pte verify DATA.ptd` (library: `pte_verify::verify_ptd_bytes`) runs the `ptd.*` rules. \
`pte verify PROGRAM.pte --ptd DATA.ptd ...` also runs them on each data file and the `link.*` rules \
on the pair (library: `verify_link`).",
    rules: &[
        PTD_HEADER,
        PTD_IDENTIFIER,
        PTD_STRUCTURE,
        PTD_FIELDS,
        PTD_VERSION,
        PTD_SEGMENT,
        PTD_DUPLICATE_KEY,
        PTD_LAYOUT,
        PTD_SIZE,
        LINK_MISSING,
        LINK_DUPLICATE,
        LINK_LAYOUT,
        LINK_SIZE,
        LINK_PAYLOAD_KEY,
    ],
};

/// The bundle rules.
pub const BPTE: Catalogue = Catalogue {
    format: "`.bpte` bundles",
    intro: "`pte verify BUNDLE.bpte` (library: `pte_verify::verify_bpte_bytes`) checks the bundle, \
and the program it embeds under the program rules.",
    rules: &[
        BPTE_STRUCTURE,
        BPTE_PROGRAM,
        BPTE_ALIGNMENT,
        BPTE_SUITE_METHOD,
        BPTE_CASE_COUNT,
        BPTE_VALUE_KIND,
        BPTE_TENSOR,
    ],
};

/// The rules of what a program needs from outside.
pub const NEEDS: Catalogue = Catalogue {
    format: "What a program needs from outside",
    intro: "A sound program may still not load in a stock CPU runtime given nothing else. \
`pte verify PROGRAM.pte` reports these as warnings (exit 0; exit 1 with `--deny-warnings`), naming \
the keys, buffers, tensors and operators (library: `pte_verify::external_needs`, `device_needs`, `storage_needs`, \
`operator_needs`).",
    rules: &[NEEDS_EXTERNAL_DATA, NEEDS_DEVICE, NEEDS_STORAGE, NEEDS_OPERATOR],
};

/// Every catalogue of this crate, in documentation order.
pub const CATALOGUES: &[Catalogue] = &[PTE, PTD, BPTE, NEEDS];
