//! `pte externalize`: move named constants and named data into a `.ptd`.

use std::path::Path;

use crate::failure::CmdResult;
use crate::input::open;

pub(crate) fn run(
    input: &Path,
    output: &Path,
    data: &Path,
    keys: Option<&str>,
    name_constants: Option<&str>,
) -> CmdResult {
    let request = pte::Externalize {
        keys: match keys {
            Some(k) => pte::KeySelection::globs(&[k])?,
            None => pte::KeySelection::all(),
        },
        name_constants,
        keys_spelled: keys.map(|k| format!("--keys {k:?}")),
        naming_spelled: "--name-constants PREFIX",
    };
    let map = open(input)?;
    let moved = pte::externalize(map.bytes(), Some(input), output, data, &request)?;
    for u in &moved.unnamed {
        eprintln!("pte: warning: constant at {u} has no fully qualified name; it stays in the program");
    }
    println!(
        "moved {} tensors and {} named blobs into {}; wrote {}",
        moved.tensors.len(),
        moved.named.len(),
        data.display(),
        output.display()
    );
    Ok(())
}
