//! Every rule fires on its example in corpus/check/ at the place it names,
//! is documented in docs/check.md, and fires nowhere in the valid corpus
//! but where a real producer's file is known to break it.

use std::path::{Path, PathBuf};

use markport_check::{check, rules, Severity};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// (example file in corpus/check/, format, rule, line, column).
const EXAMPLES: &[(&str, &str, &str, u32, u32)] = &[
    (
        "xbel-not-well-formed.xbel",
        "xbel",
        "xbel/not-well-formed",
        5,
        1,
    ),
    (
        "xbel-encoding-mismatch.xbel",
        "xbel",
        "xbel/encoding-mismatch",
        4,
        15,
    ),
    (
        "xbel-encoding-suspect.xbel",
        "xbel",
        "xbel/encoding-suspect",
        1,
        31,
    ),
    (
        "xbel-unknown-encoding.xbel",
        "xbel",
        "xbel/unknown-encoding",
        1,
        31,
    ),
    ("xbel-root.xbel", "xbel", "xbel/root", 2, 1),
    (
        "xbel-missing-version.xbel",
        "xbel",
        "xbel/missing-version",
        2,
        1,
    ),
    ("xbel-version.xbel", "xbel", "xbel/version", 2, 7),
    (
        "xbel-unknown-element.xbel",
        "xbel",
        "xbel/unknown-element",
        4,
        3,
    ),
    (
        "xbel-foreign-element.xbel",
        "xbel",
        "xbel/foreign-element",
        3,
        3,
    ),
    (
        "xbel-misplaced-element.xbel",
        "xbel",
        "xbel/misplaced-element",
        4,
        5,
    ),
    (
        "xbel-element-order.xbel",
        "xbel",
        "xbel/element-order",
        5,
        5,
    ),
    (
        "xbel-text-not-allowed.xbel",
        "xbel",
        "xbel/text-not-allowed",
        5,
        5,
    ),
    ("xbel-empty-info.xbel", "xbel", "xbel/empty-info", 4, 5),
    (
        "xbel-duplicate-owner.xbel",
        "xbel",
        "xbel/duplicate-owner",
        6,
        17,
    ),
    (
        "xbel-unknown-attribute.xbel",
        "xbel",
        "xbel/unknown-attribute",
        3,
        41,
    ),
    (
        "xbel-missing-attribute.xbel",
        "xbel",
        "xbel/missing-attribute",
        4,
        3,
    ),
    (
        "xbel-bad-attribute-value.xbel",
        "xbel",
        "xbel/bad-attribute-value",
        3,
        11,
    ),
    (
        "xbel-bookmark-without-href.xbel",
        "xbel",
        "xbel/bookmark-without-href",
        3,
        3,
    ),
    ("xbel-bad-id.xbel", "xbel", "xbel/bad-id", 3, 13),
    ("xbel-duplicate-id.xbel", "xbel", "xbel/duplicate-id", 4, 11),
    (
        "xbel-dangling-alias.xbel",
        "xbel",
        "xbel/dangling-alias",
        4,
        10,
    ),
    ("xbel-bad-date.xbel", "xbel", "xbel/bad-date", 3, 41),
    ("xbel-floccus-ids.xbel", "xbel", "xbel/floccus-ids", 3, 13),
    ("xbel-kde-places.xbel", "xbel", "xbel/kde-places", 4, 3),
    ("desktop-not-utf8.xbel", "desktop", "desktop/not-utf8", 1, 1),
    (
        "desktop-byte-order-mark.xbel",
        "desktop",
        "desktop/byte-order-mark",
        1,
        1,
    ),
    (
        "desktop-xbel-element.xbel",
        "desktop",
        "desktop/xbel-element",
        6,
        3,
    ),
    (
        "desktop-bookmark-attribute.xbel",
        "desktop",
        "desktop/bookmark-attribute",
        6,
        47,
    ),
    (
        "desktop-not-a-uri.xbel",
        "desktop",
        "desktop/not-a-uri",
        6,
        13,
    ),
    (
        "desktop-relative-file-uri.xbel",
        "desktop",
        "desktop/relative-file-uri",
        6,
        13,
    ),
    (
        "desktop-duplicate-uri.xbel",
        "desktop",
        "desktop/duplicate-uri",
        16,
        13,
    ),
    (
        "desktop-bad-date.xbel",
        "desktop",
        "desktop/bad-date",
        6,
        47,
    ),
    (
        "desktop-missing-mime-type.xbel",
        "desktop",
        "desktop/missing-mime-type",
        6,
        3,
    ),
    (
        "desktop-missing-application.xbel",
        "desktop",
        "desktop/missing-application",
        6,
        3,
    ),
    (
        "desktop-application-attribute.xbel",
        "desktop",
        "desktop/application-attribute",
        11,
        11,
    ),
    (
        "desktop-bad-count.xbel",
        "desktop",
        "desktop/bad-count",
        11,
        94,
    ),
    (
        "desktop-duplicate-application.xbel",
        "desktop",
        "desktop/duplicate-application",
        12,
        33,
    ),
    (
        "desktop-bad-groups.xbel",
        "desktop",
        "desktop/bad-groups",
        14,
        11,
    ),
    (
        "desktop-bad-private.xbel",
        "desktop",
        "desktop/bad-private",
        13,
        27,
    ),
    (
        "desktop-icon-without-href.xbel",
        "desktop",
        "desktop/icon-without-href",
        13,
        9,
    ),
    (
        "desktop-unknown-element.xbel",
        "desktop",
        "desktop/unknown-element",
        13,
        9,
    ),
    (
        "desktop-foreign-metadata.xbel",
        "desktop",
        "desktop/foreign-metadata",
        15,
        9,
    ),
    (
        "netscape-doctype.html",
        "netscape",
        "netscape/doctype",
        1,
        1,
    ),
    (
        "netscape-unbalanced-dl.html",
        "netscape",
        "netscape/unbalanced-dl",
        5,
        1,
    ),
    (
        "netscape-item-outside-list.html",
        "netscape",
        "netscape/item-outside-list",
        8,
        1,
    ),
    (
        "netscape-safari-export.html",
        "netscape",
        "netscape/safari-export",
        6,
        2,
    ),
    (
        "netscape-shaarli-export.html",
        "netscape",
        "netscape/shaarli-export",
        9,
        1,
    ),
    (
        "netscape-unknown-attribute.html",
        "netscape",
        "netscape/unknown-attribute",
        6,
        40,
    ),
    (
        "netscape-duplicate-attribute.html",
        "netscape",
        "netscape/duplicate-attribute",
        6,
        40,
    ),
    (
        "netscape-bad-date.html",
        "netscape",
        "netscape/bad-date",
        6,
        40,
    ),
    (
        "netscape-charset-mismatch.html",
        "netscape",
        "netscape/charset-mismatch",
        6,
        43,
    ),
    (
        "netscape-charset-suspect.html",
        "netscape",
        "netscape/charset-suspect",
        2,
        1,
    ),
    (
        "netscape-unknown-charset.html",
        "netscape",
        "netscape/unknown-charset",
        2,
        1,
    ),
    (
        "chromium-not-json.Bookmarks",
        "chromium",
        "chromium/not-json",
        24,
        17,
    ),
    (
        "chromium-structure.Bookmarks",
        "chromium",
        "chromium/structure",
        22,
        16,
    ),
    (
        "chromium-missing-root.Bookmarks",
        "chromium",
        "chromium/missing-root",
        3,
        13,
    ),
    (
        "chromium-missing-key.Bookmarks",
        "chromium",
        "chromium/missing-key",
        6,
        13,
    ),
    (
        "chromium-bad-type.Bookmarks",
        "chromium",
        "chromium/bad-type",
        11,
        24,
    ),
    (
        "chromium-bad-id.Bookmarks",
        "chromium",
        "chromium/bad-id",
        9,
        22,
    ),
    (
        "chromium-duplicate-id.Bookmarks",
        "chromium",
        "chromium/duplicate-id",
        18,
        16,
    ),
    (
        "chromium-bad-guid.Bookmarks",
        "chromium",
        "chromium/bad-guid",
        8,
        24,
    ),
    (
        "chromium-bad-date.Bookmarks",
        "chromium",
        "chromium/bad-date",
        7,
        30,
    ),
    (
        "chromium-checksum.Bookmarks",
        "chromium",
        "chromium/checksum",
        2,
        16,
    ),
    (
        "firefox-bad-lz4.jsonlz4",
        "firefox",
        "firefox/bad-lz4",
        1,
        1,
    ),
    (
        "firefox-not-json.json",
        "firefox",
        "firefox/not-json",
        1,
        45,
    ),
    (
        "firefox-trailing-comma.json",
        "firefox",
        "firefox/trailing-comma",
        3,
        202,
    ),
    (
        "firefox-structure.json",
        "firefox",
        "firefox/structure",
        2,
        210,
    ),
    ("firefox-root.json", "firefox", "firefox/root", 5, 13),
    (
        "firefox-type-mismatch.json",
        "firefox",
        "firefox/type-mismatch",
        3,
        138,
    ),
    (
        "firefox-missing-uri.json",
        "firefox",
        "firefox/missing-uri",
        3,
        7,
    ),
    (
        "firefox-bad-guid.json",
        "firefox",
        "firefox/bad-guid",
        3,
        15,
    ),
    (
        "firefox-bad-date.json",
        "firefox",
        "firefox/bad-date",
        3,
        71,
    ),
    (
        "xfolk-missing-taggedlink.html",
        "xfolk",
        "xfolk/missing-taggedlink",
        6,
        1,
    ),
    (
        "xfolk-tag-not-rel-tag.html",
        "xfolk",
        "xfolk/tag-not-rel-tag",
        5,
        3,
    ),
    ("export-header.csv", "instapaper", "export/header", 1, 1),
    (
        "export-unknown-column.csv",
        "instapaper",
        "export/unknown-column",
        1,
        38,
    ),
    ("export-row.csv", "instapaper", "export/row", 3, 1),
    ("export-bad-date.csv", "pocket", "export/bad-date", 3, 1),
    ("reader-error.json", "json", "reader/error", 4, 1),
    ("reader-warning.html", "pocket", "reader/warning", 5, 5),
    (
        "pinboard-not-json.json",
        "pinboard",
        "pinboard/not-json",
        3,
        35,
    ),
    (
        "pinboard-structure.json",
        "pinboard",
        "pinboard/structure",
        3,
        3,
    ),
    (
        "pinboard-missing-href.json",
        "pinboard",
        "pinboard/missing-href",
        3,
        3,
    ),
    (
        "pinboard-bad-date.json",
        "pinboard",
        "pinboard/bad-date",
        3,
        58,
    ),
    (
        "pinboard-bad-flag.json",
        "pinboard",
        "pinboard/bad-flag",
        3,
        60,
    ),
];

