//! The loss report is true: for every sample and every registered writer W,
//! reading W's output back differs from the input in exactly the fields W
//! reported lost, each on exactly as many nodes as W reported.

use std::path::PathBuf;

use std::collections::BTreeMap;

use markport::model::Scope;
use markport::model::Timestamp;
use markport::ops::{apply, LinkMatch, Operation};
use markport::{diff, Document, Field, ReadOptions, WriteOptions};
use markport_tests::{corpus_samples, peer_inputs, read_sample, shared};

fn check(files: &[(String, PathBuf)], opts: &WriteOptions) -> Vec<String> {
    let mut failures = Vec::new();
    for (format, path) in files {
        if markport::format(format).is_none() {
            failures.push(format!("{}: no format named {format}", path.display()));
            continue;
        }
        // A directory sample (a favorites tree) is read by its path.
        let doc = match markport_tests::read_parsed(format, path) {
            Ok(r) => r.document,
            Err(e) => {
                failures.push(format!("{}: does not read: {e}", path.display()));
                continue;
            }
        };
        for w in markport::writable() {
            let trip = match markport::roundtrip(&doc, w, opts) {
                Ok(trip) => trip,
                Err(e) => {
                    failures.push(format!("{} -> {}: {e}", path.display(), w.name));
                    continue;
                }
            };
            if !trip.exact() {
                let names = |v: Vec<Field>| v.iter().map(|f| f.name()).collect::<Vec<_>>();
                failures.push(format!(
                    "{} -> {}: lost but not reported {:?}; reported but kept {:?}",
                    path.display(),
                    w.name,
                    names(trip.unreported()),
                    names(trip.reported_but_kept())
                ));
            } else if let Some(drift) = count_drift(w.name, &trip) {
                failures.push(format!("{} -> {}: {drift}", path.display(), w.name));
            }
        }
    }
    failures
}

/// Round trips whose counts cannot agree with `diff`'s, by writer and
/// field, each with its reason. Empty: every writer's count of every field
/// equals the number of nodes `diff` finds differing in it. (A writer that
/// adds roots, as Firefox's and Chromium's do, counts each one added and
/// each item it moves into one; `diff` counts a node moved into a folder
/// only the output has.)
const COUNT_EXCEPTIONS: &[(&str, Field, &str)] = &[];

/// Where the report's count of a field differs from `diff`'s (nodes per
/// field, summed over the report's reasons), unless the writer and field
/// are a named exception.
fn count_drift(writer: &str, trip: &markport::Roundtrip) -> Option<String> {
    // What the writer changed and said so (a Floccus file's new ids)
    // counts as reported, as a loss does.
    let reported = counts(
        trip.loss
            .losses
            .iter()
            .chain(&trip.loss.changes)
            .map(|l| (l.field, l.count)),
    );
    let differs = counts(trip.diff.differences.iter().map(|d| (d.field, d.count)));
    let drift: Vec<String> = reported
        .keys()
        .chain(differs.keys())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .filter(|f| reported.get(f) != differs.get(f))
        .filter(|f| {
            !COUNT_EXCEPTIONS
                .iter()
                .any(|(w, x, _)| *w == writer && x == *f)
        })
        .map(|f| {
            format!(
                "{f} reported on {} nodes, differs on {}",
                reported.get(f).unwrap_or(&0),
                differs.get(f).unwrap_or(&0)
            )
        })
        .collect();
    (!drift.is_empty()).then(|| drift.join("; "))
}

fn all_inputs() -> Vec<(String, PathBuf)> {
    let mut files = corpus_samples();
    assert!(!files.is_empty(), "corpus/ has samples");
    if let Some(shared) = shared() {
        let peers = peer_inputs(&shared);
        assert!(!peers.is_empty(), "the peer corpus lists inputs");
        files.extend(peers);
    }
    files
}

