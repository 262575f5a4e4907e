//! What a site shows of folders: a browser's root under the name people
//! know it by, and an empty folder listed as empty, with no page of its own
//! (and what that page would have shown reported).

use markport_model::{Bookmark, Document, Field, Folder, Role};
use markport_publish::{build, Options};

fn page<'a>(site: &'a markport_publish::Site, path: &str) -> Option<&'a str> {
    site.files
        .iter()
        .find(|f| f.path == path)
        .map(|f| std::str::from_utf8(&f.bytes).unwrap())
}

#[test]
fn roots_have_their_human_names_and_empty_folders_no_page() {
    let mut doc = Document::new();
    let mut toolbar = Folder::titled("toolbar");
    toolbar.role = Some(Role::Toolbar);
    let toolbar = doc.push(None, toolbar);
    doc.push(
        Some(toolbar),
        Bookmark::new("https://www.rust-lang.org/").with_title("Rust"),
    );
    let mut unfiled = Folder::titled("unfiled");
    unfiled.role = Some(Role::Unfiled);
    let unfiled = doc.push(None, unfiled);
    doc.push(
        Some(unfiled),
        Bookmark::new("https://crates.io/").with_title("crates"),
    );
    let mut menu = Folder::titled("My menu");
    menu.role = Some(Role::Menu);
    let menu = doc.push(None, menu);
    doc.push(
        Some(menu),
        Bookmark::new("https://docs.rs/").with_title("docs"),
    );
    let mut empty = Folder::titled("Someday");
    empty.desc = Some("Things to read one day".into());
    let empty = doc.push(None, empty);
    doc.push(Some(empty), Folder::titled("Inner"));
    let secret = doc.push(None, Folder::titled("Secret"));
    let mut private = Bookmark::new("https://private.example/");
    private.private = Some(true);
    doc.push(Some(secret), private);

    let site = build(&doc, &Options::default());
    let index = page(&site, "index.html").expect("an index");
    assert!(index.contains("Bookmarks Toolbar"), "{index}");
    assert!(index.contains("Other Bookmarks"));
    assert!(
        index.contains("My menu"),
        "a root a person named keeps its name"
    );
    assert!(!index.contains(">toolbar<") && !index.contains(">unfiled<"));
    for name in ["Someday", "Secret"] {
        let listed = format!(
            "<span class=\"empty-folder\">{name}</span> <span class=\"count\">(empty)</span>"
        );
        assert!(index.contains(&listed), "{name} listed as empty: {index}");
    }
    let folder_pages: Vec<&str> = site
        .files
        .iter()
        .map(|f| f.path.as_str())
        .filter(|p| p.starts_with("f/") && *p != "f/index.html")
        .collect();
    assert_eq!(
        folder_pages.len(),
        3,
        "one page per folder with something in it: {folder_pages:?}"
    );
    for p in &folder_pages {
        let html = page(&site, p).unwrap();
        assert!(!html.contains("Someday") && !html.contains("Inner") && !html.contains("Secret"));
    }
    let desc = site
        .loss
        .losses
        .iter()
        .find(|l| l.field == Field::FolderDesc)
        .expect("the empty folder's description is reported");
    assert_eq!(desc.paths, ["Someday"]);
}