fn check_file(path: &Path, format: &str) -> Vec<markport_check::Problem> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    check(&bytes, markport::format(format).expect(format))
}

#[test]
fn every_rule_has_one_example_named_after_it() {
    for rule in rules() {
        let examples: Vec<_> = EXAMPLES.iter().filter(|e| e.2 == rule.id).collect();
        assert_eq!(examples.len(), 1, "{}: examples {examples:?}", rule.id);
        let stem = rule.id.replace('/', "-");
        assert!(
            examples[0].0.starts_with(&format!("{stem}.")),
            "{} is shown by {}, not a file named after it",
            rule.id,
            examples[0].0
        );
    }
    assert_eq!(EXAMPLES.len(), rules().len());
}

#[test]
fn every_rule_fires_on_its_example_where_it_says() {
    for &(file, format, rule, line, column) in EXAMPLES {
        let problems = check_file(&root().join("corpus/check").join(file), format);
        assert!(
            problems
                .iter()
                .any(|p| p.rule == rule && (p.line, p.column) == (line, column)),
            "{file}: expected {rule} at {line}:{column}, got {problems:#?}"
        );
        let severity = rules().into_iter().find(|r| r.id == rule).unwrap().severity;
        assert!(problems
            .iter()
            .filter(|p| p.rule == rule)
            .all(|p| p.severity == severity));
    }
}

