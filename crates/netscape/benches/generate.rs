//! A realistic generated browser export, shared by the benchmark and the
//! `generate` example (which writes it for the comparison script).

use markport_model::{Bookmark, DateValue, Document, Folder, NodeId, Role, Separator, Timestamp};

/// `n` bookmarks in nested folders of 50 under a toolbar folder, with titles
/// in several scripts and with entities, tags, descriptions on every third,
/// a small favicon on every tenth and a large (20 KB) one on every 500th.
pub fn collection(n: usize) -> Document {
    let mut doc = Document::new();
    doc.header.title = Some("Bookmarks".into());
    let small_icon = format!(
        "data:image/png;base64,{}",
        "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQ".repeat(12)
    );
    let large_icon = format!(
        "data:image/png;base64,{}",
        "R0lGODlhEAAQAMQAAORHHOVSKudfOulrSOp3WOyDZu6QdvCchPGolfO0o/XBs/fNwfjZ0frl3/zy7".repeat(270)
    );
    let titles = [
        "Rust & Go <news>",
        "Café crème — «recettes»",
        "書籍とノート",
        "Новости и статьи",
        "\"Quoted\" 'stuff'",
    ];
    let mut toolbar = Folder::titled("Bookmarks bar");
    toolbar.role = Some(Role::Toolbar);
    let root = doc.push(None, toolbar);
    let mut folders: Vec<NodeId> = Vec::new();
    for i in 0..n {
        if i % 50 == 0 {
            let parent = match folders.len() {
                0 => root,
                k if i % 500 == 0 => folders[k / 2],
                k => folders[(i / 50) % k],
            };
            let mut f = Folder::titled(format!(
                "Folder {} {}",
                i / 50,
                titles[(i / 50) % titles.len()]
            ));
            f.added = Some(date(1_500_000_000 + i as i64));
            f.modified = Some(date(1_600_000_000 + i as i64));
            folders.push(doc.push(Some(parent), f));
            if i % 1000 == 0 {
                doc.push(Some(root), Separator::default());
            }
        }
        let folder = *folders.last().expect("a folder exists");
        let mut b = Bookmark::new(format!(
            "https://www.example{}.org/articles/{i}?ref=bookmarks&amp=1&lang=en",
            i % 97
        ));
        b.title = Some(format!("{} #{i}", titles[i % titles.len()]));
        b.added = Some(date(1_400_000_000 + i as i64 * 17));
        if i % 2 == 0 {
            b.modified = Some(date(1_450_000_000 + i as i64 * 17));
        }
        if i % 3 == 0 {
            b.desc = Some(format!(
                "Notes on item {i}: <b>bold</b> & \"quoted\" — résumé\nsecond line"
            ));
        }
        if i % 4 != 0 {
            b.tags = vec![
                "reading".into(),
                format!("topic{}", i % 40),
                "multi word".into(),
            ];
        }
        if i % 10 == 0 {
            b.favicon = Some(if i % 500 == 0 {
                large_icon.clone()
            } else {
                small_icon.clone()
            });
        }
        if i % 7 == 0 {
            b.private = Some(i % 14 == 0);
        }
        doc.push(Some(folder), b);
    }
    doc
}

fn date(secs: i64) -> DateValue {
    DateValue::Instant(Timestamp::from_unix_seconds(secs).expect("in range"))
}

/// The same collection as Chrome's own export would hold it: no
/// descriptions, tags, private flags, separators or line breaks in titles,
/// and one line per element, so line-oriented peers (bookmarks-converter
/// parses Chrome's export line by line) read the very file markport reads.
#[allow(dead_code)] // used by the example, not by the benchmark
pub fn chrome_export(n: usize) -> Document {
    let mut doc = collection(n);
    doc.retain(|d, id| !matches!(d.node(id), markport_model::Node::Separator(_)));
    let ids: Vec<NodeId> = doc.ids().collect();
    for id in ids {
        if let Some(b) = doc.as_bookmark_mut(id) {
            b.desc = None;
            b.tags.clear();
            b.private = None;
            b.modified = None;
        }
    }
    doc
}
