//! `train/device-datagen.sh`, the script that fills a borrowed
//! many-core machine with self-play games, run here for a few seconds:
//! its time limit stops `datagen` mid-run, and what was played comes
//! back merged and readable.

use std::path::Path;
use std::process::Command;

#[test]
fn device_datagen_script_keeps_what_it_played() {
    let datagen = Path::new(env!("CARGO_BIN_EXE_datagen"));
    let bin = datagen.parent().expect("datagen sits in a directory");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/device-datagen.sh");
    let out = std::env::temp_dir().join(format!("castella-device-datagen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new("sh")
        .arg(script)
        .arg(bin)
        .arg(&out)
        .args(["t", "7", "10"])
        .env("PROCS", "2")
        .env("CHUNK", "1")
        .output()
        .expect("sh runs");
    let log = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "{log}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // Both halves were merged (each process finished a game in 10 s) and
    // `data count` read them back.
    for half in ["t-a.games", "t-b.games"] {
        assert!(out.join(half).is_file(), "no {half}: {log}");
    }
    let total = log
        .lines()
        .find_map(|l| l.strip_prefix("total: "))
        .unwrap_or_else(|| panic!("no total in {log}"));
    let games: u32 = total.split_whitespace().next().unwrap().parse().unwrap();
    assert!(games >= 2, "{log}");
    assert!(out.join("t.log").is_file());
    let _ = std::fs::remove_dir_all(&out);
}