#[test]
fn every_rule_is_documented() {
    let doc = std::fs::read_to_string(root().join("docs/check.md")).unwrap();
    for rule in rules() {
        let heading = format!("### `{}`", rule.id);
        assert!(doc.contains(&heading), "docs/check.md has no {heading}");
        let severity = match rule.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let section = &doc[doc.find(&heading).unwrap()..];
        let section = &section[..section[3..].find("\n### ").map_or(section.len(), |i| i + 3)];
        assert!(
            section.contains(&format!("Severity: {severity}")),
            "docs/check.md: {} is not documented as {severity}",
            rule.id
        );
        let example = format!("corpus/check/{}.", rule.id.replace('/', "-"));
        assert!(
            section.contains(&example),
            "docs/check.md: {} names no example",
            rule.id
        );
    }
}

/// What the valid corpus is known to break, each a real producer's habit
/// (file, rule, how many times).
const KNOWN: &[(&str, &str, usize)] = &[
    // The sample keeps two dates no reader understands, on purpose.
    ("xbel/dates.xbel", "xbel/bad-date", 2),
    // Floccus writes numeric ids, which are not XML names: one warning.
    ("xbel/floccus-sync.xbel", "xbel/floccus-ids", 1),
    // markport's own (non-strict) writer puts an <info> in a <separator>.
    ("xbel/markport-block.xbel", "xbel/misplaced-element", 1),
    // KDE's places file: folders and separators, no MIME type, named
    // icons, applications without count or modified.
    ("desktop/kde-places.xbel", "desktop/xbel-element", 2),
    ("desktop/kde-places.xbel", "desktop/missing-mime-type", 1),
    ("desktop/kde-places.xbel", "desktop/icon-without-href", 2),
    (
        "desktop/kde-places.xbel",
        "desktop/application-attribute",
        2,
    ),
    // Control characters as GLib writes them (XML 1.1's range), on purpose.
    ("desktop/control-characters.xbel", "xbel/not-well-formed", 2),
    // Safari writes its top-level folders outside any list: one warning.
    ("netscape/safari.html", "netscape/safari-export", 1),
    // The Firefox 3.x trailing-comma bug, kept as a sample.
    (
        "firefox/firefox3-annos-tags.json",
        "firefox/trailing-comma",
        1,
    ),
    // The hard cases of Firefox's restore (docs/formats/firefox.md): the
    // menu and toolbar only, so the restore's added unfiled root is measured.
    ("firefox/firefox-restore-changes.json", "firefox/root", 1),
    // A page with an entry that has no link, on purpose (the reader skips it).
    ("xfolk/nested-entries.html", "xfolk/missing-taggedlink", 1),
    // Pocket's export ZIP: an annotated article no part lists and the
    // highlights' dates, reported by the reader on purpose.
    ("pocket/pocket-export.zip", "reader/warning", 2),
    // The generic CSV samples test the reader's doubts: a `Shared` value
    // that is neither yes nor no (read as private), a date that is none.
    ("csv/generic.csv", "reader/warning", 1),
    ("csv/semicolon.csv", "reader/warning", 1),
    // Karakeep's text notes have no link: said, not read.
    ("karakeep/karakeep.json", "reader/warning", 1),
    // A URL list line without a scheme, kept and said.
    ("urls/links.txt", "reader/warning", 1),
    // Edge Collections: a note card with no link, said, not read.
    ("edge/collectionsSQLite", "reader/warning", 1),
    // Shaarli's notes without a link (both layouts): said, not read.
    ("shaarli/datastore.php", "reader/warning", 1),
    ("shaarli/legacy-datastore.php", "reader/warning", 1),
];

