//! The corpus of common mistakes: each case says in its file which mistake
//! it catches and by which row; a small tool that makes that mistake (a
//! perl one-liner here) is caught by that row, in that file. The corpus is
//! compiled into the binary: it runs without the checkout, exports, and
//! `--keep` keeps each output under its input's name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

mod common;

use common::markport;

/// Each documented mistake of the Netscape cases and a tool that makes it,
/// run as `sh -c`.
const NETSCAPE: &[(&str, &str)] = &[
    (
        "tag-case",
        r#"perl -pe 's/(TAGS="[^"]*")/lc $1/ge' {in} > {out}"#,
    ),
    (
        "tag-split",
        r#"perl -pe 's/TAGS="([^"]*)"/q(TAGS=").join(q(,), split(m{[ ,]+}, $1)).q(")/ge' {in} > {out}"#,
    ),
    (
        "tag-ascii",
        r#"perl -pe 's/(TAGS="[^"]*")/$1 =~ s{[\x80-\xff]+}{}gr/ge' {in} > {out}"#,
    ),
    (
        "title-space-runs",
        r#"perl -pe 's/(\S)  +(?=\S)/$1 /g' {in} > {out}"#,
    ),
    (
        "title-space-ends",
        r#"perl -pe 's/>\s+([^<\s][^<]*?)\s+</>$1</g' {in} > {out}"#,
    ),
    ("title-tab", r#"perl -pe 's/&#9;/ /g' {in} > {out}"#),
    (
        "title-newline",
        r#"perl -0pe 's/(<A [^>]*>[^<]*)\n([^<]*<\/A>)/$1 $2/g' {in} > {out}"#,
    ),
    (
        "folder-title-space",
        r#"perl -pe 's/(<H3[^>]*>[^<]*)/$1 =~ s{  +}{ }gr/ge' {in} > {out}"#,
    ),
    (
        "title-nfc",
        r#"perl -CSD -MUnicode::Normalize -pe '$_ = NFC($_)' {in} > {out}"#,
    ),
    (
        "title-nfd",
        r#"perl -CSD -MUnicode::Normalize -pe '$_ = NFD($_)' {in} > {out}"#,
    ),
    (
        "title-rtl",
        r#"perl -CSD -pe 's/[\x{590}-\x{6ff}]//g' {in} > {out}"#,
    ),
    (
        "title-emoji",
        r#"perl -CSD -pe 's/[^\x{0}-\x{ffff}]//g' {in} > {out}"#,
    ),
    // The second decoding is the naive one that does not stop at `=`.
    (
        "entity-twice-href",
        r#"perl -CSD -pe 's/&amp;/&/g; s/&copy/\x{a9}/g; s/&not/\x{ac}/g' {in} > {out}"#,
    ),
    (
        "entity-twice-title",
        r#"perl -pe 's/&amp;/&/g' {in} > {out}"#,
    ),
    (
        "entity-encoded-twice",
        r#"perl -pe 's/&amp;/&amp;amp;/g' {in} > {out}"#,
    ),
    (
        "link-idn",
        r#"perl -pe 's/b\xc3\xbccher/bcher/g' {in} > {out}"#,
    ),
    (
        "link-percent",
        r#"perl -pe 's{%2F}{/}g; s/%26/&amp;/g; s/%3D/=/g' {in} > {out}"#,
    ),
    (
        "link-ampersand",
        r#"perl -pe 's/(HREF="[^"&]*)&amp;[^"]*"/$1"/g' {in} > {out}"#,
    ),
    (
        "link-fragment",
        r##"perl -pe 's/(HREF="[^"#]*)#[^"]*"/$1"/g' {in} > {out}"##,
    ),
    (
        "link-long",
        r#"perl -pe 's/(HREF=")([^"]{2000})[^"]*"/$1$2"/g' {in} > {out}"#,
    ),
    (
        "date-epoch",
        r#"perl -pe 's/ ADD_DATE="1"//g' {in} > {out}"#,
    ),
    (
        "date-before-1970",
        r#"perl -pe 's/ADD_DATE="-(\d+)"/ADD_DATE="$1"/g' {in} > {out}"#,
    ),
    (
        "date-y2038",
        r#"perl -pe 's/ADD_DATE="(\d+)"/sprintf(q(ADD_DATE="%d"), $1 >= 2**31 ? $1 - 2**32 : $1)/ge' {in} > {out}"#,
    ),
    (
        "date-milliseconds",
        r#"perl -pe 's/(ADD_DATE|LAST_MODIFIED)="(\d+)"/$1="${2}000"/g' {in} > {out}"#,
    ),
    (
        "empty-title",
        r#"perl -ne 'print unless /<A [^>]*><\/A>/' {in} > {out}"#,
    ),
    (
        "empty-folder",
        r#"perl -0pe 's/\s*<DT><H3[^>]*>Empty folder<\/H3>\s*<DL><p>\s*<\/DL><p>//' {in} > {out}"#,
    ),
    (
        "separator",
        r#"perl -ne 'print unless /^\s*<HR>/' {in} > {out}"#,
    ),
    (
        "duplicates",
        r#"perl -ne 'print unless /HREF="([^"]*)"/ && $seen{$1}++' {in} > {out}"#,
    ),
    (
        "flags",
        r#"perl -pe 's/ (PRIVATE|TOREAD)="[^"]*"//g' {in} > {out}"#,
    ),
    (
        "deep-nesting",
        r#"perl -0pe 's/<DT><H3[^>]*>Level \d+<\/H3>\s*<DL><p>//g; s/(bottom[^\n]*\n)(\s*<\/DL><p>\n){50}/$1/' {in} > {out}"#,
    ),
];

/// The same for the XBEL cases.
const XBEL: &[(&str, &str)] = &[
    (
        "title-space-runs",
        r#"perl -pe 's/(\S)  +(?=\S)/$1 /g' {in} > {out}"#,
    ),
    (
        "title-space-ends",
        r#"perl -pe 's/<title>\s+([^<\s][^<]*?)\s+<\/title>/<title>$1<\/title>/g' {in} > {out}"#,
    ),
    ("title-tab", r#"perl -pe 's/&#9;/ /g' {in} > {out}"#),
    (
        "title-newline",
        r#"perl -0pe 's/(<title>[^<]*)\n([^<]*<\/title>)/$1 $2/g' {in} > {out}"#,
    ),
    (
        "folder-title-space",
        r#"perl -0pe 's/(<folder>\s*<title>[^<]*)/$1 =~ s{(\S)  +}{$1 }gr/ge' {in} > {out}"#,
    ),
    (
        "title-nfc",
        r#"perl -CSD -MUnicode::Normalize -pe '$_ = NFC($_)' {in} > {out}"#,
    ),
    (
        "title-nfd",
        r#"perl -CSD -MUnicode::Normalize -pe '$_ = NFD($_)' {in} > {out}"#,
    ),
    (
        "title-rtl",
        r#"perl -CSD -pe 's/[\x{590}-\x{6ff}]//g' {in} > {out}"#,
    ),
    (
        "title-emoji",
        r#"perl -CSD -pe 's/[^\x{0}-\x{ffff}]//g' {in} > {out}"#,
    ),
    // Decoded twice, and written back as the XML it then is.
    (
        "entity-twice-href",
        r#"perl -CSD -pe 's/&amp;copy/\x{a9}/g; s/&amp;not/\x{ac}/g' {in} > {out}"#,
    ),
    (
        "entity-twice-title",
        r#"perl -pe 's/&amp;(lt|gt|amp);/&$1;/g' {in} > {out}"#,
    ),
    (
        "entity-encoded-twice",
        r#"perl -pe 's/&amp;/&amp;amp;/g' {in} > {out}"#,
    ),
    (
        "link-idn",
        r#"perl -pe 's/b\xc3\xbccher/bcher/g' {in} > {out}"#,
    ),
    (
        "link-percent",
        r#"perl -pe 's{%2F}{/}g; s/%26/&amp;/g; s/%3D/=/g' {in} > {out}"#,
    ),
    (
        "link-ampersand",
        r#"perl -pe 's/(href="[^"&]*)&amp;[^"]*"/$1"/g' {in} > {out}"#,
    ),
    (
        "link-fragment",
        r##"perl -pe 's/(href="[^"#]*)#[^"]*"/$1"/g' {in} > {out}"##,
    ),
    (
        "link-long",
        r#"perl -pe 's/(href=")([^"]{2000})[^"]*"/$1$2"/g' {in} > {out}"#,
    ),
    (
        "date-epoch",
        r#"perl -pe 's/ added="1970-01-01T00:00:00Z"//g' {in} > {out}"#,
    ),
    (
        "date-before-1970",
        r#"perl -pe 's/ added="19[0-6]\d-[^"]*"//g' {in} > {out}"#,
    ),
    (
        "date-y2038",
        r#"perl -pe 's/added="2040-01-01T00:00:00Z"/added="1903-11-26T17:31:44Z"/g' {in} > {out}"#,
    ),
    (
        "date-subseconds",
        r#"perl -pe 's/(added="[^".]*)\.\d+Z"/$1Z"/g' {in} > {out}"#,
    ),
    (
        "empty-title",
        r#"perl -ne 'print unless /<bookmark [^>]*\/>/' {in} > {out}"#,
    ),
    (
        "empty-folder",
        r#"perl -ne 'print unless /<folder><title>Empty folder<\/title><\/folder>/' {in} > {out}"#,
    ),
    (
        "separator",
        r#"perl -ne 'print unless /<separator\/>/' {in} > {out}"#,
    ),
    ("alias", r#"perl -ne 'print unless /<alias /' {in} > {out}"#),
    (
        "duplicates",
        r#"perl -ne 'print unless /href="([^"]*)"/ && $seen{$1}++' {in} > {out}"#,
    ),
    (
        "deep-nesting",
        r#"perl -0pe 's/<folder><title>Level \d+<\/title>\n//g; s/(bottom[^\n]*\n)(\s*<\/folder>\n){50}/$1/' {in} > {out}"#,
    ),
];

/// What every tool of the JSON formats (Chromium, Firefox) starts with: the
/// file read as JSON, and helpers over its nodes, in both formats' words.
/// The tools change values, not text, so that JSON's quoting is not what
/// they get wrong. Double quotes only: the program is inside `'...'`.
const PY_PRELUDE: &str = r#"import html, json, re, sys, unicodedata, urllib.parse
d = json.load(open(sys.argv[1], encoding="utf-8"))
CH = "roots" in d
KEY = "name" if CH else "title"
def nodes(n):
    stack = [n]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            yield x
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
def is_bookmark(x):
    return x.get("type") in ("url", "text/x-moz-place")
def is_folder(x):
    return x.get("type") in ("folder", "text/x-moz-place-container")
def href(x):
    return x.get("url", x.get("uri"))
def retitle(f, which=is_bookmark):
    for x in nodes(d):
        if which(x) and isinstance(x.get(KEY), str):
            x[KEY] = f(x[KEY])
def rehref(f):
    for x in nodes(d):
        if is_bookmark(x):
            x["url" if CH else "uri"] = f(href(x))
def drop(gone):
    for x in list(nodes(d)):
        if isinstance(x.get("children"), list):
            x["children"] = [c for c in x["children"] if not gone(c)]
def redate(f):
    # f takes and gives microseconds since 1970; None is no date.
    for x in nodes(d):
        for k in ("date_added", "dateAdded"):
            if k not in x or (CH and x[k] == "0"):
                continue
            us = f(int(x[k]) - (11644473600000000 if CH else 0))
            if CH:
                x[k] = "0" if us is None else str(us + 11644473600000000)
            elif us is None:
                del x[k]
            else:
                x[k] = us
"#;

/// What every JSON tool ends with: the changed document written at `{out}`.
const PY_POSTLUDE: &str = r#"
json.dump(d, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
"#;

/// The mistakes the Chromium and Firefox cases share, each as the Python
/// that makes it (run between [`PY_PRELUDE`] and [`PY_POSTLUDE`]).
const JSON_COMMON: &[(&str, &str)] = &[
    (
        "title-space-runs",
        r#"retitle(lambda t: re.sub(r"(\S)  +(?=\S)", r"\1 ", t))"#,
    ),
    ("title-space-ends", "retitle(str.strip)"),
    ("title-tab", r#"retitle(lambda t: t.replace("\t", " "))"#),
    (
        "title-newline",
        r#"retitle(lambda t: t.replace("\n", " "))"#,
    ),
    (
        "folder-title-space",
        r#"retitle(lambda t: re.sub(" +", " ", t), is_folder)"#,
    ),
    (
        "title-nfc",
        r#"retitle(lambda t: unicodedata.normalize("NFC", t))"#,
    ),
    (
        "title-nfd",
        r#"retitle(lambda t: unicodedata.normalize("NFD", t))"#,
    ),
    (
        "title-rtl",
        r#"retitle(lambda t: re.sub("[\u0590-\u06ff]", "", t))"#,
    ),
    (
        "title-emoji",
        r#"retitle(lambda t: re.sub("[^\u0000-\uffff]", "", t))"#,
    ),
    ("entity-decoded-title", "retitle(html.unescape)"),
    ("entity-decoded-href", "rehref(html.unescape)"),
    ("entity-encoded", "retitle(html.escape)"),
    // The text's `\\t` read once more as an escape: a tab.
    (
        "json-unescape-twice",
        r#"retitle(lambda t: t.replace("\\t", "\t").replace("\\n", "\n"))"#,
    ),
    (
        "link-idn",
        r#"rehref(lambda u: re.sub("[^\u0000-\u007f]", "", u))"#,
    ),
    ("link-percent", "rehref(urllib.parse.unquote)"),
    ("link-ampersand", r#"rehref(lambda u: u.split("&")[0])"#),
    ("link-fragment", r##"rehref(lambda u: u.split("#")[0])"##),
    ("link-long", "rehref(lambda u: u[:2000])"),
    ("date-epoch", "redate(lambda us: None if us == 0 else us)"),
    (
        "date-before-1970",
        "redate(lambda us: None if us < 0 else us)",
    ),
    (
        "date-y2038",
        "redate(lambda us: ((us // 10**6 + 2**31) % 2**32 - 2**31) * 10**6 + us % 10**6)",
    ),
    ("date-subseconds", "redate(lambda us: us // 1000 * 1000)"),
    (
        "empty-title",
        "drop(lambda c: is_bookmark(c) and not c.get(KEY))",
    ),
    (
        "empty-folder",
        r#"drop(lambda c: is_folder(c) and not c.get("children") and "root" not in c)"#,
    ),
    (
        "duplicates",
        "seen = set()\ndrop(lambda c: is_bookmark(c) and (href(c) in seen or seen.add(href(c))))",
    ),
    // Each "Level N" folder replaced by what it holds, down to the bottom.
    (
        "deep-nesting",
        r#"level = lambda c: is_folder(c) and c.get(KEY, "").startswith("Level ")
for x in list(nodes(d)):
    while any(level(c) for c in x.get("children", [])):
        x["children"] = [g for c in x["children"] for g in (c["children"] if level(c) else [c])]"#,
    ),
];

/// The Chromium cases' own mistakes.
const CHROMIUM: &[(&str, &str)] = &[
    (
        "date-double",
        r#"for x in nodes(d):
    if "date_added" in x:
        x["date_added"] = str(int(float(x["date_added"])))"#,
    ),
    (
        "date-visited",
        r#"for x in nodes(d):
    x.pop("date_last_used", None)"#,
    ),
    ("synced-root", r#"d["roots"]["synced"]["children"] = []"#),
];

/// The Firefox cases' own mistakes.
const FIREFOX: &[(&str, &str)] = &[
    (
        "tag-case",
        r#"for x in nodes(d):
    if "tags" in x:
        x["tags"] = x["tags"].lower()"#,
    ),
    (
        "tag-split",
        r#"for x in nodes(d):
    if "tags" in x:
        x["tags"] = ",".join(re.split("[ ,]+", x["tags"]))"#,
    ),
    (
        "tag-ascii",
        r#"for x in nodes(d):
    if "tags" in x:
        x["tags"] = re.sub("[^\u0000-\u007f]", "", x["tags"])"#,
    ),
    (
        "place-link",
        r#"drop(lambda c: (href(c) or "").startswith("place:"))"#,
    ),
    (
        "date-modified",
        r#"for x in nodes(d):
    if is_bookmark(x):
        x.pop("lastModified", None)"#,
    ),
    (
        "separator",
        r#"drop(lambda c: c.get("type") == "text/x-moz-place-separator")"#,
    ),
    (
        "keyword",
        r#"for x in nodes(d):
    x.pop("keyword", None)"#,
    ),
];

/// The desktop-bookmark cases' mistakes (its XML, as the XBEL ones).
const DESKTOP: &[(&str, &str)] = &[
    (
        "applications-first-only",
        r#"perl -0pe 's/(<bookmark:application [^>]*\/>)\s*<bookmark:application [^>]*\/>/$1/g' {in} > {out}"#,
    ),
    ("exec-percent", r#"perl -pe 's/%%/%/g' {in} > {out}"#),
    (
        "application-count",
        r#"perl -pe 's/(<bookmark:application [^>]*) count="\d+"/$1/g' {in} > {out}"#,
    ),
    (
        "groups",
        r#"perl -0pe 's/\s*<bookmark:groups>.*?<\/bookmark:groups>//gs' {in} > {out}"#,
    ),
    (
        "private",
        r#"perl -ne 'print unless /<bookmark:private\/>/' {in} > {out}"#,
    ),
    (
        "mime-type",
        r#"perl -ne 'print unless /<mime:mime-type /' {in} > {out}"#,
    ),
    (
        "icon",
        r#"perl -ne 'print unless /<bookmark:icon /' {in} > {out}"#,
    ),
    (
        "title-desc",
        r#"perl -ne 'print unless /<(title|desc)>/' {in} > {out}"#,
    ),
    (
        "date-subseconds",
        r#"perl -pe 's/(\d\d:\d\d:\d\d)\.\d+Z/$1Z/g' {in} > {out}"#,
    ),
    (
        "date-epoch",
        r#"perl -pe 's/ added="1970-01-01T00:00:00Z"//g' {in} > {out}"#,
    ),
    (
        "date-before-1970",
        r#"perl -pe 's/ added="19[0-6]\d-[^"]*"//g' {in} > {out}"#,
    ),
    (
        "date-y2038",
        r#"perl -pe 's/2040-01-01T00:00:00Z/1903-11-26T17:31:44Z/g' {in} > {out}"#,
    ),
    (
        "date-one-for-three",
        r#"perl -pe 's/added="([^"]*)" modified="[^"]*" visited="[^"]*"/added="$1" modified="$1" visited="$1"/g' {in} > {out}"#,
    ),
    (
        "link-percent",
        r#"perl -pe 's/%25/%/g; s/%20/ /g; s/%23/#/g' {in} > {out}"#,
    ),
    (
        "link-non-utf8",
        r#"perl -pe 's/%E9/%EF%BF%BD/g' {in} > {out}"#,
    ),
    ("link-nfd", r#"perl -pe 's/e%CC%81/%C3%A9/g' {in} > {out}"#),
    (
        "entity-twice-title",
        r#"perl -pe 's/&amp;(lt|gt);/&$1;/g' {in} > {out}"#,
    ),
];

/// The tools of a JSON format: its own mistakes and the shared ones, each
/// a Python program run on `{in}`, writing `{out}`.
fn json_tools(own: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    JSON_COMMON
        .iter()
        .chain(own)
        .map(|&(mistake, body)| {
            assert!(!body.contains('\''), "{mistake}: the program is in '...'");
            let program = format!("{PY_PRELUDE}{body}{PY_POSTLUDE}");
            (mistake, format!("python3 -c '{program}' {{in}} {{out}}"))
        })
        .collect()
}

/// The tools of a format whose mistakes are all its own, as written.
fn as_written(tools: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    tools.iter().map(|&(m, t)| (m, t.to_owned())).collect()
}

/// A case's claim: (mistake, what it is, the row that catches it).
struct Claim {
    mistake: String,
    file: String,
    row: String,
}

/// Every `catches:` comment of the files in `dir`.
fn claims(dir: &Path) -> Vec<Claim> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".expected.json") || name.ends_with(".md") {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        for part in text.split("catches: ").skip(1) {
            let (mistake, rest) = part.split_once(':').unwrap();
            let row = rest.split("; row: ").nth(1).unwrap();
            // In JSON the note ends the string: its quote is not the row's.
            let end = row
                .find(|c: char| !(c.is_alphanumeric() || c == '.' || c == '-'))
                .unwrap_or(row.len());
            let row = &row[..end];
            out.push(Claim {
                mistake: mistake.trim().to_owned(),
                file: name.clone(),
                row: row.to_owned(),
            });
        }
    }
    out
}

fn export(format: &str, dir: &Path) {
    markport()
        .args(["conformance", "--from", format, "--export-corpus"])
        .arg(dir)
        .assert()
        .success();
}

fn run_json(cmd: &str, corpus: &Path) -> (i32, Value) {
    run_format(cmd, "netscape", corpus)
}

fn run_format(cmd: &str, format: &str, corpus: &Path) -> (i32, Value) {
    let out = markport()
        .args(["conformance", "--json", "--cmd", cmd])
        .args(["--from", format, "--to", format, "--corpus"])
        .arg(corpus)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), report)
}

#[test]
fn every_documented_netscape_mistake_is_caught_by_the_row_its_case_names() {
    mistakes_are_caught("netscape", &as_written(NETSCAPE), 25);
}

#[test]
fn every_documented_xbel_mistake_is_caught_by_the_row_its_case_names() {
    mistakes_are_caught("xbel", &as_written(XBEL), 25);
}

#[test]
fn every_documented_chromium_mistake_is_caught_by_the_row_its_case_names() {
    mistakes_are_caught("chromium", &json_tools(CHROMIUM), 25);
}

#[test]
fn every_documented_firefox_mistake_is_caught_by_the_row_its_case_names() {
    mistakes_are_caught("firefox", &json_tools(FIREFOX), 25);
}

#[test]
fn every_documented_desktop_mistake_is_caught_by_the_row_its_case_names() {
    mistakes_are_caught("desktop", &as_written(DESKTOP), 15);
}

/// Each mistake the cases of `format` document is made by its tool in
/// `tools`, and caught by the row its case names, in its file; the cases
/// are at least `min`.
fn mistakes_are_caught(format: &str, tools: &[(&'static str, String)], min: usize) {
    let corpus = tempfile::tempdir().unwrap();
    export(format, corpus.path());
    let claims = claims(corpus.path());
    let documented: BTreeSet<&str> = claims.iter().map(|c| c.mistake.as_str()).collect();
    let tools: BTreeMap<&str, &str> = tools.iter().map(|(m, t)| (*m, t.as_str())).collect();
    assert_eq!(
        documented,
        tools.keys().copied().collect::<BTreeSet<_>>(),
        "every mistake the corpus documents has a tool here, and no other"
    );
    assert!(claims.len() >= min, "{} cases", claims.len());
    let mut clean_files = BTreeSet::new();
    for claim in &claims {
        // The case's file alone, so that what catches it is that file.
        let one = tempfile::tempdir().unwrap();
        let stem = claim.file.rsplit_once('.').unwrap().0;
        for name in [claim.file.clone(), format!("{stem}.expected.json")] {
            std::fs::copy(corpus.path().join(&name), one.path().join(&name)).unwrap();
        }
        // Each file is first shown to pass unchanged, once.
        if clean_files.insert(claim.file.clone()) {
            let (_, clean) = run_format("cp {in} {out}", format, one.path());
            assert_eq!(clean["passed"], true, "{}: {clean:#}", claim.file);
            assert!(
                clean["checks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|c| c["changed"] == 0 && c["lost"] == 0),
                "{}: {clean:#}",
                claim.file
            );
        }
        let (_, report) = run_format(tools[claim.mistake.as_str()], format, one.path());
        // A tool that failed loses everything: that catches nothing.
        assert!(
            report["files"][0]["failure"].is_null(),
            "{}: the tool failed: {report:#}",
            claim.mistake
        );
        let row = report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["check"] == claim.row.as_str())
            .unwrap_or_else(|| panic!("{}: no row {} in {report:#}", claim.mistake, claim.row));
        let missed = row["changed"].as_u64().unwrap() + row["lost"].as_u64().unwrap();
        assert!(
            missed > 0,
            "{} ({}) is not caught by {}: {report:#}",
            claim.mistake,
            claim.file,
            claim.row
        );
        let paths: Vec<&str> = ["changed_paths", "lost_paths"]
            .iter()
            .flat_map(|k| row[k].as_array().unwrap())
            .map(|p| p.as_str().unwrap())
            .collect();
        assert!(
            paths.iter().any(|p| p.starts_with(&claim.file)),
            "{}: {paths:?}",
            claim.mistake
        );
        // Rows of values show them; order, placement and separators have none.
        let Some(example) = row["examples"].as_array().unwrap().first() else {
            continue;
        };
        assert_ne!(example["before"], example["after"], "{}", claim.mistake);
    }
}

#[test]
fn an_installed_binary_runs_its_own_corpus_from_anywhere() {
    // The binary alone, in a directory of its own, run from another one,
    // with no MARKPORT_CORPUS: the corpus it was built with is inside it.
    let bin_dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let bin = bin_dir.path().join("markport");
    std::fs::copy(assert_cmd::cargo::cargo_bin("markport"), &bin).unwrap();
    // A test running beside this one may fork while the copy is still open
    // for writing; its child holds that descriptor until it execs, and the
    // copy is "busy" (ETXTBSY) for so long: try again.
    let mut tries = 0;
    let out = loop {
        let run = std::process::Command::new(&bin)
            .args(["conformance", "--json", "--cmd", "cp {in} {out}"])
            .args(["--from", "netscape", "--to", "netscape"])
            .current_dir(elsewhere.path())
            .env_remove("MARKPORT_CORPUS")
            .output();
        match run {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            other => break other.unwrap(),
        }
    };
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files: Vec<&str> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    // Named by their path in the corpus, samples and mistakes alike.
    assert!(files.contains(&"netscape/chrome.html"), "{files:?}");
    assert!(files.contains(&"mistakes/netscape/tags.html"), "{files:?}");
    assert!(files
        .iter()
        .all(|f| !f.contains("..") && !f.starts_with('/')));
}

#[test]
fn the_exported_corpus_runs_as_the_compiled_one_and_names_files_relative_to_it() {
    let dir = tempfile::tempdir().unwrap();
    export("netscape", dir.path());
    assert!(dir.path().join("chrome.html").is_file());
    assert!(dir.path().join("tags.expected.json").is_file());
    assert!(dir.path().join("mistakes-netscape-README.md").is_file());
    let (code, report) = run_json("cp {in} {out}", dir.path());
    assert_eq!(code, 0);
    let files = report["files"].as_array().unwrap();
    let compiled = markport()
        .args(["conformance", "--json", "--cmd", "cp {in} {out}"])
        .args(["--from", "netscape", "--to", "netscape"])
        .output()
        .unwrap();
    let compiled: Value = serde_json::from_slice(&compiled.stdout).unwrap();
    assert_eq!(files.len(), compiled["files"].as_array().unwrap().len());
    assert!(files.iter().any(|f| f["file"] == "tags.html"), "{report:#}");
}

#[test]
fn keep_keeps_each_output_beside_its_input_under_its_corpus_path() {
    let keep = tempfile::tempdir().unwrap();
    let lower = r#"perl -pe 's/(TAGS="[^"]*")/lc $1/ge' {in} > {out}"#;
    let out = markport()
        .args(["conformance", "--cmd", lower])
        .args(["--from", "netscape", "--to", "netscape", "--keep"])
        .arg(keep.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let input = keep.path().join("mistakes/netscape/tags.html");
    let output = keep.path().join("mistakes/netscape/tags-out.html");
    let original = std::fs::read_to_string(&input).unwrap();
    assert!(original.contains(r#"TAGS="Rust,WebAssembly,iOS""#));
    let written = std::fs::read_to_string(&output).unwrap();
    // perl's lc takes the attribute's name along.
    assert!(
        written.contains(r#"tags="rust,webassembly,ios""#),
        "{written}"
    );
    assert!(keep.path().join("netscape/chrome-out.html").is_file());
    // The text shows the value before and after, and the cause first.
    let text = String::from_utf8(out.stdout).unwrap();
    let fix = text.find("fix first:").expect(&text);
    assert!(text[fix..].contains("letter case"), "{text}");
    assert!(
        text.contains(r#"["Rust","WebAssembly","iOS"] -> ["rust","webassembly","ios"]"#),
        "{text}"
    );
}

#[test]
fn the_banner_counts_the_must_values_and_the_failed_files() {
    let corpus = tempfile::tempdir().unwrap();
    export("netscape", corpus.path());
    // Loses one title (must) in one file, and fails on another.
    let tool = r#"case {in} in *entities.html) exit 4;; esac; perl -pe 's{>Rust</A>}{></A>}' {in} > {out}"#;
    let out = markport()
        .args(["conformance", "--cmd", tool])
        .args(["--from", "netscape", "--to", "netscape", "--corpus"])
        .arg(corpus.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let banner = text.lines().nth(1).unwrap();
    // entities.html's 3 bookmarks lose their presence, link and title (9);
    // tags.html loses one title.
    assert!(
        banner.starts_with("FAILED: 0 must values changed and 10 lost, on 2 of "),
        "{banner}"
    );
    assert!(banner.ends_with("; the tool failed on 1 file"), "{banner}");
    assert!(!text.contains("100%"));
    let (_, report) = run_json(tool, corpus.path());
    let summary = &report["summary"];
    assert_eq!(summary["files_failed"], 1);
    assert_eq!(summary["files_must_not_kept"], 2);
    let title = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "bookmark.title")
        .unwrap();
    let lost: Vec<&Value> = title["examples"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["path"].as_str().unwrap().starts_with("tags.html"))
        .collect();
    assert_eq!(lost.len(), 1, "{title:#}");
    assert_eq!(lost[0]["before"], "Rust");
    assert!(lost[0]["after"].is_null());
}

#[test]
fn markport_s_own_round_trip_keeps_every_value_of_the_new_cases() {
    // markport must keep everything its own corpus asks, notes included.
    let bin = assert_cmd::cargo::cargo_bin("markport");
    for format in ["chromium", "firefox", "desktop"] {
        let cmd = format!(
            "'{}' -q convert {{in}} --from {format} --to {format} -o {{out}}",
            bin.display()
        );
        let out = markport()
            .args(["conformance", "--json", "--cmd", &cmd])
            .args(["--from", format, "--to", format])
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}: {report:#}");
        let files: Vec<&str> = report["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["file"].as_str().unwrap())
            .collect();
        let mistakes = format!("mistakes/{format}/");
        assert!(
            files.iter().filter(|f| f.starts_with(&mistakes)).count() >= 2,
            "{files:?}"
        );
        for check in report["checks"].as_array().unwrap() {
            assert_eq!(check["kept"], check["values"], "{format}: {check:#}");
        }
    }
}
