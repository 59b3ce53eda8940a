//! Finds the message catalogue's locales: every folder of `locales/` is a language, and every
//! `.ftl` file in it is part of that language's messages. Adding a language is adding a folder;
//! no code names the languages (`src/l10n`).

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut locales: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for entry in std::fs::read_dir(&root).expect("service/locales is readable") {
        let entry = entry.expect("a locale folder");
        if !entry.file_type().expect("a file type").is_dir() {
            continue;
        }
        let code = entry.file_name().to_string_lossy().into_owned();
        println!("cargo:rerun-if-changed={}", entry.path().display());
        let mut files = Vec::new();
        for file in std::fs::read_dir(entry.path()).expect("a locale folder is readable") {
            let path = file.expect("a locale file").path();
            if path.extension().is_some_and(|ext| ext == "ftl") {
                println!("cargo:rerun-if-changed={}", path.display());
                let name = path
                    .file_name()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned();
                files.push((name, path.display().to_string()));
            }
        }
        files.sort();
        locales.push((code, files));
    }
    locales.sort();
    let mut out = String::from(
        "/// Every locale folder (`service/locales/<code>`) with its `.ftl` files, found by build.rs.\n\
         pub(super) static LOCALE_FILES: &[(&str, &[(&str, &str)])] = &[\n",
    );
    for (code, files) in &locales {
        write!(out, "    ({code:?}, &[").expect("writing to a String");
        for (name, path) in files {
            write!(out, "({name:?}, include_str!({path:?})), ").expect("writing to a String");
        }
        out.push_str("]),\n");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("locales.rs");
    std::fs::write(dest, out).expect("locales.rs is written");
}