#[test]
fn no_rule_fires_on_the_valid_corpus_but_the_known_habits() {
    use std::collections::BTreeMap;
    let corpus = root().join("corpus");
    // (file, rule) -> how many times, found and known.
    let mut found: BTreeMap<(String, &str), usize> = BTreeMap::new();
    let mut checked = 0;
    for dir in std::fs::read_dir(&corpus).unwrap().flatten() {
        let format = dir.file_name().to_string_lossy().into_owned();
        // corpus/README.md (provenance) is no format's folder.
        if format == "check" || !dir.path().is_dir() {
            continue;
        }
        for file in std::fs::read_dir(dir.path()).unwrap().flatten() {
            let name = file.file_name().to_string_lossy().into_owned();
            if name.ends_with(".expected.json") || name.ends_with(".md") || name.starts_with('.') {
                continue;
            }
            // A favorites tree (a directory) is many files: check reads one.
            if file.path().is_dir() {
                continue;
            }
            checked += 1;
            for p in check_file(&file.path(), &format) {
                *found
                    .entry((format!("{format}/{name}"), p.rule))
                    .or_default() += 1;
            }
        }
    }
    let known: BTreeMap<(String, &str), usize> = KNOWN
        .iter()
        .map(|&(file, rule, n)| ((file.to_string(), rule), n))
        .collect();
    assert_eq!(found, known);
    assert!(checked > 30, "only {checked} corpus files");
}

