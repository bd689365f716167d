//! Sets `CASTELLA_VERSION`: the crate version, and for a development build
//! (any build from a git checkout unless `CASTELLA_RELEASE` is set) the
//! commit's date and short hash, as `0.2.0-dev-20261125-8f6fe74`. Without
//! git, or outside a checkout, it is the crate version alone.

use std::path::Path;
use std::process::Command;

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    println!("cargo:rerun-if-env-changed=CASTELLA_RELEASE");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // A new commit moves HEAD or the branch it names.
    for f in [".git/HEAD", ".git/refs/heads", ".git/packed-refs"] {
        if root.join(f).exists() {
            println!("cargo:rerun-if-changed={}", root.join(f).display());
        }
    }
    let release = std::env::var_os("CASTELLA_RELEASE").is_some_and(|v| !v.is_empty());
    let commit = Command::new("git")
        .args(["log", "-1", "--format=%cd %h", "--date=format:%Y%m%d"])
        .current_dir(&root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| {
            let (date, hash) = s.trim().split_once(' ')?;
            Some(format!("{date}-{hash}"))
        });
    let full = match commit {
        Some(c) if !release => format!("{version}-dev-{c}"),
        _ => version,
    };
    println!("cargo:rustc-env=CASTELLA_VERSION={full}");
}
