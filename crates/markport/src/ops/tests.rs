//! The operations on small documents built for each case, and on deep ones.

use super::*;
use markport_model::{Alias, Bookmark, Field, Folder, Node, Role, Separator};

fn tagged(href: &str, tags: &[&str]) -> Bookmark {
    let mut b = Bookmark::new(href);
    b.tags = tags.iter().map(|t| t.to_string()).collect();
    b
}

fn paths(doc: &Document) -> Vec<String> {
    doc.preorder().map(|id| doc.path(id)).collect()
}

#[test]
fn role_and_untitled_folders_give_no_tag_and_tags_are_not_repeated() {
    let mut doc = Document::new();
    let mut toolbar = Folder::titled("Bookmarks Toolbar");
    toolbar.role = Some(Role::Toolbar);
    let t = doc.push(None, toolbar);
    let dev = doc.push(Some(t), Folder::titled("Dev"));
    let untitled = doc.push(Some(dev), Folder::new());
    let id = doc.push(Some(untitled), tagged("https://a.example/", &["dev", "x"]));
    let top = doc.push(None, Bookmark::new("https://top.example/"));
    assert_eq!(folders_as_tags(&mut doc), 0);
    assert_eq!(doc.node(id).as_bookmark().unwrap().tags, ["dev", "x"]);
    assert!(doc.node(top).as_bookmark().unwrap().tags.is_empty());
    assert_eq!(doc.census().folders, 3, "the folders stay");
}

#[test]
fn flatten_resolves_aliases_of_bookmarks_and_drops_the_others() {
    let mut doc = Document::new();
    let f = doc.push(None, Folder::titled("F"));
    let mut b = Bookmark::new("https://a.example/").with_title("A");
    b.details_mut().id = Some("b1".into());
    doc.push(Some(f), Alias::new("b1"));
    doc.push(Some(f), b);
    doc.push(None, Separator::new());
    doc.push(None, Alias::new("nothing"));
    let done = flatten(&mut doc);
    assert_eq!(
        (
            done.folders,
            done.separators,
            done.aliases_resolved,
            done.aliases_removed
        ),
        (1, 1, 1, 1)
    );
    assert_eq!(paths(&doc), ["A", "A"]);
    let ids: Vec<_> = doc
        .children(None)
        .iter()
        .map(|&c| doc.node(c).id())
        .collect();
    assert_eq!(ids, [None, Some("b1")], "the copy does not take the id");
}

#[test]
fn tags_as_folders_files_by_first_tag_and_orders_folders_by_tag() {
    let mut doc = Document::new();
    let old = doc.push(None, Folder::titled("Old"));
    doc.push(Some(old), tagged("https://1.example/", &["web", "Rust"]));
    doc.push(None, tagged("https://2.example/", &["rust"]));
    doc.push(None, Bookmark::new("https://3.example/"));
    doc.push(None, tagged("https://4.example/", &["Apple", "web", "WEB"]));
    let mut first = doc.clone();
    let made = tags_as_folders(&mut first, false);
    assert_eq!(
        (made.folders, made.copies, made.flattened.folders),
        (3, 0, 1)
    );
    assert_eq!(
        paths(&first),
        [
            "Apple",
            "Apple/https://4.example/",
            "rust",
            "rust/https://2.example/",
            "web",
            "web/https://1.example/",
            "https://3.example/"
        ]
    );
    let made = tags_as_folders(&mut doc, true);
    assert_eq!(made.copies, 2, "one per other tag, cases counted once");
    assert_eq!(doc.census().bookmarks, 6);
    let rust = doc.children(None)[1];
    assert_eq!(doc.children(Some(rust)).len(), 2);
}

#[test]
fn selections_remove_bookmarks_and_say_how_many() {
    let mut doc = Document::new();
    let f = doc.push(None, Folder::titled("F"));
    let mut private = tagged("https://p.example/", &["a"]);
    private.private = Some(true);
    doc.push(Some(f), private);
    doc.push(Some(f), tagged("https://q.example/", &["b"]));
    let mut copy = doc.clone();
    assert_eq!(public_only(&mut copy), 1);
    assert_eq!(paths(&copy), ["F", "F/https://q.example/"]);
    assert_eq!(only_tags(&mut doc, &["A".into()]).unwrap(), 1);
    assert_eq!(paths(&doc), ["F", "F/https://p.example/"]);
    let before = doc.clone();
    let err = only_folder(&mut doc, "G").unwrap_err();
    assert!(
        err.message
            .contains("no folder \"G\" at the top level (folders there: F)"),
        "{}",
        err.message
    );
    assert_eq!(doc, before, "nothing changes on a refusal");
}