#[test]
fn a_100000_deep_file_checks_cleanly() {
    let depth = 100_000;
    let mut xbel = String::from("<?xml version=\"1.0\"?>\n<xbel version=\"1.0\">");
    xbel.push_str(&"<folder>".repeat(depth));
    xbel.push_str("<bookmark href=\"https://example.org/\"/>");
    xbel.push_str(&"</folder>".repeat(depth));
    xbel.push_str("</xbel>\n");
    assert_eq!(
        check(xbel.as_bytes(), markport::format("xbel").unwrap()),
        []
    );

    let mut html = String::from("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n");
    html.push_str(&"<DL><p><DT><H3>x</H3>\n".repeat(depth));
    html.push_str(&"</DL><p>\n".repeat(depth));
    assert_eq!(
        check(html.as_bytes(), markport::format("netscape").unwrap()),
        []
    );

    let chromium = format!(
        "{{\"roots\": {{\"bookmark_bar\": {}{}, \"other\": {}}}, \"version\": 1}}",
        "{\"id\": \"1\", \"name\": \"f\", \"type\": \"folder\", \"children\": [".repeat(depth),
        "]}".repeat(depth),
        "{\"id\": \"0\", \"name\": \"o\", \"type\": \"folder\", \"children\": []}"
    );
    let problems = check(chromium.as_bytes(), markport::format("chromium").unwrap());
    // Every folder repeats id 1: one problem each, and nothing else; the
    // first LIMIT_PER_RULE listed, the rest counted in one more.
    assert_capped(&problems, "chromium/duplicate-id", depth - 1);

    let firefox = format!(
        "{}{}",
        "{\"typeCode\": 2, \"type\": \"text/x-moz-place-container\", \"children\": [".repeat(depth),
        "]}".repeat(depth)
    );
    let problems = check(firefox.as_bytes(), markport::format("firefox").unwrap());
    // Only the top: it is not the places root.
    assert_eq!(
        problems.len(),
        1,
        "{:?}",
        &problems[..problems.len().min(3)]
    );
    assert_eq!(problems[0].rule, "firefox/root");

    let xfolk = format!(
        "<!DOCTYPE html><body>{}{}</body>",
        "<div class=\"xfolkentry\"><a class=\"taggedlink\" href=\"https://e/\">t</a><span class=\"tags\">".repeat(depth),
        "</span></div>".repeat(depth)
    );
    let problems = check(xfolk.as_bytes(), markport::format("xfolk").unwrap());
    // No tags span holds a rel="tag" link: each is reported, once.
    assert_capped(&problems, "xfolk/tag-not-rel-tag", depth);
}

/// `problems` are `found` problems of `rule`: the first
/// [`markport_check::LIMIT_PER_RULE`] listed, then one that counts the rest.
fn assert_capped(problems: &[markport_check::Problem], rule: &str, found: usize) {
    let limit = markport_check::LIMIT_PER_RULE;
    assert_eq!(problems.len(), limit + 1);
    assert!(problems.iter().all(|p| p.rule == rule));
    let more = problems
        .iter()
        .filter(|p| {
            p.message
                .starts_with(&format!("{} more problems of this rule", found - limit))
        })
        .count();
    assert_eq!(more, 1, "{:?}", problems.last());
}

/// A small file with a problem every few bytes: 200,000 unknown
/// attributes on one tag list the first LIMIT_PER_RULE, and say how many
/// more there are at the last of them, so memory follows the file, not
/// the number of problems (issue 30: 46 times the file's size).
#[test]
fn problems_of_one_rule_are_listed_up_to_the_limit_then_counted() {
    let n = 200_000;
    let names: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
    let html = format!(
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF=\"https://e.example/\" {}>t</A>\n</DL><p>\n",
        names.join(" ")
    );
    let problems = check(html.as_bytes(), markport::format("netscape").unwrap());
    assert_capped(&problems, "netscape/unknown-attribute", n);
    // The count stands at the last attribute, after the listed ones.
    let last = problems.last().unwrap();
    assert!(last.message.starts_with("199000 more"), "{last:?}");
    assert_eq!(last.line, 3);
    assert_eq!(
        last.column as usize,
        html.find("a199999").unwrap() - html.find("<DT>").unwrap() + 1
    );
}

