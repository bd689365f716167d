//! `datagen`: self-play games for training the evaluation network.
//!
//! ```text
//! datagen [--dir DIR] [--name NAME] [--games N] [--nodes N] [--hard-nodes N]
//!         [--dfrc X] [--random-plies N] [--label-share X] [--fast-nodes N]
//!         [--seed S] [--threads T] [--chunk N]
//! ```
//!
//! Plays `--games` games (see `castella_train::selfplay`) and writes them to
//! `DIR/NAME.games` in the binary game format (`castella_train::games`):
//! every move with the search's score, so any position can be rebuilt and
//! filtered when it is loaded. `DIR` defaults to `$CASTELLA_DATA`, else
//! `$HOME/castella-data`; `NAME` to `seed<S>`. `DIR/manifest.tsv` lists
//! every file there with its settings and counts. With `--label-share X`
//! below 1 only that share of the positions (drawn at random) is searched
//! at `--nodes` and scored; the others are played from a search at
//! `--fast-nodes` (a quarter of `--nodes` unless given) and stored without
//! a score, never to be trained on.
//!
//! Games are played in parallel and written in order, a chunk of `--chunk`
//! games at a time, so the file depends only on the settings and the seed,
//! and a stopped run keeps every finished chunk. Run the same command again
//! to go on where it stopped; a damaged tail is cut off first. While a run
//! writes `NAME.games` it holds `DIR/NAME.lock`, and a second run on the
//! same file is refused.

use castella_train::games::{self, Game};
use castella_train::selfplay::{self, Settings};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

struct Config {
    dir: PathBuf,
    name: Option<String>,
    games: u32,
    seed: u64,
    threads: Option<usize>,
    chunk: u32,
    settings: Settings,
}

/// The data directory when none is given.
fn default_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CASTELLA_DATA") {
        return dir.into();
    }
    let home = std::env::var_os("HOME").unwrap_or_else(|| ".".into());
    Path::new(&home).join("castella-data")
}

/// The command line.
fn command() -> clap::Command {
    use clap::{value_parser, Arg};
    let arg = |name: &'static str, value: &'static str, help: String| {
        Arg::new(name).long(name).value_name(value).help(help)
    };
    let share = |s: &str| -> Result<f64, String> {
        s.parse::<f64>()
            .ok()
            .filter(|x| (0.0..=1.0).contains(x))
            .ok_or_else(|| format!("'{s}' is not a number from 0 to 1"))
    };
    let d = Settings::default();
    clap::Command::new("datagen")
        .about("Plays Castella against itself and keeps every move with its score, for training")
        .arg(arg(
            "dir",
            "DIR",
            "where the files go (default $CASTELLA_DATA, else ~/castella-data)".into(),
        ))
        .arg(arg(
            "name",
            "NAME",
            "the file, NAME.games (default seed<S>)".into(),
        ))
        .arg(
            arg("games", "N", "games to play".into())
                .value_parser(value_parser!(u32))
                .default_value("10000"),
        )
        .arg(
            arg(
                "nodes",
                "N",
                format!(
                    "soft node limit of a scored move (default {})",
                    d.soft_nodes
                ),
            )
            .value_parser(value_parser!(u64)),
        )
        .arg(
            arg(
                "hard-nodes",
                "N",
                format!("hard node limit of a search (default {})", d.hard_nodes),
            )
            .value_parser(value_parser!(u64)),
        )
        .arg(
            arg(
                "dfrc",
                "X",
                format!("share of Double-FRC openings (default {})", d.dfrc),
            )
            .value_parser(share),
        )
        .arg(
            arg(
                "random-plies",
                "N",
                format!(
                    "random plies first, 1 more half the time (default {})",
                    d.random_plies
                ),
            )
            .value_parser(value_parser!(usize)),
        )
        .arg(
            arg(
                "label-share",
                "X",
                format!(
                    "share of positions scored, above 0 (default {})",
                    d.label_share
                ),
            )
            .value_parser(share),
        )
        .arg(
            arg(
                "fast-nodes",
                "N",
                "soft limit of unscored moves (default --nodes / 4)".into(),
            )
            .value_parser(value_parser!(u64)),
        )
        .arg(
            arg("seed", "S", "the run's seed".into())
                .value_parser(value_parser!(u64))
                .default_value("1"),
        )
        .arg(
            arg("threads", "T", "games at once (default: one a core)".into())
                .value_parser(value_parser!(usize)),
        )
        .arg(
            arg("chunk", "N", "games written at a time".into())
                .value_parser(value_parser!(u32))
                .default_value("64"),
        )
}