#[test]
fn apply_records_each_step_with_its_flag_and_nothing_as_a_loss() {
    let mut doc = Document::new();
    let f = doc.push(None, Folder::titled("Dev"));
    doc.push(Some(f), tagged("https://a.example/", &["x"]));
    doc.push(Some(f), Separator::new());
    doc.push(None, tagged("https://A.example", &["y"]));
    let report = apply(
        &mut doc,
        &[
            Operation::Dedupe,
            Operation::FoldersAsTags,
            Operation::Flatten,
        ],
    )
    .unwrap();
    assert!(report.is_empty());
    let lines: Vec<String> = report
        .changes
        .iter()
        .map(|c| format!("{} {} {}", c.reason, c.field, c.count))
        .collect();
    assert_eq!(
        lines,
        [
            "removed by --dedupe bookmark 1",
            "merged by --dedupe bookmark.tags 1",
            "added by --folders-as-tags bookmark.tags 1",
            "removed by --flatten folder 1",
            "removed by --flatten separator 1",
        ]
    );
    let Node::Bookmark(b) = doc.node(doc.children(None)[0]) else {
        panic!("a bookmark")
    };
    assert_eq!(b.tags, ["x", "y", "Dev"]);
}

/// 100,000 folders, each holding a bookmark and the next folder.
fn deep() -> Document {
    let mut doc = Document::new();
    let mut parent = None;
    for i in 0..100_000 {
        parent = Some(doc.push(parent, Folder::titled(format!("f{}", i % 3))));
        doc.push(
            parent,
            Bookmark::new(format!("https://{}.example/", i % 1000)),
        );
    }
    doc
}

#[test]
fn a_hundred_thousand_levels_flatten_dedupe_select_and_become_tags() {
    let mut doc = deep();
    assert_eq!(folders_as_tags(&mut doc), 100_000);
    let last = doc.preorder().last().unwrap();
    assert_eq!(
        doc.node(last).as_bookmark().unwrap().tags,
        ["f0", "f1", "f2"]
    );
    let mut flat = doc.clone();
    assert_eq!(flatten(&mut flat).folders, 100_000);
    assert_eq!((flat.len(), flat.max_depth()), (100_000, 0));
    assert_eq!(dedupe(&mut doc), 99_000);
    // f0, f1, f2 and the bookmarks of f0 and f1.
    assert_eq!(only_folder(&mut doc, "f0/f1/f2").unwrap(), 5);
    let mut deep = deep();
    assert_eq!(tags_as_folders(&mut deep, true).folders, 0);
    assert_eq!(deep.len(), 100_000);
}

#[test]
fn merge_joins_folders_by_role_and_path_and_links_across_and_within_inputs() {
    let mut a = Document::new();
    a.header.title = Some("First".into());
    let dev = a.push(None, Folder::titled("Dev"));
    a.push(
        Some(dev),
        tagged("https://a.example/", &["x"]).with_title("A"),
    );
    a.push(
        Some(dev),
        tagged("https://a.example", &["y"]).with_title("A again"),
    );
    let mut b = Document::new();
    b.header.title = Some("Second".into());
    let dev = b.push(None, Folder::titled("Dev"));
    let inner = b.push(Some(dev), Folder::titled("Inner"));
    b.push(Some(inner), Bookmark::new("https://b.example/"));
    b.push(
        Some(dev),
        tagged("HTTPS://A.EXAMPLE/", &["z"]).with_title("Other title"),
    );
    b.push(None, Folder::titled("dev"));
    let (doc, report) = merge(vec![a.clone(), b.clone()], false).unwrap();
    assert_eq!(doc.header.title.as_deref(), Some("First"));
    assert_eq!(
        paths(&doc),
        [
            "Dev",
            "Dev/A",
            "Dev/Inner",
            "Dev/Inner/https://b.example/",
            "dev"
        ]
    );
    let first = doc.node(doc.children(Some(doc.children(None)[0]))[0]);
    assert_eq!(first.as_bookmark().unwrap().tags, ["x", "y", "z"]);
    assert_eq!(
        (report[0].bookmarks, report[0].added, report[0].merged),
        (2, 1, 1)
    );
    assert_eq!(
        (report[1].bookmarks, report[1].added, report[1].merged),
        (2, 1, 1)
    );
    assert_eq!(
        report[1].conflicts.iter().collect::<Vec<_>>(),
        [(&Field::BookmarkTitle, &1)]
    );
    let (all, report) = merge(vec![a, b], true).unwrap();
    assert_eq!(all.census().bookmarks, 4);
    assert_eq!(report[1].merged, 0);
    assert!(merge(vec![Document::new()], false).is_err());
}