/// GLib's own test files and the probes GLib 2.74 was run on (the shared
/// peer corpus): every file GLib refuses raises a problem, and a date is
/// `desktop/bad-date` exactly when GLib refused it.
#[test]
fn the_desktop_rules_agree_with_glib() {
    let shared = root().join("../shared/corpus/peers/desktop");
    if !shared.is_dir() {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "CI=true but the shared corpus is missing"
        );
        eprintln!("skipped: no shared peer corpus at {}", shared.display());
        return;
    }
    let glib = shared.join("glib/bookmarks");
    let mut fails = 0;
    for entry in std::fs::read_dir(&glib).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let problems = check_file(&entry.path(), "desktop");
        let errors = problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .count();
        if name.starts_with("fail-") {
            fails += 1;
            assert!(errors > 0, "GLib refuses {name}; check found nothing");
        } else if name == "valid-02.xbel" {
            // The deprecated `timestamp` in place of `modified`, which the
            // spec (0.8.5) requires and GLib still reads.
            assert!(
                problems
                    .iter()
                    .all(|p| p.rule == "desktop/application-attribute"),
                "{problems:#?}"
            );
        } else if name.starts_with("valid-") {
            assert_eq!(problems, [], "{name}");
        }
    }
    assert!(fails >= 40, "only {fails} of GLib's fail files");

    let probes = shared.join("glib-probes");
    let tsv = std::fs::read_to_string(probes.join("expected.tsv")).unwrap();
    let mut rejected = 0;
    for line in tsv
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("file\t"))
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, verdict) = (cols[0], cols[1]);
        let problems = check_file(&probes.join(file), "desktop");
        if verdict == "reject" {
            rejected += 1;
            assert!(
                !problems.is_empty(),
                "GLib refuses {file} ({}); check found nothing",
                cols[4]
            );
        }
        if file.starts_with("date-")
            && file != "date-missing.xbel"
            && file != "date-modified-visited.xbel"
        {
            let bad_date = problems.iter().any(|p| p.rule == "desktop/bad-date");
            assert_eq!(
                bad_date,
                verdict == "reject",
                "{file}: {}: {problems:#?}",
                cols[4]
            );
        }
    }
    assert!(rejected >= 30, "only {rejected} rejected probes");
}

/// Chromium's checksum, computed as the file streams by (or by the reader
/// when the roots are a browser's own): the real files' sums hold, and one
/// changed title breaks each.
#[test]
fn a_changed_title_breaks_chromiums_checksum() {
    let dir = root().join("corpus/chromium");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        if entry.path().extension().is_none_or(|e| e != "Bookmarks")
            || text.contains("\"checksum\": \"\"")
        {
            continue;
        }
        let format = markport::format("chromium").unwrap();
        assert_eq!(
            check(text.as_bytes(), format),
            [],
            "{}",
            entry.path().display()
        );
        let changed = text.replacen("\"name\": \"", "\"name\": \"X", 1);
        let problems = check(changed.as_bytes(), format);
        assert_eq!(
            problems.len(),
            1,
            "{}: {problems:#?}",
            entry.path().display()
        );
        assert_eq!(problems[0].rule, "chromium/checksum");
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} files with a checksum");
}

#[test]
fn an_empty_file_is_a_problem() {
    for format in [
        "xbel",
        "desktop",
        "netscape",
        "chromium",
        "firefox",
        "instapaper",
        "pinboard",
    ] {
        let problems = check(b"", markport::format(format).unwrap());
        assert!(
            problems.iter().any(|p| p.severity == Severity::Error),
            "{format}: {problems:?}"
        );
    }
}