/// Sets `value` to the option `name` where it was given.
fn override_with<T: Copy + Send + Sync + 'static>(m: &clap::ArgMatches, name: &str, value: &mut T) {
    if let Some(&v) = m.get_one::<T>(name) {
        *value = v;
    }
}

fn config(m: &clap::ArgMatches) -> Result<Config, String> {
    let mut s = Settings::default();
    override_with(m, "nodes", &mut s.soft_nodes);
    override_with(m, "hard-nodes", &mut s.hard_nodes);
    override_with(m, "dfrc", &mut s.dfrc);
    override_with(m, "random-plies", &mut s.random_plies);
    override_with(m, "label-share", &mut s.label_share);
    if s.label_share <= 0.0 {
        return Err("--label-share must be above 0".into());
    }
    s.fast_nodes = Settings::fast_nodes_for(s.soft_nodes);
    override_with(m, "fast-nodes", &mut s.fast_nodes);
    s.fast_nodes = s.fast_nodes.max(1);
    let defaulted = "clap gives the default";
    Ok(Config {
        dir: m
            .get_one::<String>("dir")
            .map_or_else(default_dir, PathBuf::from),
        name: m.get_one::<String>("name").cloned(),
        games: *m.get_one::<u32>("games").expect(defaulted),
        seed: *m.get_one::<u64>("seed").expect(defaulted),
        threads: m.get_one::<usize>("threads").copied(),
        chunk: (*m.get_one::<u32>("chunk").expect(defaulted)).max(1),
        settings: s,
    })
}

/// The manifest's columns.
const MANIFEST_HEADER: &str =
    "file\tgames\tpositions\tlabelled\tnext_index\tsettings\tupdated_unix";

/// One line of the manifest: what a game file holds (`counts` from
/// [`games::position_counts`]).
fn manifest_line(
    file: &str,
    games: usize,
    (positions, labelled): (usize, usize),
    next_index: u32,
    settings: &str,
) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!("{file}\t{games}\t{positions}\t{labelled}\t{next_index}\t{settings}\t{now}")
}

/// A manifest line of another file, in today's columns: lines written
/// before the `labelled` column get `-` there.
fn upgraded(line: &str) -> String {
    let fields: Vec<&str> = line.split('\t').collect();
    if fields.len() == 6 {
        [&fields[..3], &["-"], &fields[3..]].concat().join("\t")
    } else {
        line.to_string()
    }
}

/// Rewrites `dir/manifest.tsv` with `line` in place of the file's old one.
fn update_manifest(dir: &Path, file: &str, line: &str) -> Result<(), String> {
    let path = dir.join("manifest.tsv");
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let mut lines: Vec<String> = old
        .lines()
        .filter(|l| !l.starts_with("file\t") && l.split('\t').next() != Some(file))
        .map(upgraded)
        .collect();
    lines.push(line.to_string());
    lines.sort_unstable();
    let text = format!("{MANIFEST_HEADER}\n{}\n", lines.join("\n"));
    let tmp = dir.join("manifest.tsv.tmp");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, &path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Holds `lock_path` (created if missing) locked for as long as the file
/// lives, or says that another run is writing `games`.
fn lock(lock_path: &Path, games: &Path) -> Result<std::fs::File, String> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock_path)
        .map_err(|e| format!("{}: {e}", lock_path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "{} is being written by another datagen run (it holds {})",
            games.display(),
            lock_path.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("{}: {e}", lock_path.display())),
    }
}

