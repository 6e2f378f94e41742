//! `pte dump --exir`: the program as exir's `deserialize_pte_binary`
//! returns it (constants and delegate blobs folded back into the program).

use std::path::Path;

use pte_core::FileKind;

use crate::failure::{at, CmdResult};

pub(crate) fn dump(file: &Path, bytes: &[u8]) -> CmdResult {
    crate::input::require_kind(file, bytes, FileKind::Pte)?;
    let program = pte_file::exir_program(bytes).map_err(at(file))?;
    // Encoded again, the restored program is written as it is walked, as
    // `pte dump` writes a stored one: the document is many times the size of
    // the model, and a JSON tree of it many times more. Decoding the encoding
    // gives the same model, so the text is the tree's.
    // The encoding is read where the encoder built it, not copied out first
    // (a copy the size of the program's flatbuffer).
    let written = pte_schema::encode_program_with(&program, &Default::default(), |fb| {
        let json = pte_schema::ProgramJson::new(fb, &Default::default()).ok()?;
        Some(crate::stream::to_stdout(|w| json.write_pretty(w)))
    });
    if let Ok(Some(done)) = written {
        return done;
    }
    // what the stream cannot take (a restored program past a limit) goes
    // through the tree
    let v = pte_schema::program_to_json(&program, pte_schema::JsonBytes::Integers);
    println!("{}", serde_json::to_string_pretty(&v)?);
    Ok(())
}