/// Every attribute real producers write is known: no HTML file of the
/// shared peer corpus (Netscape 4 to 7, Mozilla, Firefox, Chromium, IE,
/// Safari, iCab, services) raises `netscape/unknown-attribute`.
#[test]
fn the_attributes_of_real_netscape_files_are_known() {
    let peers = root().join("../shared/corpus/peers");
    if !peers.is_dir() {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "CI=true but the shared corpus is missing"
        );
        return;
    }
    let mut todo = vec![peers.join("netscape"), peers.join("browsers")];
    let mut checked = 0;
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
                continue;
            }
            let name = path.to_string_lossy().to_ascii_lowercase();
            if !(name.ends_with(".html") || name.ends_with(".htm")) {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            if markport::detect(&bytes).map(|f| f.name) != Some("netscape") {
                continue;
            }
            checked += 1;
            let problems = check(&bytes, markport::format("netscape").unwrap());
            let unknown: Vec<_> = problems
                .iter()
                .filter(|p| p.rule == "netscape/unknown-attribute")
                .collect();
            assert!(unknown.is_empty(), "{}: {unknown:#?}", path.display());
        }
    }
    assert!(checked >= 20, "only {checked} Netscape files");
}

#[test]
fn a_writer_s_habit_is_one_warning_and_strict_lists_each_element() {
    use markport::Input;
    let of = |file: &str, letter: bool| {
        let bytes = std::fs::read(root().join("corpus/check").join(file)).unwrap();
        let xbel = markport::format("xbel");
        markport_check::check_input_to_the_letter(Input::Bytes(bytes), xbel, None, letter)
            .unwrap()
            .problems
    };
    let rules = |p: &[markport_check::Problem]| {
        p.iter()
            .map(|p| (p.rule, p.severity, p.line))
            .collect::<Vec<_>>()
    };
    let floccus = of("xbel-floccus-ids.xbel", false);
    assert_eq!(
        rules(&floccus),
        [("xbel/floccus-ids", Severity::Warning, 3)],
        "{floccus:#?}"
    );
    assert!(floccus[0]
        .message
        .starts_with("2 ids are numbers, as Floccus writes them"));
    let letter = of("xbel-floccus-ids.xbel", true);
    assert_eq!(
        rules(&letter),
        [
            ("xbel/bad-id", Severity::Error, 3),
            ("xbel/bad-id", Severity::Error, 4)
        ]
    );
    let kde = of("xbel-kde-places.xbel", false);
    assert_eq!(
        rules(&kde),
        [("xbel/kde-places", Severity::Warning, 4)],
        "{kde:#?}"
    );
    assert!(kde[0]
        .message
        .starts_with("1 <separator> with href, <title> and <info>"));
    let letter = of("xbel-kde-places.xbel", true);
    let mut found: Vec<&str> = letter.iter().map(|p| p.rule).collect();
    found.sort();
    assert_eq!(
        found,
        [
            "xbel/misplaced-element",
            "xbel/misplaced-element",
            "xbel/unknown-attribute"
        ]
    );
    // An id that is not a number is no habit: an error without --strict too.
    let bad = of("xbel-bad-id.xbel", false);
    assert_eq!(rules(&bad), [("xbel/bad-id", Severity::Error, 3)]);
}

/// The problems of Netscape `text`, as check finds them (`letter`: `--strict`).
fn netscape_problems(text: &str, letter: bool) -> Vec<(&'static str, u32)> {
    let netscape = markport::format("netscape");
    let input = markport::Input::Bytes(text.as_bytes().to_vec());
    markport_check::check_input_to_the_letter(input, netscape, None, letter)
        .unwrap()
        .problems
        .iter()
        .map(|p| (p.rule, p.line))
        .collect()
}

#[test]
fn safari_s_top_level_items_are_one_warning_and_strict_lists_each() {
    let safari =
        std::fs::read_to_string(root().join("corpus/check/netscape-safari-export.html")).unwrap();
    let found = markport_check::check(safari.as_bytes(), markport::format("netscape").unwrap());
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Warning);
    assert!(
        found[0].message.starts_with(
            "3 items at the top level outside every <DL>, as Safari exports its bookmarks"
        ),
        "{}",
        found[0].message
    );
    assert_eq!(
        netscape_problems(&safari, true),
        [
            ("netscape/item-outside-list", 6),
            ("netscape/item-outside-list", 10),
            ("netscape/item-outside-list", 13)
        ]
    );
    // Without Safari's <HTML> first, the layout is no known writer's.
    let no_html = safari.replacen("\t<HTML>\n", "", 1);
    assert_eq!(
        netscape_problems(&no_html, false),
        [
            ("netscape/item-outside-list", 5),
            ("netscape/item-outside-list", 9),
            ("netscape/item-outside-list", 12)
        ]
    );
    // A file with a list of its own and an item after it is broken, not
    // Safari's: each item, wherever the list stands.
    let own_list = safari.replacen(
        "\t<DT><A HREF=\"https://example.com/\">At the top</A>\n",
        "\t<DL><p>\n\t</DL><p>\n\t<DT><A HREF=\"https://example.com/\">At the top</A>\n",
        1,
    );
    assert_eq!(
        netscape_problems(&own_list, false),
        [
            ("netscape/item-outside-list", 6),
            ("netscape/item-outside-list", 10),
            ("netscape/item-outside-list", 15)
        ]
    );
}

