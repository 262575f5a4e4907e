//! Detection by content does not depend on the order of a JSON object's
//! keys: every JSON sample of the corpus, re-serialised with its keys in
//! other orders (at every level), is still detected as its format, small
//! and grown past the bytes a detector looks at (a Chromium `Bookmarks`
//! whose `checksum` comes last, 860 KB, was "cannot tell what format this
//! is").

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The orders tried: keys sorted, reversed, rotated by one and by half.
#[derive(Clone, Copy, Debug)]
enum Order {
    Sorted,
    Reversed,
    RotatedByOne,
    RotatedByHalf,
}

const ORDERS: [Order; 4] = [
    Order::Sorted,
    Order::Reversed,
    Order::RotatedByOne,
    Order::RotatedByHalf,
];

/// Samples that are not strict JSON, so cannot be re-serialised: Firefox 3
/// wrote trailing commas.
const NOT_STRICT_JSON: &[&str] = &["firefox3-annos-tags.json"];

/// The JSON samples of each JSON format, by the format's name.
fn samples() -> Vec<(&'static str, PathBuf)> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let mut out = Vec::new();
    for (format, dir, ext) in [
        ("chromium", "chromium", "Bookmarks"),
        ("firefox", "firefox", "json"),
        ("json", "json", "json"),
        ("pinboard", "pinboard", "json"),
        ("linkwarden", "linkwarden", "json"),
        ("karakeep", "karakeep", "json"),
        ("wallabag", "wallabag", "json"),
        ("omnivore", "omnivore", "json"),
        ("arc", "arc", "json"),
        ("zen", "zen", "json"),
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(corpus.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_str().unwrap();
                p.extension().is_some_and(|e| e == ext) && !name.ends_with(".expected.json")
            })
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no {format} sample in corpus/{dir}");
        out.extend(files.into_iter().map(|p| (format, p)));
    }
    out
}

/// `keys` in `order`.
fn ordered(mut keys: Vec<&String>, order: Order) -> Vec<&String> {
    keys.sort();
    let n = keys.len();
    match order {
        Order::Sorted => {}
        Order::Reversed => keys.reverse(),
        Order::RotatedByOne if n > 0 => keys.rotate_left(1),
        Order::RotatedByHalf if n > 0 => keys.rotate_left(n / 2),
        _ => {}
    }
    keys
}

/// `v` as JSON text with every object's keys in `order`, indented as the
/// browsers indent (three spaces, as Chromium does), so that sizes are
/// those of real files.
fn write(v: &Value, order: Order, depth: usize, out: &mut String) {
    let pad = |out: &mut String, d: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n(' ', 3 * d));
    };
    match v {
        Value::Object(map) => {
            out.push('{');
            for (i, k) in ordered(map.keys().collect(), order).into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                pad(out, depth + 1);
                out.push_str(&serde_json::to_string(k).unwrap());
                out.push_str(": ");
                write(&map[k], order, depth + 1, out);
            }
            pad(out, depth);
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                pad(out, depth + 1);
                write(item, order, depth + 1, out);
            }
            pad(out, depth);
            out.push(']');
        }
        other => out.push_str(&serde_json::to_string(other).unwrap()),
    }
}

/// The array with the most items (the first of equals, depth first): the
/// one a file grows by.
fn largest_array(v: &mut Value) -> Option<&mut Vec<Value>> {
    fn count(v: &Value) -> usize {
        match v {
            Value::Array(a) => a.len().max(a.iter().map(count).max().unwrap_or(0)),
            Value::Object(m) => m.values().map(count).max().unwrap_or(0),
            _ => 0,
        }
    }
    let most = count(v);
    if most == 0 {
        return None;
    }
    // Its JSON pointer, found by reading; then taken to change.
    let mut pointer = String::new();
    let mut at = &*v;
    loop {
        match at {
            Value::Array(a) if a.len() == most => break,
            Value::Array(a) => {
                let i = a.iter().position(|x| count(x) == most)?;
                pointer.push_str(&format!("/{i}"));
                at = &a[i];
            }
            Value::Object(m) => {
                let (k, x) = m.iter().find(|(_, x)| count(x) == most)?;
                pointer.push_str(&format!("/{}", k.replace('~', "~0").replace('/', "~1")));
                at = x;
            }
            _ => return None,
        }
    }
    v.pointer_mut(&pointer)?.as_array_mut()
}