#[test]
fn every_writer_reports_exactly_what_it_loses() {
    let failures = check(&all_inputs(), &WriteOptions::default());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_report_is_true_with_every_writer_option_set() {
    let mut opts = WriteOptions::default();
    opts.xbel.strict = true;
    opts.xfolk.include_private = true;
    opts.xfolk.allow_script_urls = true;
    opts.xfolk.allow_browser_urls = true;
    opts.desktop.app_name = Some("conformance".into());
    opts.desktop.app_exec = Some("conformance %u".into());
    opts.xfolk.tag_base = Some("https://tags.example/t/".into());
    opts.firefox.compress = true;
    let failures = check(&all_inputs(), &opts);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn same_format_round_trips_of_xbel_and_json_lose_nothing_xml_can_hold() {
    for (format, path) in all_inputs() {
        let doc = read_sample(&format, &path);
        for name in ["xbel", "json"] {
            let w = markport::format(name).unwrap();
            let trip = markport::roundtrip(&doc, w, &WriteOptions::default()).unwrap();
            let (loss, d) = (&trip.loss, &trip.diff);
            // The one thing XBEL cannot hold is text XML 1.0 forbids (a bell
            // in a GLib title): reported, and nothing else may go.
            let unwritable = |l: &markport::model::ReportEntry| {
                name == "xbel"
                    && l.reason
                        .starts_with("XML 1.0 cannot carry control characters")
            };
            assert!(
                loss.losses.iter().all(unwritable) && d.fields() == loss.fields(),
                "{} via {name}: {:?} {:?}",
                path.display(),
                loss,
                d
            );
        }
    }
}

#[test]
fn netscape_files_round_trip_through_netscape_losing_only_sub_second_dates() {
    let dates = [
        Field::DocumentAdded,
        Field::DocumentModified,
        Field::BookmarkAdded,
        Field::BookmarkModified,
        Field::BookmarkVisited,
        Field::FolderAdded,
        Field::FolderModified,
    ];
    // Milliseconds written as seconds keep the instant, not the precision.
    let dates: Vec<Field> = dates
        .iter()
        .flat_map(|d| [*d, d.form().expect("a date field")])
        .collect();
    let netscape = markport::format("netscape").unwrap();
    let mut checked = 0;
    for (format, path) in all_inputs() {
        if format != "netscape" {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let doc = markport::read_bytes(&bytes, netscape, &ReadOptions::default())
            .unwrap()
            .document;
        let (out, loss) = markport::write_to_vec(&doc, netscape, &WriteOptions::default()).unwrap();
        let back = markport::read_bytes(&out, netscape, &ReadOptions::default())
            .unwrap()
            .document;
        // Titles with line breaks read back too: each break is written as
        // a character reference on its element's line.
        let lost: Vec<Field> = diff(&doc, &back).fields().into_iter().collect();
        // Only Google's microsecond dates lose anything: dates are written in seconds.
        let own_sample = path.starts_with(markport_tests::root().join("corpus"));
        assert!(
            (lost.is_empty() || !own_sample) && lost.iter().all(|f| dates.contains(f)),
            "{}: {lost:?} ({loss:?})",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 11, "only {checked} Netscape files");
}

/// GLib's probe files (titles with entities and control characters, odd
/// applications, ...): every one markport reads as desktop bookmarks goes
/// through every writer with exactly the reported loss. (The ones it rejects
/// are checked for a located error in `desktop_glib.rs`.)
#[test]
fn glib_probes_go_through_every_writer_with_exactly_the_reported_loss() {
    let Some(shared) = shared() else { return };
    let desktop = markport::format("desktop").unwrap();
    let files: Vec<(String, PathBuf)> =
        markport_tests::walk(&shared.join("corpus/peers/desktop/glib-probes"))
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "xbel"))
            .filter(|f| {
                let bytes = std::fs::read(f).unwrap();
                markport::read_bytes(&bytes, desktop, &ReadOptions::default()).is_ok()
            })
            .map(|f| ("desktop".to_string(), f))
            .collect();
    assert!(files.len() >= 80, "{} probes read", files.len());
    let failures = check(&files, &WriteOptions::default());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Dropped folders and separators count one by one, in the diff as in the
/// report: a writer that leaves out 29 folders differs on 29 nodes.
#[test]
fn dropped_folders_and_separators_count_as_many_in_diff_as_in_the_report() {
    let mut checked = 0;
    for (format, path) in all_inputs() {
        let doc = read_sample(&format, &path);
        for name in ["desktop", "xfolk"] {
            let w = markport::format(name).unwrap();
            let trip = markport::roundtrip(&doc, w, &WriteOptions::default()).unwrap();
            let (loss, d) = (&trip.loss, &trip.diff);
            for field in [Field::Folder, Field::Separator] {
                let reported: usize = loss
                    .losses
                    .iter()
                    .filter(|l| l.field == field)
                    .map(|l| l.count)
                    .sum();
                let differs = d
                    .differences
                    .iter()
                    .find(|x| x.field == field)
                    .map_or(0, |x| x.count);
                assert_eq!(differs, reported, "{} via {name}: {field}", path.display());
                checked += usize::from(reported > 1);
            }
        }
    }
    assert!(
        checked > 0,
        "some sample loses several folders or separators"
    );
}

/// XBEL's `1997` or `1997-07-16T19:20+01:00` through Netscape (seconds, UTC)
/// or desktop bookmarks keeps the instant but not how it was written: the
/// report and the diff both say so, on the same nodes.
#[test]
fn a_date_written_at_another_precision_or_offset_is_reported_and_diffed() {
    let path = markport_tests::root().join("corpus/xbel/dates.xbel");
    let bytes = std::fs::read(path).unwrap();
    let xbel = markport::format("xbel").unwrap();
    let doc = markport::read_bytes(&bytes, xbel, &ReadOptions::default())
        .unwrap()
        .document;
    for name in ["netscape", "desktop"] {
        let w = markport::format(name).unwrap();
        let (out, loss) = markport::write_to_vec(&doc, w, &WriteOptions::default()).unwrap();
        let back = markport::read_bytes(&out, w, &ReadOptions::default())
            .unwrap()
            .document;
        let d = diff(&doc, &back);
        let reported = loss
            .losses
            .iter()
            .find(|l| l.field == Field::BookmarkAddedForm)
            .unwrap_or_else(|| panic!("{name} reports bookmark.added.form: {loss:?}"));
        assert!(reported.reason.contains("same instant"), "{reported:?}");
        assert!(reported.paths.contains(&"Year".to_string()), "{reported:?}");
        let differs = d
            .differences
            .iter()
            .find(|x| x.field == Field::BookmarkAddedForm)
            .unwrap_or_else(|| panic!("{name}: diff sees the form: {d:?}"));
        assert_eq!(differs.count, reported.count, "{name}");
    }
}

/// The operations the variant below applies: each alone, then a
/// combination whose steps change different things (so that their changes
/// add up to the difference from the original).
fn operation_sets() -> Vec<Vec<Operation>> {
    let since = Timestamp::parse_w3c("2015").expect("a date");
    let mut sets: Vec<Vec<Operation>> = [
        Operation::Dedupe,
        Operation::FoldersAsTags,
        Operation::Flatten,
        Operation::TagsAsFolders(false),
        Operation::TagsAsFolders(true),
        Operation::PublicOnly,
        Operation::AddedBetween(Some(since), None),
        Operation::DedupeKeepingEmpty,
        Operation::TagStyle(markport::ops::TagStyle::LowerHyphen),
        Operation::DropExtra,
    ]
    .into_iter()
    .map(|op| vec![op])
    .collect();
    sets.push(vec![
        Operation::PublicOnly,
        Operation::Dedupe,
        Operation::Flatten,
    ]);
    sets
}

/// Per field, on how many nodes: the shape both a diff and a list of
/// recorded changes reduce to.
fn counts<'a>(entries: impl Iterator<Item = (Field, usize)> + 'a) -> BTreeMap<Field, usize> {
    let mut m = BTreeMap::new();
    for (f, n) in entries {
        *m.entry(f).or_default() += n;
    }
    m
}

/// Requested changes are recorded truthfully, and the writers' reports stay
/// exact on the changed documents: for every sample and set of operations,
/// the difference between the original and the operated document is
/// exactly the recorded changes (fields and counts), and every writer's
/// report is exact against the operated document.
#[test]
fn with_operations_the_changes_and_every_report_are_exact() {
    check_operation_sets(&operation_sets(), 50);
}

/// `--dedupe=normal` and `--dedupe=loose` alone, keeping the folders they
/// empty, and among other steps (bare `--dedupe` is in [`operation_sets`]).
fn dedupe_level_sets() -> Vec<Vec<Operation>> {
    let by = |by, keep_empty| Operation::DedupeBy { by, keep_empty };
    vec![
        vec![by(LinkMatch::Normal, false)],
        vec![by(LinkMatch::Loose, false)],
        vec![by(LinkMatch::Loose, true)],
        vec![
            Operation::PublicOnly,
            by(LinkMatch::Loose, false),
            Operation::Flatten,
        ],
    ]
}

/// [`with_operations_the_changes_and_every_report_are_exact`] for the
/// levels of `--dedupe`: what a looser key removes is what the diff (which
/// pairs by the exact key) finds, and every writer's report stays exact.
#[test]
fn with_dedupe_levels_the_changes_and_every_report_are_exact() {
    check_operation_sets(&dedupe_level_sets(), MIN_DEDUPE_LEVEL_CHANGED);
}

/// How many (sample, set) pairs of [`dedupe_level_sets`] change something
/// at least: 211 of the corpus and peer samples do (the set with
/// --flatten changes every sample that has a folder).
const MIN_DEDUPE_LEVEL_CHANGED: usize = 100;

/// Apply each of `sets` to every sample and hold the changes recorded to
/// the diff and every writer's report to its round trip; more than
/// `min_changed` (sample, set) pairs must change something.
fn check_operation_sets(sets: &[Vec<Operation>], min_changed: usize) {
    let mut failures = Vec::new();
    let mut changed = 0;
    let samples = corpus_samples().len();
    for (n, (format, path)) in all_inputs().into_iter().enumerate() {
        // A directory writer (favorites) writes a real tree for each round
        // trip: held on the corpus samples with every set of operations, and
        // on the peer files only with --tags-as-folders=all (one tree per
        // file; with every set it would be some 1,500 trees, most of the
        // Pocket ones taking seconds each). That set puts copies of one
        // link into folders whose names can clash once made safe (`a/b`,
        // `a_b`): the case where a renamed folder taking another's name made
        // the two pair crosswise.
        let original: Document = read_sample(&format, &path);
        for ops in sets {
            let trees = n < samples || ops.contains(&Operation::TagsAsFolders(true));
            let flags: Vec<&str> = ops.iter().map(Operation::flag).collect();
            let mut doc = original.clone();
            let report = match apply(&mut doc, ops) {
                Ok(r) => r,
                Err(e) => {
                    failures.push(format!("{} {flags:?}: {e}", path.display()));
                    continue;
                }
            };
            changed += usize::from(report.has_changes());
            let recorded = counts(report.changes.iter().map(|c| (c.field, c.count)));
            let differs = counts(
                diff(&original, &doc)
                    .differences
                    .iter()
                    .map(|d| (d.field, d.count)),
            );
            if recorded != differs {
                failures.push(format!(
                    "{} {flags:?}: recorded {recorded:?}, differs {differs:?}",
                    path.display()
                ));
            }
            for w in markport::writable().filter(|w| trees || w.directory().is_none()) {
                match markport::roundtrip(&doc, w, &WriteOptions::default()) {
                    Ok(trip) if trip.exact() => {
                        if let Some(drift) = count_drift(w.name, &trip) {
                            failures.push(format!(
                                "{} {flags:?} -> {}: {drift}",
                                path.display(),
                                w.name
                            ));
                        }
                    }
                    Ok(trip) => failures.push(format!(
                        "{} {flags:?} -> {}: lost but not reported {:?}; reported but kept {:?}",
                        path.display(),
                        w.name,
                        trip.unreported(),
                        trip.reported_but_kept()
                    )),
                    Err(e) => {
                        failures.push(format!("{} {flags:?} -> {}: {e}", path.display(), w.name))
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        changed > min_changed,
        "only {changed} operated samples changed anything"
    );
}

/// A loss is counted per node, not per value (`LossReport::record` is
/// called once per node and reason): no entry of any writer's report counts
/// more nodes than hold the field, however many extra attributes, tags or
/// annotations one node has.
#[test]
fn every_loss_is_counted_once_per_node() {
    let mut failures = Vec::new();
    for (format, path) in all_inputs() {
        let doc = read_sample(&format, &path);
        let census = doc.census();
        for w in markport::writable() {
            // A tree (favorites) is written and read back to get its report.
            let report = match w.directory() {
                Some(_) => markport::roundtrip(&doc, w, &WriteOptions::default()).map(|t| t.loss),
                None => markport::write_to_vec(&doc, w, &WriteOptions::default()).map(|(_, l)| l),
            };
            let Ok(report) = report else {
                continue;
            };
            for l in report.losses.iter().chain(&report.destination) {
                // A field a writer gives (a guid made) may be lost on a
                // node that did not hold it: the bound is the nodes of the
                // field's kind (of any kind for placement).
                let nodes = match (l.field, l.field.scope()) {
                    (Field::Folder, _) => {
                        census.folders + census.bookmarks + census.separators + census.aliases
                    }
                    (_, Scope::Bookmark) => census.bookmarks,
                    (_, Scope::Folder) => census.folders,
                    (_, Scope::Separator) => census.separators,
                    (_, Scope::Alias) => census.aliases,
                    _ => 1,
                };
                if l.count > nodes.max(1) {
                    failures.push(format!(
                        "{} -> {}: {} on {} nodes, but there are {nodes} ({})",
                        path.display(),
                        w.name,
                        l.field,
                        l.count,
                        l.reason
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Pinboard's posts carry several keys markport keeps as extra attributes
/// (`hash`, `meta`, ...); the Netscape writer upper-cases each, and reports
/// it once per bookmark, not once per key.
#[test]
fn a_bookmark_with_several_extras_counts_once() {
    let path = markport_tests::root().join("corpus/pinboard/pinboard.json");
    let doc = read_sample("pinboard", &path);
    let lowercase = |b: &markport::Bookmark| {
        b.details()
            .extra
            .iter()
            .filter(|a| a.name != a.name.to_ascii_uppercase())
            .count()
    };
    let bookmarks: Vec<usize> = doc
        .ids()
        .filter_map(|id| doc.node(id).as_bookmark().map(lowercase))
        .filter(|&n| n > 0)
        .collect();
    assert!(
        bookmarks.iter().any(|&n| n > 1),
        "the sample has bookmarks with several extras: {bookmarks:?}"
    );
    let netscape = markport::format("netscape").unwrap();
    let (_, report) = markport::write_to_vec(&doc, netscape, &WriteOptions::default()).unwrap();
    let cased = report
        .losses
        .iter()
        .find(|l| l.field == Field::BookmarkExtra && l.reason.contains("upper-case"))
        .expect("the upper-casing is reported");
    assert_eq!(cased.count, bookmarks.len());
}