#[test]
fn more_items_outside_than_check_lists_are_counted_at_the_last() {
    // 1,500 items outside every list in a file that is not Safari's:
    // 1,000 listed, the rest counted in one line at the last of them.
    let mut text = String::from("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<H1>B</H1>\n");
    for i in 0..1500 {
        text.push_str(&format!(
            "<DT><A HREF=\"https://example.org/{i}\">{i}</A>\n"
        ));
    }
    let found = netscape_problems(&text, false);
    assert_eq!(found.len(), 1001);
    assert!(found.iter().all(|p| p.0 == "netscape/item-outside-list"));
    assert_eq!(found[1000].1, 1502, "{:?}", &found[995..]);
}

#[test]
fn shaarli_s_links_with_no_list_are_one_warning_and_strict_lists_each() {
    let shaarli =
        std::fs::read_to_string(root().join("corpus/check/netscape-shaarli-export.html")).unwrap();
    let found = markport_check::check(shaarli.as_bytes(), markport::format("netscape").unwrap());
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Warning);
    assert!(
        found[0]
            .message
            .starts_with("3 items with no list at all, as Shaarli's older exports write them"),
        "{}",
        found[0].message
    );
    let each = [
        ("netscape/item-outside-list", 9),
        ("netscape/item-outside-list", 11),
        ("netscape/item-outside-list", 12),
    ];
    assert_eq!(netscape_problems(&shaarli, true), each);
    // A link without PRIVATE is no Shaarli export's: each item.
    let one_plain = shaarli.replacen(" PRIVATE=\"1\"", "", 1);
    assert_eq!(netscape_problems(&one_plain, false), each);
    // Nor is a file with a list of its own.
    let listed = shaarli.replacen(
        "<H1>Bookmarks</H1>\n",
        "<H1>Bookmarks</H1>\n<DL><p>\n</DL><p>\n",
        1,
    );
    let found = netscape_problems(&listed, false);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found.iter().all(|p| p.0 == "netscape/item-outside-list"));
}

/// The Safari exports among the shared peer corpus's files (and Firefox's
/// test of that layout) are one `netscape/safari-export` warning each;
/// Shaarli's legacy export, items with no list at all, is one
/// `netscape/shaarli-export`.
#[test]
fn the_real_safari_exports_are_one_warning_each() {
    let peers = root().join("../shared/corpus/peers/netscape");
    if !peers.is_dir() {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "CI=true but the shared corpus is missing"
        );
        eprintln!("skipped: no shared peer corpus at {}", peers.display());
        return;
    }
    for (file, count) in [
        ("virtualtam-netscape-go/input/safari_folded.htm", 4),
        (
            "shaarli-netscape-bookmark-parser/input/safari_folded.htm",
            4,
        ),
        ("firefox/bookmarks_html_singleframe.html", 1),
    ] {
        let text = std::fs::read_to_string(peers.join(file)).unwrap();
        let found = netscape_problems(&text, false);
        assert_eq!(found, [("netscape/safari-export", found[0].1)], "{file}");
        let strict = netscape_problems(&text, true);
        assert_eq!(strict.len(), count, "{file}: {strict:?}");
        assert!(strict.iter().all(|p| p.0 == "netscape/item-outside-list"));
    }
    let shaarli = std::fs::read_to_string(
        peers.join("shaarli-netscape-bookmark-parser/input/shaarli_legacy.htm"),
    )
    .unwrap();
    assert_eq!(
        netscape_problems(&shaarli, false),
        [("netscape/shaarli-export", 8)]
    );
    let strict = netscape_problems(&shaarli, true);
    assert!(strict.len() > 1, "{strict:?}");
    assert!(strict.iter().all(|p| p.0 == "netscape/item-outside-list"));
}
