//! Records libpte's soname in the shared library (ELF targets):
//! `libpte.so.N`, N being `PTE_ABI_VERSION` of src/types.rs, so that the
//! name a program asks for at run time changes exactly when the ABI breaks.
//! scripts/install-c.sh reads it back from the library and installs under it.

use std::path::Path;

/// Where the ABI version is decided, and how its line starts.
const SOURCE: &str = "src/types.rs";
const DECLARATION: &str = "pub const PTE_ABI_VERSION: u32 = ";

fn main() -> Result<(), String> {
    println!("cargo:rerun-if-changed={SOURCE}");
    println!("cargo:rerun-if-changed=build.rs");
    let dir = std::env::var("CARGO_MANIFEST_DIR").map_err(|e| format!("CARGO_MANIFEST_DIR: {e}"))?;
    let text = std::fs::read_to_string(Path::new(&dir).join(SOURCE)).map_err(|e| format!("{SOURCE}: {e}"))?;
    let abi: u32 = text
        .lines()
        .find_map(|line| line.strip_prefix(DECLARATION)?.strip_suffix(';')?.parse().ok())
        .ok_or_else(|| format!("{SOURCE} has no line `{DECLARATION}N;`"))?;
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    // Apple's dylibs name themselves with an install name instead, and
    // Windows has no soname; the install script handles ELF only.
    if var("CARGO_CFG_TARGET_FAMILY").split(',').any(|f| f == "unix") && var("CARGO_CFG_TARGET_VENDOR") != "apple" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libpte.so.{abi}");
    }
    Ok(())
}
