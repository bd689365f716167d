//! Chooses the network to embed: `eval/nets/castella.nnue`, or the file
//! the environment variable `EVALFILE` names (as `make EVALFILE=path`
//! passes it, the way OpenBench builds network engines; a relative path
//! is taken from the workspace root). The file is copied to `OUT_DIR`,
//! where `lib.rs` includes it; the engine checks it when it first loads it.

use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let default = manifest.join("nets").join("castella.nnue");
    println!("cargo:rerun-if-env-changed=EVALFILE");
    let chosen = match std::env::var_os("EVALFILE").filter(|v| !v.is_empty()) {
        Some(v) => {
            let p = PathBuf::from(v);
            if p.is_absolute() {
                p
            } else {
                manifest.parent().unwrap_or(Path::new(".")).join(p)
            }
        }
        None => default,
    };
    println!("cargo:rerun-if-changed={}", chosen.display());
    let out =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("embedded.nnue");
    // A build script cannot return an error: it stops the build with the
    // reason, which cargo shows.
    let fail = |why: String| -> ! {
        eprintln!("the network file {}: {why}", chosen.display());
        std::process::exit(1);
    };
    let bytes = std::fs::read(&chosen).unwrap_or_else(|e| fail(e.to_string()));
    if !bytes.starts_with(b"CSNN") {
        fail("not a Castella network file (bad magic)".into());
    }
    std::fs::write(&out, bytes).unwrap_or_else(|e| fail(e.to_string()));
}
