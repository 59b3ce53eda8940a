//! Every example of the README runs as shown (issue 14, item 19).
//!
//! An example is a fenced block without a language whose lines start with `$ `: each such line is
//! a shell command, and the lines after it, up to the next `$ ` line or the end of the block, are
//! what it prints on standard output. The command runs in `sh` exactly as written, in a fresh
//! empty folder (so `tabula.db` and the pictures land there), with `tabula` on the `PATH` and
//! `target/release/tabula` in that folder both being the binary under test, and must exit with
//! status 0. In the printed lines, `...` stands for anything that changes from run to run: a
//! line that is only `...` for any number of lines (none included), `...` inside a line for any
//! text.
//!
//! Blocks marked `sh` (the build and test commands of the quick start) are not run here: they
//! are cargo itself.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One `$ ` command of the README and the output shown under it.
#[derive(Debug)]
struct Example {
    /// The README line of the command, for messages.
    line: usize,
    command: String,
    shown: Vec<String>,
}

/// The examples of a Markdown text, in order.
fn examples(markdown: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_block = false;
    let mut runnable = false;
    // Whether the current block has had a command yet (lines before one are not output).
    let mut commanded = false;
    for (i, line) in markdown.lines().enumerate() {
        if let Some(info) = line.strip_prefix("```") {
            if in_block {
                in_block = false;
            } else {
                in_block = true;
                runnable = info.trim().is_empty();
                commanded = false;
            }
            continue;
        }
        if !in_block || !runnable {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            commanded = true;
            out.push(Example {
                line: i + 1,
                command: command.to_string(),
                shown: Vec::new(),
            });
        } else if commanded && let Some(example) = out.last_mut() {
            example.shown.push(line.to_string());
        }
    }
    out
}

/// Whether `text` matches `pattern`, where each `...` of the pattern stands for any text.
fn line_matches(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split("...");
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Whether the printed lines match the shown ones, where a shown line `...` stands for any
/// number of lines.
fn lines_match(shown: &[String], printed: &[&str]) -> bool {
    match shown.split_first() {
        None => printed.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=printed.len()).any(|skip| lines_match(rest, &printed[skip..]))
        }
        Some((first, rest)) => match printed.split_first() {
            Some((line, others)) => line_matches(first, line) && lines_match(rest, others),
            None => false,
        },
    }
}

/// A fresh folder in which `tabula` and `target/release/tabula` are the binary under test.
fn sandbox() -> PathBuf {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!("tabula-readme-{}-{stamp}", std::process::id()));
    let bin = dir.join("bin");
    let release = dir.join("target").join("release");
    std::fs::create_dir_all(&bin).expect("sandbox");
    std::fs::create_dir_all(&release).expect("sandbox");
    let exe = Path::new(env!("CARGO_BIN_EXE_tabula"));
    for link in [bin.join("tabula"), release.join("tabula")] {
        std::os::unix::fs::symlink(exe, link).expect("link to the binary");
    }
    dir
}

fn run(example: &Example) -> Result<(), String> {
    let dir = sandbox();
    let path = format!(
        "{}:{}",
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = Command::new("sh")
        .arg("-c")
        .arg(&example.command)
        .current_dir(&dir)
        .env("PATH", path)
        .env_remove("DATABASE_URL")
        .output()
        .map_err(|e| format!("cannot run sh: {e}"))?;
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let printed: Vec<&str> = stdout.lines().collect();
    if !output.status.success() {
        return Err(format!(
            "README line {}: `{}` exited with {}; stderr:\n{}",
            example.line,
            example.command,
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    if !lines_match(&example.shown, &printed) {
        return Err(format!(
            "README line {}: `{}` printed\n{}\n--- but the README shows ---\n{}",
            example.line,
            example.command,
            stdout,
            example.shown.join("\n")
        ));
    }
    Ok(())
}

#[test]
fn the_matcher_reads_dots_as_anything() {
    assert!(line_matches(
        "white @..., black @....",
        "white @bob, black @alice."
    ));
    assert!(line_matches("@... played B2-C3.", "@alice played B2-C3."));
    assert!(!line_matches("@... played B2-C3.", "@alice played B2-A3."));
    assert!(line_matches("exact", "exact"));
    assert!(!line_matches("exact", "exactly"));
    let shown: Vec<String> = ["a", "...", "d"].map(String::from).to_vec();
    assert!(lines_match(&shown, &["a", "b", "c", "d"]));
    assert!(lines_match(&shown, &["a", "d"]));
    assert!(!lines_match(&shown, &["a", "b"]));
}

#[test]
fn every_readme_example_runs_as_shown() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .expect("README.md");
    let examples = examples(&readme);
    assert!(
        examples.len() >= 3,
        "expected the quick start and the `tabula rules` examples, found {examples:#?}"
    );
    assert!(
        examples.iter().any(|e| e.command.contains("tabula local")),
        "the quick start's `tabula local` example is missing"
    );
    // Each example runs a few times: the seats are drawn by lot, and the example must hold
    // whoever draws which seat.
    let failures: Vec<String> = examples
        .iter()
        .flat_map(|example| (0..6).map(move |_| example))
        .filter_map(|example| run(example).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
