//! `castella rank960` on the command line: shards that merge into the one
//! run's ranking, a stopped run that resumes from its output, Double-FRC
//! pairs, books, pictures and the refusals of bad arguments.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn rank960(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_castella"))
        .arg("rank960")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("castella-rank960-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ok(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    err
}

fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rows of a ranking CSV, without its header.
fn rows(csv: &str) -> Vec<&str> {
    csv.lines().skip(1).collect()
}

const BUDGET: [&str; 4] = ["--depth", "6", "--jobs", "2"];

#[test]
fn shards_merge_into_the_same_ranking() {
    let dir = scratch("shards");
    let whole = ok(&rank960(
        &[&BUDGET[..], &["--positions", "0-9,518", "--out", "all.csv"]].concat(),
        &dir,
    ));
    for k in ["1/3", "2/3", "3/3"] {
        let out = format!("part{}.csv", &k[..1]);
        ok(&rank960(
            &[
                &BUDGET[..],
                &["--positions", "0-9,518", "--shard", k, "--out", &out],
            ]
            .concat(),
            &dir,
        ));
    }
    let part1 = read(dir.join("part1.csv"));
    assert_eq!(rows(&part1).len(), 4, "0, 3, 6, 9 of the 11:\n{part1}");
    let merged = ok(&rank960(
        &[
            "merge",
            "part1.csv",
            "part2.csv",
            "part3.csv",
            "--out",
            "merged.csv",
        ],
        &dir,
    ));
    let all = read(dir.join("all.csv"));
    assert_eq!(rows(&all).len(), 11);
    assert_eq!(read(dir.join("merged.csv")), all);
    // The same summary, but for the progress lines.
    let summary = |s: &str| s[s.find("positions:").unwrap()..].to_string();
    assert_eq!(summary(&merged), summary(&whole));
    // A position twice with different rows is refused.
    let clash = read(dir.join("part1.csv")).replacen(",6,", ",7,", 1);
    std::fs::write(dir.join("clash.csv"), clash).unwrap();
    let out = rank960(&["merge", "part1.csv", "clash.csv"], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("differs from an earlier file"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// GNU parallel runs the shards as a user would on one machine (with
/// `--sshlogin`, on many): the rows are those of one run.
#[test]
#[ignore = "needs GNU parallel (apt install parallel); run with --ignored"]
fn shards_through_gnu_parallel() {
    let dir = scratch("parallel");
    ok(&rank960(
        &[&BUDGET[..], &["--positions", "0-7", "--out", "one.csv"]].concat(),
        &dir,
    ));
    let status = Command::new("parallel")
        .args([
            "--will-cite",
            env!("CARGO_BIN_EXE_castella"),
            "rank960",
            "--depth",
            "6",
            "--jobs",
            "1",
            "--positions",
            "0-7",
            "--shard",
            "{}/2",
            "--out",
            "shard{}.csv",
            ":::",
            "1",
            "2",
        ])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .status()
        .expect("GNU parallel is installed");
    assert!(status.success());
    ok(&rank960(
        &["merge", "shard1.csv", "shard2.csv", "--out", "merged.csv"],
        &dir,
    ));
    assert_eq!(read(dir.join("merged.csv")), read(dir.join("one.csv")));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `bench/tools/rank960-slurm.sh` run as the tasks of `sbatch
/// --array=3-4` would be (Slurm sets these variables): the shards merge
/// into one run's ranking.
#[test]
fn the_slurm_array_script_runs_one_shard_a_task() {
    let dir = scratch("slurm");
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../bench/tools/rank960-slurm.sh"
    );
    for id in ["3", "4"] {
        let out = Command::new("bash")
            .arg(script)
            .args(["--depth", "6", "--positions", "0-7"])
            .env("CASTELLA", env!("CARGO_BIN_EXE_castella"))
            .env("SLURM_ARRAY_TASK_ID", id)
            .env("SLURM_ARRAY_TASK_MIN", "3")
            .env("SLURM_ARRAY_TASK_COUNT", "2")
            .env("SLURM_CPUS_PER_TASK", "1")
            .current_dir(&dir)
            .output()
            .unwrap();
        ok(&out);
    }
    ok(&rank960(
        &[
            "merge",
            "rank960-part-1.csv",
            "rank960-part-2.csv",
            "--out",
            "merged.csv",
        ],
        &dir,
    ));
    ok(&rank960(
        &[&BUDGET[..], &["--positions", "0-7", "--out", "one.csv"]].concat(),
        &dir,
    ));
    assert_eq!(read(dir.join("merged.csv")), read(dir.join("one.csv")));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run killed part-way keeps its finished rows in `OUT.partial`; the
/// same command again searches only the rest and writes the ranking an
/// unbroken run writes.
#[test]
fn a_stopped_run_resumes_from_its_output() {
    let dir = scratch("resume");
    let args = ["--depth", "8", "--jobs", "1", "--positions", "0-23"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_castella"))
        .arg("rank960")
        .args(args)
        .args(["--out", "r.csv"])
        .current_dir(&dir)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let partial = dir.join("r.csv.partial");
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(&partial).map_or(0, |t| t.lines().count()) < 2 + 3 {
        assert!(Instant::now() < deadline, "no rows in r.csv.partial");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let kept = read(partial.clone()).lines().count() - 2;
    assert!(!dir.join("r.csv").exists());
    let err = ok(&rank960(&[&args[..], &["--out", "r.csv"]].concat(), &dir));
    assert!(
        err.contains(&format!("resuming: {kept} of 24 positions")),
        "{err}"
    );
    assert!(!partial.exists(), "removed once the ranking is written");
    ok(&rank960(
        &[&args[..], &["--out", "whole.csv"]].concat(),
        &dir,
    ));
    assert_eq!(read(dir.join("r.csv")), read(dir.join("whole.csv")));
    // A partial file of other settings is not mixed in.
    std::fs::write(&partial, "# castella rank960 0.0.0: depth 1\n").unwrap();
    let out = rank960(&[&args[..], &["--out", "r.csv"]].concat(), &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("was started with other settings"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Double-FRC pairs, a seeded sample of them, the book of the balanced
/// ones (EPD with `ce` and `id`) and the picture.
#[test]
fn double_frc_samples_books_and_pictures() {
    let dir = scratch("dfrc");
    let sample = [
        "--dfrc", "--sample", "6", "--seed", "7", "--depth", "4", "--jobs", "2",
    ];
    let err = ok(&rank960(
        &[
            &sample[..],
            &[
                "--out",
                "d.csv",
                "--book",
                "b.epd",
                "--max-abs",
                "1000",
                "--balanced",
                "4",
                "--plot",
                "d.svg",
            ],
        ]
        .concat(),
        &dir,
    ));
    assert!(err.contains("positions: 6,"), "{err}");
    let csv = read(dir.join("d.csv"));
    let names: Vec<&str> = rows(&csv)
        .iter()
        .map(|r| r.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(names.len(), 6);
    assert!(names.iter().all(|n| n.contains(':')), "{csv}");
    // The same seed draws the same pairs.
    ok(&rank960(
        &[&sample[..], &["--out", "again.csv"]].concat(),
        &dir,
    ));
    assert_eq!(read(dir.join("again.csv")), csv);
    let book = read(dir.join("b.epd"));
    assert_eq!(book.lines().count(), 4, "{book}");
    for line in book.lines() {
        let (fen, ops) = line.split_once(" ce ").unwrap();
        castella_movegen::Position::from_fen(&format!("{fen} 0 1")).unwrap();
        assert!(ops.contains("; id \"castella rank960 "), "{line}");
    }
    let svg = read(dir.join("d.svg"));
    assert!(svg.contains("most balanced: ") && svg.ends_with("</svg>\n"));
    // Pairs by range; a plain index is not a pair.
    let err = ok(&rank960(
        &["--dfrc", "--positions", "518:0-1", "--depth", "2"],
        &dir,
    ));
    assert!(err.contains("positions: 2,"), "{err}");
    let out = rank960(&["--dfrc", "--positions", "518", "--depth", "2"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_are_refused_with_a_reason() {
    let dir = scratch("args");
    for (args, says) in [
        (&["--shard", "3/2"][..], "expected K/N"),
        (&["--nodes", "10", "--depth", "3"], "cannot be used with"),
        (&["--score", "max"], "invalid value 'max'"),
        (&["--max-abs", "20"], "--book"),
        (&["--positions", "960"], "not an index"),
        (&["merge"], "required arguments were not provided"),
        (
            &["merge", "x.csv", "--nodes", "5"],
            "unexpected argument '--nodes'",
        ),
        (&["--frobnicate"], "unexpected argument '--frobnicate'"),
    ] {
        let out = rank960(args, &dir);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let out = rank960(&["merge", "missing.csv"], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read missing.csv"));
    let out = rank960(&["--help"], &dir);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("--shard <K/N>"));
    let _ = std::fs::remove_dir_all(&dir);
}
