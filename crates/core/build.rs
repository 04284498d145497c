//! With the `bundled-tables` feature (on by default), embeds the shipped strategy tables
//! (`data/`: the index `tables.json` and the `.npz` files it lists) into the crate, so that a
//! program built from the registry's crate alone solves with them (`solve::load_bundled`).
//! `data/` is the Python package's `python/chinese_poker/data` (a symbolic link in the
//! repository; `cargo package` copies the files), one copy for both.

use std::env;
use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=data/tables.json");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    let mut code = String::new();
    if env::var_os("CARGO_FEATURE_BUNDLED_TABLES").is_some() {
        let dir =
            PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("manifest dir")).join("data");
        let index_path = dir.join("tables.json");
        let index = std::fs::read_to_string(&index_path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (the bundled-tables feature needs it)",
                index_path.display()
            )
        });
        // the file names the index lists, read without a JSON parser: every `"file": "<name>"`
        let mut files = Vec::new();
        let mut rest = index.as_str();
        while let Some(at) = rest.find("\"file\"") {
            rest = &rest[at + 6..];
            let start = rest.find('"').expect("a file name") + 1;
            let len = rest[start..].find('"').expect("a file name's end");
            files.push(rest[start..start + len].to_string());
            rest = &rest[start + len..];
        }
        assert!(!files.is_empty(), "{} lists no files", index_path.display());
        writeln!(
            code,
            "pub(crate) const BUNDLED_INDEX: &str = include_str!({:?});",
            index_path.display().to_string()
        )
        .unwrap();
        code.push_str("pub(crate) const BUNDLED_FILES: &[(&str, &[u8])] = &[\n");
        for f in &files {
            let path = dir.join(f);
            println!("cargo:rerun-if-changed={}", path.display());
            writeln!(
                code,
                "    ({f:?}, include_bytes!({:?})),",
                path.display().to_string()
            )
            .unwrap();
        }
        code.push_str("];\n");
    }
    std::fs::write(out.join("bundled_tables.rs"), code).expect("write bundled_tables.rs");
}
