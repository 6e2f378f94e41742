//! `.ptn` support in `info`, `dump`, `verify`, `extract` and `rewrite`.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::path::Path;

use serde_json::{json, Value};

use pte_ptn::PtnFile;

use crate::extract::{safe, sha};
use crate::{at, open, CmdResult, Failure};

pub(crate) fn read_ptn<'a>(path: &Path, bytes: &'a [u8]) -> Result<PtnFile<'a>, Failure> {
    PtnFile::from_bytes(bytes).map_err(at(path))
}

pub(crate) fn info_json(ptn: &PtnFile<'_>, bytes: &[u8]) -> Value {
    let program = ptn.native_program(&Default::default()).ok();
    let methods: Vec<Value> = program
        .iter()
        .flat_map(|p| p.methods.iter())
        .map(|m| {
            json!({
                "name": m.name,
                "nodes": m.graph.nodes.len(),
                "inputs": m.graph.inputs.as_ref().map(Vec::len),
                "outputs": m.graph.outputs.as_ref().map(Vec::len),
                "constants": m.constants.as_ref().map(Vec::len),
                "mutable_buffers": m.mutable_buffers.as_ref().map(Vec::len),
            })
        })
        .collect();
    let constants: Vec<Value> = ptn
        .constants()
        .map(|(key, t)| {
            json!({
                "key": key,
                "dtype": pte_ptn::dtype_code(t.dtype),
                "shape": t.shape,
                "size": t.data.len(),
                "sha256": sha(&t.data),
                "alias_of": ptn.aliases.get(key),
            })
        })
        .collect();
    json!({
        "format": "ptn",
        "file_size": bytes.len(),
        "program_size": ptn.program.len(),
        "version": program.as_ref().map(|p| p.version.clone()),
        "methods": methods,
        "constants": constants,
        "aliases": ptn.aliases,
        "metadata": ptn.metadata,
        "other_members": ptn.members.iter().map(|m| json!({"name": m.name, "size": m.data.len()})).collect::<Vec<_>>(),
    })
}

pub(crate) fn info_text(v: &Value) -> String {
    let mut out = format!(
        "ptn package, {} bytes; program.ptg {} bytes, version {}\n",
        v["file_size"], v["program_size"], v["version"]
    );
    for m in v["methods"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "method {}: {} nodes, {} inputs, {} outputs, {} constants\n",
            m["name"], m["nodes"], m["inputs"], m["outputs"], m["constants"]
        ));
    }
    let consts = v["constants"].as_array().map_or(0, Vec::len);
    out.push_str(&format!("constants: {consts}\n"));
    for c in v["constants"].as_array().into_iter().flatten() {
        let alias = c["alias_of"].as_str().map(|o| format!(" (alias of {o:?})")).unwrap_or_default();
        out.push_str(&format!(
            "  {} {} {} ({} bytes){alias}\n",
            c["key"],
            c["dtype"].as_str().unwrap_or(""),
            c["shape"],
            c["size"]
        ));
    }
    for m in v["other_members"].as_array().into_iter().flatten() {
        out.push_str(&format!("member {} ({} bytes)\n", m["name"], m["size"]));
    }
    out
}

pub(crate) fn dump(path: &Path, bytes: &[u8]) -> CmdResult {
    // Only the container must be sound: a program whose references are
    // broken still dumps.
    let ptn = PtnFile::from_bytes_unchecked(bytes).map_err(at(path))?;
    let program = ptn.native_program(&Default::default()).map_err(at(path))?;
    let v = pte_schema::native::native_program_to_json(&program);
    println!("{}", serde_json::to_string_pretty(&v)?);
    Ok(())
}

pub(crate) fn extract(file: &Path, target: crate::extract::Target<'_>) -> CmdResult {
    let map = open(file)?;
    let ptn = read_ptn(file, map.bytes())?;
    let mut count = crate::extract_out::Count::default();
    count.add(&ptn.program);
    ptn.constants().for_each(|(_, t)| count.add(&t.data));
    ptn.members.iter().for_each(|m| count.add(&m.data));
    count.check(target.max_files)?;
    let mut header = serde_json::Map::new();
    header.insert("manifest_version".into(), json!(2));
    header.insert("format".into(), json!("ptn"));
    header.insert("aliases".into(), json!(ptn.aliases));
    let mut out = crate::extract_out::Extraction::begin(target.dir, target.force, &header)?;
    out.put(pte_ptn::PROGRAM_MEMBER, &ptn.program, json!({"kind": "program"}))?;
    for (i, (key, t)) in ptn.constants().enumerate() {
        let name = format!("constants/{i:04}-{}.bin", safe(key));
        let extra = json!({"kind": "constant", "key": key, "dtype": pte_ptn::dtype_code(t.dtype), "shape": t.shape,
            "alias_of": ptn.aliases.get(key)});
        out.put(&name, &t.data, extra)?;
    }
    for (i, m) in ptn.members.iter().enumerate() {
        let name = format!("members/{i:04}-{}", safe(&m.name));
        out.put(&name, &m.data, json!({"kind": "member", "member": m.name}))?;
    }
    let (entries, files) = out.finish()?;
    println!("extracted {entries} entries ({files} files) into {}", target.dir.display());
    Ok(())
}

pub(crate) fn rewrite(input: &Path, bytes: &[u8], output: &Path) -> CmdResult {
    let ptn = read_ptn(input, bytes)?;
    ptn.save(output).map_err(at(output))?;
    let size = std::fs::metadata(output).map_err(at(output))?.len();
    println!("wrote {} ({size} bytes)", output.display());
    Ok(())
}
