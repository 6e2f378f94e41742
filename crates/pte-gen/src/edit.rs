//! Byte- and model-level editing helpers the generators share.

use std::io::{Read, Write};

use pte_file::{PteFile, WriteOptions};

/// A generator's failure reason (the catalogue adds the class name).
pub(crate) type Edit<T> = Result<T, String>;

pub(crate) fn put_u32(b: &mut [u8], at: usize, v: u32) -> Edit<()> {
    let end = at.checked_add(4).ok_or("offset overflows")?;
    b.get_mut(at..end).ok_or_else(|| format!("no 4 bytes at {at}"))?.copy_from_slice(&v.to_le_bytes());
    Ok(())
}

pub(crate) fn put_u64(b: &mut [u8], at: usize, v: u64) -> Edit<()> {
    let end = at.checked_add(8).ok_or("offset overflows")?;
    b.get_mut(at..end).ok_or_else(|| format!("no 8 bytes at {at}"))?.copy_from_slice(&v.to_le_bytes());
    Ok(())
}

pub(crate) fn get_u32(b: &[u8], at: usize) -> Edit<u32> {
    let bytes = b.get(at..at.saturating_add(4)).ok_or_else(|| format!("no 4 bytes at {at}"))?;
    let mut a = [0u8; 4];
    a.copy_from_slice(bytes);
    Ok(u32::from_le_bytes(a))
}

/// Position of the first occurrence of `needle`.
pub(crate) fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len().max(1)).position(|w| w == needle)
}

/// Overwrites the first occurrence of `needle` with `with` (same length).
pub(crate) fn replace_first(b: &mut [u8], needle: &[u8], with: &[u8]) -> Edit<usize> {
    let at = find_bytes(b, needle).ok_or_else(|| format!("{:?} does not occur", String::from_utf8_lossy(needle)))?;
    b.get_mut(at..at.saturating_add(with.len())).ok_or("replacement past the end")?.copy_from_slice(with);
    Ok(at)
}

/// Reads a program, lets `change` edit the model, writes it with default options.
pub(crate) fn pte_model(bytes: &[u8], change: impl FnOnce(&mut PteFile<'_>) -> Edit<()>) -> Edit<Vec<u8>> {
    let mut pte = PteFile::from_bytes(bytes).map_err(|e| format!("not a readable program: {e}"))?;
    change(&mut pte)?;
    pte.to_bytes(&WriteOptions::default()).map_err(|e| format!("the writer refused the edit: {e}"))
}

/// The plan the edits target: the first.
pub(crate) fn first_plan<'p>(pte: &'p mut PteFile<'_>) -> Edit<&'p mut pte_schema::ExecutionPlan> {
    pte.program.execution_plan.as_mut().and_then(|p| p.first_mut()).ok_or_else(|| "no method".to_string())
}

/// Every member of a zip (name, content), in order.
pub(crate) fn unzip(bytes: &[u8]) -> Edit<Vec<(String, Vec<u8>)>> {
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| format!("not a zip: {e}"))?;
    let mut out = Vec::with_capacity(z.len());
    for i in 0..z.len() {
        let mut f = z.by_index(i).map_err(|e| e.to_string())?;
        let mut data = Vec::new();
        f.read_to_end(&mut data).map_err(|e| e.to_string())?;
        out.push((f.name().map_err(|e| e.to_string())?.to_string(), data));
    }
    Ok(out)
}

/// A stored zip of `members`, in order (no validation: that is the point).
pub(crate) fn rezip(members: &[(String, Vec<u8>)]) -> Edit<Vec<u8>> {
    rezip_with(members, |_| false)
}

/// A zip of `members`, in order, those `deflate` picks deflated, the rest stored.
pub(crate) fn rezip_with(members: &[(String, Vec<u8>)], deflate: impl Fn(&str) -> bool) -> Edit<Vec<u8>> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default());
    for (name, data) in members {
        let method = if deflate(name) { zip::CompressionMethod::Deflated } else { zip::CompressionMethod::Stored };
        w.start_file(name.as_str(), opts.compression_method(method)).map_err(|e| e.to_string())?;
        w.write_all(data).map_err(|e| e.to_string())?;
    }
    Ok(w.finish().map_err(|e| e.to_string())?.into_inner())
}

/// Edits the member list of a package and zips it again.
pub(crate) fn ptn_members(bytes: &[u8], change: impl FnOnce(&mut Vec<(String, Vec<u8>)>) -> Edit<()>) -> Edit<Vec<u8>> {
    let mut m = unzip(bytes)?;
    change(&mut m)?;
    rezip(&m)
}

/// A package with the members whose names `gone` picks removed; a package
/// with none of them is `missing`, an error.
pub(crate) fn without_members(bytes: &[u8], gone: impl Fn(&str) -> bool, missing: &str) -> Edit<Vec<u8>> {
    ptn_members(bytes, |m| {
        let before = m.len();
        m.retain(|(n, _)| !gone(n));
        if m.len() == before {
            return Err(missing.into());
        }
        Ok(())
    })
}

pub(crate) fn member<'m>(m: &'m mut [(String, Vec<u8>)], name: &str) -> Edit<&'m mut Vec<u8>> {
    m.iter_mut().find(|(n, _)| n == name).map(|(_, d)| d).ok_or_else(|| format!("no member {name}"))
}

/// Adds a valid one-sample set for the package's first method, then lets
/// `change` edit its index text and data blob.
pub(crate) fn with_samples(bytes: &[u8], change: impl FnOnce(&mut String, &mut Vec<u8>) -> Edit<()>) -> Edit<Vec<u8>> {
    let (written, loc) = with_call(bytes, |_| Ok(()))?;
    ptn_members(&written, |m| {
        let mut index = String::from_utf8(member(m, &loc.index_member())?.clone()).map_err(|e| e.to_string())?;
        let mut data = member(m, &loc.data_member())?.clone();
        change(&mut index, &mut data)?;
        *member(m, &loc.index_member())? = index.into_bytes();
        *member(m, &loc.data_member())? = data;
        Ok(())
    })
}