/// `v` grown, by repeating the items of its largest array, past 900 KB
/// (compact; more once indented): far past every detector's window, as the
/// reported 860 KB file is.
fn grown(mut v: Value) -> Value {
    let size = |v: &Value| serde_json::to_string(v).unwrap().len();
    while size(&v) < 900_000 {
        let items = largest_array(&mut v).expect("a sample with an array");
        let copy = items.clone();
        items.extend(copy);
    }
    v
}

/// `v` with its first longest string made 200 KB long (a saved article,
/// a long note, Chromium's `sync_metadata`): one value wider than a
/// detector's window, wherever the key order puts it.
fn long_string(mut v: Value) -> Value {
    let mut longest = (0, String::new());
    let mut stack = vec![(String::new(), &v)];
    while let Some((pointer, at)) = stack.pop() {
        match at {
            Value::String(s) if s.len() > longest.0 => longest = (s.len(), pointer),
            Value::Array(a) => stack.extend(
                a.iter()
                    .enumerate()
                    .map(|(i, x)| (format!("{pointer}/{i}"), x)),
            ),
            Value::Object(m) => stack.extend(m.iter().map(|(k, x)| {
                (
                    format!("{pointer}/{}", k.replace('~', "~0").replace('/', "~1")),
                    x,
                )
            })),
            _ => {}
        }
    }
    if let Some(Value::String(s)) = v.pointer_mut(&longest.1) {
        *s = s.repeat(200_000 / s.len().max(1) + 1);
    }
    v
}

#[test]
fn every_json_format_is_detected_whatever_its_key_order() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (format, path) in samples() {
        let original = std::fs::read(&path).unwrap();
        assert_eq!(
            markport::detect(&original).map(|f| f.name),
            Some(format),
            "{} as it is",
            path.display()
        );
        let value: Value = match serde_json::from_slice(&original) {
            Ok(v) => v,
            Err(e) => {
                let name = path.file_name().unwrap().to_str().unwrap();
                assert!(NOT_STRICT_JSON.contains(&name), "{}: {e}", path.display());
                continue;
            }
        };
        let big = grown(value.clone());
        let wide = long_string(value.clone());
        for (size, v) in [("small", &value), ("grown", &big), ("a long value", &wide)] {
            for order in ORDERS {
                let mut text = String::new();
                write(v, order, 0, &mut text);
                let found = markport::detect(text.as_bytes()).map(|f| f.name);
                checked += 1;
                if found != Some(format) {
                    failures.push(format!(
                        "{} ({size}, {} bytes, keys {order:?}): detected as {found:?}",
                        path.display(),
                        text.len()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 130, "{checked} variants");
}

/// The case of the report: Chromium's own key order but `checksum` moved
/// to the end, 860 KB, read with `resolve_format` as the command does.
#[test]
fn a_chromium_file_whose_checksum_is_last_is_chromium() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/chromium/chrome-2024.Bookmarks");
    let text = std::fs::read_to_string(&path).unwrap();
    let value = grown(serde_json::from_str(&text).unwrap());
    let Value::Object(top) = &value else {
        panic!("not an object")
    };
    // roots, then the rest as Chromium orders it, then the checksum.
    let mut out = String::from("{\n   \"roots\": ");
    out.push_str(&serde_json::to_string_pretty(&top["roots"]).unwrap());
    for (k, v) in top
        .iter()
        .filter(|(k, _)| !["roots", "checksum"].contains(&k.as_str()))
    {
        out.push_str(&format!(
            ",\n   {}: {}",
            serde_json::to_string(k).unwrap(),
            v
        ));
    }
    out.push_str(&format!(",\n   \"checksum\": {}\n}}\n", top["checksum"]));
    assert!(out.len() > 860_000, "{} bytes", out.len());
    let resolved =
        markport::resolve_format(None, Some(Path::new("Bookmarks")), Some(out.as_bytes()));
    assert_eq!(
        resolved.map(|r| r.format.name).ok(),
        Some("chromium"),
        "{}",
        &out[..300]
    );
}