#[test]
fn merging_two_documents_a_hundred_thousand_levels_deep_does_not_recurse() {
    let (doc, report) = merge_keeping(vec![deep(), deep()], false, true).unwrap();
    assert_eq!(doc.max_depth(), 100_000, "the same paths are one chain");
    assert_eq!(doc.census().bookmarks, 1_000);
    assert_eq!(report[1].merged, 100_000);
    // Below level 1,000 every folder held only links met higher up: merged
    // away, the chain under the last bookmark is left empty and goes.
    let (pruned, report) = merge(vec![deep(), deep()], false).unwrap();
    assert_eq!(pruned.max_depth(), 1_000);
    assert_eq!(pruned.census().bookmarks, 1_000);
    let emptied: usize = report
        .iter()
        .flat_map(|r| &r.report.changes)
        .filter(|c| c.field == Field::Folder)
        .map(|c| c.count)
        .sum();
    assert_eq!(emptied, 99_000);
}

#[test]
fn an_alias_of_a_removed_duplicate_shows_the_survivor() {
    let mut doc = Document::new();
    doc.push(None, Bookmark::new("https://a.example/"));
    let mut dup = Bookmark::new("https://a.example/");
    dup.details_mut().id = Some("d".into());
    doc.push(None, dup);
    let mut other = Bookmark::new("https://b.example/");
    other.details_mut().id = Some("b".into());
    doc.push(None, other);
    let mut dup_b = Bookmark::new("https://b.example/");
    dup_b.details_mut().id = Some("b2".into());
    doc.push(None, dup_b);
    doc.push(None, Alias::new("d"));
    doc.push(None, Alias::new("b2"));
    assert_eq!(dedupe(&mut doc), 2);
    let ids: Vec<Option<&str>> = doc
        .children(None)
        .iter()
        .map(|&c| doc.node(c).id())
        .collect();
    assert_eq!(ids, [Some("d"), Some("b"), None, None]);
    let targets: Vec<&str> = doc
        .children(None)
        .iter()
        .filter_map(|&c| match doc.node(c) {
            Node::Alias(a) => Some(a.target.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(targets, ["d", "b"]);
}

fn folder(title: &str, desc: Option<&str>, id: &str, guid: &str, added: i64) -> Folder {
    let mut f = Folder::titled(title);
    f.desc = desc.map(str::to_owned);
    f.id = Some(id.into());
    f.guid = Some(guid.into());
    f.added = Some(
        markport_model::Timestamp::from_unix(added, 0)
            .unwrap()
            .into(),
    );
    f.modified = Some(
        markport_model::Timestamp::from_unix(added + 10, 0)
            .unwrap()
            .into(),
    );
    f
}

fn entries(list: &[markport_model::ReportEntry]) -> Vec<(Field, usize, Vec<String>)> {
    list.iter()
        .map(|l| (l.field, l.count, l.paths.clone()))
        .collect()
}

#[test]
fn merge_keeps_what_a_joined_folder_can_keep_and_reports_the_rest() {
    let mut a = Document::new();
    a.push(None, folder("Dev", Some("Work"), "f1", "g1", 200));
    let mut b = Document::new();
    b.push(None, folder("Dev", Some("Play"), "f2", "g2", 100));
    let mut c = Document::new();
    // The same description again, and none at all, add nothing.
    c.push(None, folder("Dev", Some("Work"), "f1", "g1", 300));
    c.push(None, Folder::titled("Dev"));
    let (doc, report) = merge(vec![a, b, c], false).unwrap();
    assert_eq!(doc.len(), 1);
    let Node::Folder(dev) = doc.node(doc.children(None)[0]) else {
        panic!("a folder")
    };
    assert_eq!(dev.desc.as_deref(), Some("Work\n\nPlay"));
    assert_eq!(
        (dev.id.as_deref(), dev.guid.as_deref()),
        (Some("f1"), Some("g1"))
    );
    let at = |s| Some(markport_model::Timestamp::from_unix(s, 0).unwrap().into());
    assert_eq!(dev.added, at(100), "the earliest added date");
    assert_eq!(dev.modified, at(310), "the latest modified date");
    // The second input's id and guid could not be kept: losses, with the path.
    assert!(report[0].report.is_empty());
    assert_eq!(
        entries(&report[1].report.losses),
        [
            (Field::FolderId, 1, vec!["Dev".to_owned()]),
            (Field::FolderGuid, 1, vec!["Dev".to_owned()])
        ]
    );
    assert!(!report[1].report.has_changes());
    // The third input's id and guid are the kept ones: nothing lost; its
    // second "Dev" joins its first within the one input, which is a change.
    assert!(report[2].report.is_empty(), "{:?}", report[2].report);
    assert_eq!(
        entries(&report[2].report.changes),
        [(Field::Folder, 1, vec!["Dev".to_owned()])]
    );
}

#[test]
fn merge_takes_a_later_folders_data_when_the_earlier_has_none() {
    let mut a = Document::new();
    let mut toolbar = Folder::titled("Bookmarks Toolbar");
    toolbar.role = Some(Role::Toolbar);
    a.push(None, toolbar);
    let mut b = Document::new();
    let mut bar = folder("Bookmarks bar", Some("Chrome's"), "1", "g", 100);
    bar.role = Some(Role::Toolbar);
    b.push(None, bar);
    let (doc, report) = merge(vec![a, b], false).unwrap();
    let Node::Folder(t) = doc.node(doc.children(None)[0]) else {
        panic!("a folder")
    };
    assert_eq!(t.title.as_deref(), Some("Bookmarks Toolbar"));
    assert_eq!((t.id.as_deref(), t.guid.as_deref()), (Some("1"), Some("g")));
    assert_eq!(t.desc.as_deref(), Some("Chrome's"));
    assert!(t.added.is_some() && t.modified.is_some());
    // Only the later title could not be kept.
    assert_eq!(
        entries(&report[1].report.losses),
        [(Field::FolderTitle, 1, vec!["Bookmarks Toolbar".to_owned()])]
    );
}

#[test]
fn a_copy_in_a_tag_folder_carries_that_tag_only_so_the_output_grows_with_the_tags() {
    let mut doc = Document::new();
    let tags: Vec<String> = (0..50).map(|i| format!("t{i:02}")).collect();
    let mut b = Bookmark::new("https://a.example/");
    b.tags = tags.clone();
    doc.push(None, b);
    let made = tags_as_folders(&mut doc, true);
    assert_eq!((made.folders, made.copies), (50, 49));
    let mut carried = 0;
    for &folder in doc.children(None) {
        let title = doc.node(folder).title().unwrap().to_owned();
        for &c in doc.children(Some(folder)) {
            let b = doc.node(c).as_bookmark().unwrap();
            carried += b.tags.len();
            if title == "t00" {
                assert_eq!(b.tags, tags, "the original keeps its tags");
            } else {
                assert_eq!(
                    b.tags,
                    std::slice::from_ref(&title),
                    "a copy has its folder's tag"
                );
            }
        }
    }
    assert_eq!(
        carried,
        50 + 49,
        "tags in the output: proportional to the input's"
    );
}

/// Pairs of links each level merges, by the rule that makes them one: the
/// level named merges the pair, the levels before it do not.
const LEVEL_RULES: &[(LinkMatch, &str, &str, &str)] = &[
    (
        LinkMatch::Exact,
        "scheme and host case",
        "HTTPS://Example.ORG/a",
        "https://example.org/a",
    ),
    (
        LinkMatch::Exact,
        "default port",
        "https://example.org:443/a",
        "https://example.org/a",
    ),
    (
        LinkMatch::Exact,
        "empty path",
        "https://example.org",
        "https://example.org/",
    ),
    (
        LinkMatch::Exact,
        "percent-encoding case",
        "https://example.org/%7euser",
        "https://example.org/%7Euser",
    ),
    (
        LinkMatch::Normal,
        "trailing slash",
        "https://example.org/b/",
        "https://example.org/b",
    ),
    (
        LinkMatch::Normal,
        "trailing slash before a query",
        "https://example.org/b/?q=1",
        "https://example.org/b?q=1",
    ),
    (
        LinkMatch::Normal,
        "trailing slash, other spellings too",
        "HTTPS://EXAMPLE.org:443/%7eb/",
        "https://example.org/%7Eb",
    ),
    (
        LinkMatch::Loose,
        "http is https",
        "http://example.org/b",
        "https://example.org/b",
    ),
    (
        LinkMatch::Loose,
        "Pocket's utm_source",
        "https://example.org/b?utm_source=pocket_mylist",
        "https://example.org/b",
    ),
    (
        LinkMatch::Loose,
        "Pocket's newer utm_source",
        "https://example.org/b?utm_source=pocket_saves",
        "https://example.org/b",
    ),
    (
        LinkMatch::Loose,
        "utm_* among other parameters",
        "https://example.org/b?id=7&utm_medium=email&UTM_Campaign=x",
        "https://example.org/b?id=7",
    ),
    (
        LinkMatch::Loose,
        "fbclid",
        "https://example.org/b?fbclid=IwAR0abc",
        "https://example.org/b",
    ),
    (
        LinkMatch::Loose,
        "gclid",
        "https://example.org/b?gclid=Cj0K",
        "https://example.org/b",
    ),
    (
        LinkMatch::Loose,
        "mc_cid and mc_eid",
        "https://example.org/b?mc_cid=1&mc_eid=2",
        "https://example.org/b",
    ),
    (
        LinkMatch::Loose,
        "fragment",
        "https://example.org/b#section",
        "https://example.org/b",
    ),
    (
        LinkMatch::Loose,
        "all at once",
        "http://Example.org/b/?utm_source=pocket_mylist#top",
        "https://example.org/b",
    ),
];

/// Pairs no level merges: they may be different pages.
const NEVER: &[(&str, &str, &str)] = &[
    (
        "another parameter",
        "https://example.org/b?id=7",
        "https://example.org/b?id=8",
    ),
    (
        "a parameter that is not tracking",
        "https://example.org/b?ref=1",
        "https://example.org/b",
    ),
    (
        "path case",
        "https://example.org/A",
        "https://example.org/a",
    ),
    (
        "another port",
        "https://example.org:8443/",
        "https://example.org/",
    ),
    (
        "another host",
        "https://www.example.org/",
        "https://example.org/",
    ),
    (
        "a one-page app's route",
        "https://app.example/#/inbox",
        "https://app.example/#/settings",
    ),
    (
        "a hash-bang route",
        "https://app.example/#!/inbox",
        "https://app.example/",
    ),
    (
        "an opaque path's slash",
        "mailto:a@example.org/",
        "mailto:a@example.org",
    ),
    (
        "not links, compared as written",
        "Not a link/",
        "not a link",
    ),
];

fn removed(by: LinkMatch, a: &str, b: &str) -> usize {
    let mut doc = Document::new();
    doc.push(None, Bookmark::new(a));
    doc.push(None, Bookmark::new(b));
    dedupe_by(&mut doc, by, false)
}

#[test]
fn each_level_merges_its_rules_and_the_levels_before_it_do_not() {
    let levels = [LinkMatch::Exact, LinkMatch::Normal, LinkMatch::Loose];
    for &(level, rule, a, b) in LEVEL_RULES {
        for by in levels {
            let want = usize::from(by as u8 >= level as u8);
            assert_eq!(removed(by, a, b), want, "{rule} at {}: {a} {b}", by.name());
            assert_eq!(removed(by, b, a), want, "{rule} at {}: {b} {a}", by.name());
        }
    }
    for &(rule, a, b) in NEVER {
        for by in levels {
            assert_eq!(removed(by, a, b), 0, "{rule} at {}: {a} {b}", by.name());
        }
    }
}

#[test]
fn a_loose_duplicate_gives_the_first_its_tags_description_and_dates_and_is_reported() {
    let at = |s| Some(markport_model::Timestamp::from_unix(s, 0).unwrap().into());
    let mut doc = Document::new();
    let mut first = tagged("https://example.org/post", &["read"]).with_title("Post");
    first.added = at(2_000);
    doc.push(None, first);
    let pocket = doc.push(None, Folder::titled("Pocket"));
    let mut later = tagged(
        "http://example.org/post/?utm_source=pocket_mylist#comments",
        &["pocket", "Read"],
    );
    later.added = at(1_000);
    later.modified = at(3_000);
    later.desc = Some("a highlight".into());
    doc.push(Some(pocket), later);
    let ops = [Operation::DedupeBy {
        by: LinkMatch::Loose,
        keep_empty: false,
    }];
    let report = apply(&mut doc, &ops).unwrap();
    assert_eq!(
        paths(&doc),
        ["Post"],
        "the duplicate and the folder it emptied go"
    );
    let b = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
    assert_eq!(
        b.href, "https://example.org/post",
        "the first keeps its href as written"
    );
    assert_eq!(b.tags, ["read", "pocket"]);
    assert_eq!(b.desc.as_deref(), Some("a highlight"));
    assert_eq!((&b.added, &b.modified), (&at(1_000), &at(3_000)));
    let got: Vec<_> = report
        .changes
        .iter()
        .map(|c| (c.field, c.count, c.reason.as_str()))
        .collect();
    assert!(
        got.contains(&(Field::Bookmark, 1, "removed by --dedupe=loose")),
        "{got:?}"
    );
    assert!(got.contains(&(Field::Folder, 1, "removed (left empty) by --dedupe=loose")));
    assert!(got.contains(&(Field::BookmarkTags, 1, "merged by --dedupe=loose")));
    assert!(report.is_empty(), "requested, not lost");
    // The bare level is today's --dedupe, by name too.
    let exact = Operation::DedupeBy {
        by: LinkMatch::Exact,
        keep_empty: true,
    };
    assert_eq!(exact.flag(), Operation::DedupeKeepingEmpty.flag());
}

#[test]
fn merge_matches_links_across_inputs_at_the_level_asked() {
    let mut pocket = Document::new();
    pocket.push(
        None,
        tagged("https://example.org/a?utm_source=pocket_saves", &["p"]),
    );
    pocket.push(None, Bookmark::new("https://example.org/b/"));
    let mut safari = Document::new();
    safari.push(None, tagged("http://example.org/a", &["s"]));
    safari.push(None, Bookmark::new("https://example.org/b"));
    safari.push(None, Bookmark::new("https://example.org/c#x"));
    let inputs = vec![pocket, safari];
    let merged = |by| merge_by(inputs.clone(), by, false).unwrap().1[1].merged;
    assert_eq!(merged(None), 0);
    assert_eq!(merged(Some(LinkMatch::Exact)), 0);
    assert_eq!(merged(Some(LinkMatch::Normal)), 1);
    assert_eq!(merged(Some(LinkMatch::Loose)), 2);
    // Exact merges of other spellings are not listed (as before); a
    // level's are, with the bookmark each merged into.
    let listed = |by| {
        let (_, report) = merge_by(inputs.clone(), Some(by), false).unwrap();
        entries(&report[1].report.changes)
    };
    assert_eq!(listed(LinkMatch::Exact), []);
    assert_eq!(
        listed(LinkMatch::Loose),
        [(
            Field::Bookmark,
            2,
            vec![
                "https://example.org/a?utm_source=pocket_saves".to_string(),
                "https://example.org/b/".to_string()
            ]
        )]
    );
    let (doc, _) = merge_by(inputs, Some(LinkMatch::Loose), false).unwrap();
    let first = doc.node(doc.children(None)[0]).as_bookmark().unwrap();
    assert_eq!(first.tags, ["p", "s"]);
    assert_eq!(doc.census().bookmarks, 3);
}
