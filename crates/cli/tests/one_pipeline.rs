//! The command has no convert pipeline of its own: `markport convert` is
//! the library's `markport::convert` with the flags mapped onto its
//! options. A private copy of the pipeline in the command once read every
//! input as bytes and skipped the path reader (a live profile's newest
//! bookmarks, pending in places.sqlite's `-wal`, were dropped); this test
//! fails when one comes back.

use std::path::{Path, PathBuf};

fn sources() -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    let mut stack = vec![dir];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path, code_only(&text)));
            }
        }
    }
    assert!(out.len() > 5, "the command's sources were found");
    out
}

/// The text without comment lines (documentation may name anything) and
/// without its unit tests (the module at the end, which may read a sample).
fn code_only(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The body of `fn name` in `text`, braces matched.
fn body<'a>(text: &'a str, name: &str) -> &'a str {
    let start = text
        .find(&format!("fn {name}("))
        .unwrap_or_else(|| panic!("fn {name} is gone: update this test"));
    let open = start + text[start..].find('{').unwrap();
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &text[open..=open + i];
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced fn {name}")
}

#[test]
fn convert_is_the_librarys_pipeline() {
    let sources = sources();
    let commands = &sources
        .iter()
        .find(|(p, _)| p.ends_with("commands.rs"))
        .expect("commands.rs")
        .1;
    let convert = body(commands, "try_convert");
    assert_eq!(
        convert.matches("markport::convert(").count(),
        1,
        "convert calls the library's pipeline once:\n{convert}"
    );
    // What the pipeline does, the command must not do itself: choose the
    // input's reader, read, operate, write, or decide on the report.
    let options = body(commands, "convert_options");
    for part in [convert, options] {
        for own in [
            "load(",
            "read_file(",
            "read_loaded(",
            "read_bytes(",
            "read_path",
            "markport::read(",
            "input_format(",
            "resolve_format(",
            "ops::apply(",
            ".writer()",
            "write_to_vec(",
            "roundtrip(",
            ".commit(",
        ] {
            assert!(
                !part.contains(own),
                "the convert command calls {own} itself:\n{part}"
            );
        }
    }
}

#[test]
fn no_command_reads_or_writes_through_the_registry_on_its_own() {
    for (path, text) in sources() {
        // Reading goes through markport::read_input (what convert reads
        // with), so every command sees the bookmarks convert sees.
        for call in [
            ".read)(",
            ".write)(",
            "read_path",
            "path_reader",
            "read_file(",
            "read_loaded(",
            "markport::read(",
            "convert_with(",
        ] {
            assert!(
                !text.contains(call),
                "{} calls {call}: go through the library's pipeline (markport::convert, markport::read_input)",
                path.display()
            );
        }
    }
}