/// Adds a one-sample, one-call set for the package's first method whose call
/// meets the method's signature, after `change` edited that call; returns the
/// package and where the set is.
pub(crate) fn with_call(
    bytes: &[u8],
    change: impl FnOnce(&mut pte_samples::Call<'static>) -> Edit<()>,
) -> Edit<(Vec<u8>, pte_samples::Location)> {
    let mut ptn = pte_ptn::PtnFile::from_bytes(bytes).map_err(|e| format!("not a readable package: {e}"))?;
    let program = ptn.native_program(&Default::default()).map_err(|e| format!("no readable program: {e}"))?;
    let method = program.methods.first().ok_or("the package has no method")?;
    let mut set = pte_samples::SampleSet::new(method.name.clone(), "generated");
    // one zero tensor per declared value, so the set meets the signature
    let (inputs, outputs) = declared_tensors(method)?;
    let mut call = pte_samples::Call { inputs, outputs, tolerance: None };
    change(&mut call)?;
    set.samples.push(pte_samples::Sample { name: None, tolerance: None, calls: vec![call] });
    let loc = pte_samples::Location::new(set.method.clone(), set.name.clone());
    pte_samples::put_set(&mut ptn, &set, true).map_err(|e| e.to_string())?;
    Ok((ptn.to_bytes().map_err(|e| e.to_string())?, loc))
}

/// Zero tensors for a method's declared inputs and outputs, each of the
/// declared dtype and static shape (an `F32 [2]` where the graph leaves it open).
fn declared_tensors(
    method: &pte_schema::native::NativeMethod,
) -> Edit<(Vec<pte_samples::Value<'static>>, Vec<pte_samples::Value<'static>>)> {
    let meta = |name: &str| method.graph.tensor_values.iter().flatten().find(|v| v.name == name).map(|v| &v.meta);
    let zero = |m: Option<&pte_schema::native::TensorMeta>| -> Edit<pte_samples::Value<'static>> {
        let dtype = m
            .and_then(|m| m.dtype.safetensors_dtype())
            .and_then(|code| serde_json::from_value::<pte_ptn::Dtype>(serde_json::json!(code)).ok())
            .unwrap_or(pte_ptn::Dtype::F32);
        let shape = m.and_then(|m| m.static_shape()).unwrap_or_else(|| vec![2]);
        let mut t = pte_ptn::PtnTensor { dtype, shape, data: std::borrow::Cow::Owned(vec![]) };
        let n = t.expected_len().and_then(|n| usize::try_from(n).ok()).ok_or("a declared tensor too large")?;
        t.data = std::borrow::Cow::Owned(vec![0u8; n]);
        Ok(pte_samples::Value::Tensor(t))
    };
    let ins = method.graph.inputs.iter().flatten().map(|n| zero(meta(n))).collect::<Edit<Vec<_>>>()?;
    // the outputs a caller gets back: state write-backs are not among them
    let names = method.graph.outputs.as_deref().unwrap_or(&[]);
    let specs = method.output_specs.as_deref().filter(|s| s.len() == names.len());
    let outs = names
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            specs.and_then(|s| s.get(*i)).is_none_or(|s| s.kind == pte_schema::native::OutputKind::USER_OUTPUT)
        })
        .map(|(_, n)| zero(meta(n)))
        .collect::<Edit<Vec<_>>>()?;
    Ok((ins, outs))
}

/// Decodes a bundle, edits the model, encodes it (alignments as the schema asks).
pub(crate) fn bundle_model(
    bytes: &[u8],
    change: impl FnOnce(&mut pte_schema::bundled::BundledProgram<'_>) -> Edit<()>,
) -> Edit<Vec<u8>> {
    let mut b = pte_schema::bundled::decode_bundled_program(bytes, &Default::default())
        .map_err(|e| format!("not a bundle: {e}"))?;
    change(&mut b)?;
    pte_schema::bundled::encode_bundled_program(&b).map_err(|e| e.to_string())
}

/// Every test case of a bundle, suite after suite.
pub(crate) fn test_cases_mut<'b, 'a>(
    b: &'b mut pte_schema::bundled::BundledProgram<'a>,
) -> impl Iterator<Item = &'b mut pte_schema::bundled::TestCase<'a>> {
    b.method_test_suites.iter_mut().flatten().flat_map(|s| s.test_cases.iter_mut().flatten())
}

/// The position an offset stored at `at` names.
pub(crate) fn follow(b: &[u8], at: usize) -> Edit<usize> {
    at.checked_add(get_u32(b, at)? as usize).ok_or_else(|| "offset overflows".to_string())
}

/// The position of field slot `vt` (a vtable byte offset) of the table at `table`.
pub(crate) fn field_slot(b: &[u8], table: usize, vt: usize) -> Edit<usize> {
    let back = get_u32(b, table)? as i32;
    let vtable = i64::try_from(table)
        .ok()
        .and_then(|r| r.checked_sub(i64::from(back)))
        .and_then(|v| usize::try_from(v).ok())
        .ok_or("vtable outside the buffer")?;
    let entry: [u8; 2] = b
        .get(vtable.saturating_add(vt)..vtable.saturating_add(vt).saturating_add(2))
        .and_then(|e| e.try_into().ok())
        .ok_or("no vtable entry")?;
    match usize::from(u16::from_le_bytes(entry)) {
        0 => Err("the table lacks the field".into()),
        field => Ok(table.saturating_add(field)),
    }
}
