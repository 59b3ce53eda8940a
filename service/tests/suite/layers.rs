//! The crate's shape, checked: its modules form layers that are only used downwards (the
//! diagram in `src/lib.rs` and `docs/DESIGN.md`), and it depends on no chat platform or HTTP
//! server crate.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The crate's top modules, lowest layer first; a module may use only those of lower layers.
const LAYERS: &[&[&str]] = &[
    &["values", "metrics"],
    &["time", "ratings"],
    &["l10n", "store"],
    &["commands", "export"],
    &["service"],
    &["dispatch"],
];

/// Crates the platform-free crate must never pull in, directly or not.
const PLATFORM_CRATES: &[&str] = &["teloxide", "serenity", "axum", "hyper", "reqwest"];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The top module a source file belongs to (`src/service/play.rs` → `service`).
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("a file under src");
    let first = relative
        .components()
        .next()
        .expect("a path")
        .as_os_str()
        .to_string_lossy();
    first.trim_end_matches(".rs").to_string()
}

/// Every `crate::<module>` a line of code names (comments are not code).
fn named_modules(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or_default();
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let after = &rest[at + "crate::".len()..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        // `crate::{a, b}` names several.
        if name.is_empty() && after.starts_with('{') {
            let group = after[1..].split('}').next().unwrap_or_default();
            for item in group.split(',') {
                let item = item.trim().split("::").next().unwrap_or_default().trim();
                if !item.is_empty() {
                    found.push(item.to_string());
                }
            }
        } else if !name.is_empty() {
            found.push(name);
        }
        rest = after;
    }
    found
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut upward = BTreeSet::new();
    let mut unplaced = BTreeSet::new();
    for file in &files {
        let module = module_of(&src, file);
        if module == "lib" {
            continue;
        }
        let Some(own) = layer_of(&module) else {
            unplaced.insert(module);
            continue;
        };
        let text = std::fs::read_to_string(file).expect("a readable source file");
        for (n, line) in text.lines().enumerate() {
            for used in named_modules(line) {
                if used == module {
                    continue;
                }
                match layer_of(&used) {
                    Some(layer) if layer < own => {}
                    Some(_) => {
                        upward.insert(format!(
                            "{}:{}: {module} uses {used}",
                            file.strip_prefix(&src).unwrap_or(file).display(),
                            n + 1
                        ));
                    }
                    None => {
                        unplaced.insert(used);
                    }
                }
            }
        }
    }
    assert!(
        unplaced.is_empty(),
        "modules in no layer (add them to LAYERS and the diagram): {unplaced:?}"
    );
    assert!(
        upward.is_empty(),
        "uses of a module of the same or a higher layer:\n{}",
        upward.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn the_layer_check_sees_upward_uses() {
    assert_eq!(named_modules("use crate::service::Span;"), ["service"]);
    assert_eq!(
        named_modules("use crate::{l10n::Msg, store};"),
        ["l10n", "store"]
    );
    assert!(named_modules("// see crate::service").is_empty());
    assert!(named_modules("let x = 1; // crate::service").is_empty());
    assert!(layer_of("service") > layer_of("store"));
    assert_eq!(layer_of("l10n"), layer_of("store"));
}

#[test]
fn no_chat_platform_or_http_server_among_the_dependencies() {
    let output = std::process::Command::new(env!("CARGO"))
        .args([
            "tree",
            "--locked",
            "--package",
            "tabula-service",
            "--edges",
            "normal,build",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tree = String::from_utf8_lossy(&output.stdout);
    let names: BTreeSet<&str> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert!(
        names.contains("sqlx"),
        "the tree lists the crate's own dependencies"
    );
    let found: Vec<&&str> = PLATFORM_CRATES
        .iter()
        .filter(|name| names.contains(**name))
        .collect();
    assert!(
        found.is_empty(),
        "platform crates in tabula-service: {found:?}"
    );
}