fn run(c: &Config) -> Result<(), String> {
    std::fs::create_dir_all(&c.dir).map_err(|e| format!("{}: {e}", c.dir.display()))?;
    let name = c.name.clone().unwrap_or_else(|| format!("seed{}", c.seed));
    let file = format!("{name}.games");
    let path = c.dir.join(&file);
    let settings = c.settings.describe(c.seed);
    // Two runs on one file would both go on after its last game and write
    // the same games twice; the lock goes with the process, however it ends.
    let _lock = lock(&c.dir.join(format!("{name}.lock")), &path)?;

    let (mut writer, mut all, mut next) = if path.exists() {
        let contents = games::read(&path)?;
        if contents.settings != settings {
            return Err(format!(
                "{} was written with other settings:\n  {}\nnot\n  {settings}\n\
                 (use another --name, or the same settings to go on)",
                path.display(),
                contents.settings
            ));
        }
        if let Some(problem) = &contents.problem {
            eprintln!("{}: {problem}; cutting it off there", path.display());
        }
        eprintln!(
            "going on with {} after game {} ({} games kept)",
            path.display(),
            contents.next_index,
            contents.games.len()
        );
        let w = games::Writer::resume(&path, contents.sound_len)?;
        (w, contents.games, contents.next_index)
    } else {
        (games::Writer::create(&path, &settings)?, Vec::new(), 0)
    };

    let start = Instant::now();
    let first = next;
    let mut played_positions = 0usize;
    eprintln!("{settings}\nwriting {}", path.display());
    while next < c.games {
        let end = (next + c.chunk).min(c.games);
        let batch: Vec<Game> = (next..end)
            .into_par_iter()
            .filter_map(|i| selfplay::play(i, c.seed, &c.settings))
            .collect();
        writer.write_chunk(&batch, end)?;
        played_positions += batch.iter().map(|g| g.moves.len()).sum::<usize>();
        all.extend(batch);
        next = end;
        let counts = games::position_counts(&all);
        let line = manifest_line(&file, all.len(), counts, next, &settings);
        update_manifest(&c.dir, &file, &line)?;

        let secs = start.elapsed().as_secs_f64().max(1e-3);
        let done = (next - first) as f64;
        let eta = (c.games - next) as f64 * secs / done;
        eprintln!(
            "game {next}/{}: {} games, {}, {:.0} positions/s, ETA {:.0} min",
            c.games,
            all.len(),
            games::describe_positions(counts.0, counts.1),
            played_positions as f64 / secs,
            eta / 60.0
        );
    }
    let (positions, labelled) = games::position_counts(&all);
    eprintln!(
        "{}: {} games, {}",
        path.display(),
        all.len(),
        games::describe_positions(positions, labelled)
    );
    Ok(())
}

fn main() {
    let config = config(&command().get_matches()).unwrap_or_else(|e| {
        command()
            .error(clap::error::ErrorKind::ValueValidation, e)
            .exit()
    });
    castella_train::set_threads(config.threads);
    if let Err(e) = run(&config) {
        eprintln!("datagen: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A second run on the same file is refused while the first holds
    /// the lock, and may start once it is gone.
    #[test]
    fn one_run_at_a_time_per_file() {
        let dir = std::env::temp_dir().join(format!("datagen-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (lock_path, games) = (dir.join("t.lock"), dir.join("t.games"));
        let first = lock(&lock_path, &games).unwrap();
        let refused = lock(&lock_path, &games).unwrap_err();
        assert!(refused.contains("another datagen run"), "{refused}");
        drop(first);
        assert!(lock(&lock_path, &games).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The manifest keeps one line per file under today's header; lines
    /// from before the `labelled` column get `-` in it.
    #[test]
    fn the_manifest_keeps_one_line_per_file() {
        let dir = std::env::temp_dir().join(format!("datagen-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let old = "file\tgames\tpositions\tnext_index\tsettings\tupdated_unix\n\
                   a.games\t10\t900\t11\tseed=1\t5\n\
                   b.games\t3\t300\t3\tseed=2\t6\n";
        std::fs::write(dir.join("manifest.tsv"), old).unwrap();
        let b = "b.games\t4\t400\t200\t4\tseed=2\t7";
        update_manifest(&dir, "b.games", b).unwrap();
        let text = std::fs::read_to_string(dir.join("manifest.tsv")).unwrap();
        let expected = format!("{MANIFEST_HEADER}\na.games\t10\t900\t-\t11\tseed=1\t5\n{b}\n");
        assert_eq!(text, expected);
        update_manifest(&dir, "b.games", b).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("manifest.tsv")).unwrap(),
            expected
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
