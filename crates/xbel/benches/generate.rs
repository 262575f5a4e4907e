//! A realistic generated collection, shared by the benchmark and the
//! `generate` example (which writes it for the comparison script).

use markport_model::{Bookmark, DateValue, Document, Folder, NodeId, Separator, Timestamp};

/// `n` bookmarks in nested folders of 50, with titles in several scripts,
/// descriptions with entities, dates with fractions, tags and a few
/// desktop-style entries.
pub fn collection(n: usize) -> Document {
    let mut doc = Document::new();
    doc.header.title = Some("Generated collection".into());
    let mut folders: Vec<NodeId> = Vec::new();
    let titles = [
        "Rust & Go <news>",
        "Café crème",
        "書籍とノート",
        "Новости",
        "\"Quoted\" 'stuff'",
    ];
    for i in 0..n {
        if i % 50 == 0 {
            let parent = if folders.is_empty() {
                None
            } else {
                Some(folders[(i / 50) % folders.len()])
            };
            let parent = if i % 500 == 0 { None } else { parent };
            let mut f = Folder::titled(format!(
                "Folder {} — {}",
                i / 50,
                titles[(i / 50) % titles.len()]
            ));
            f.added = Some(DateValue::Instant(
                Timestamp::from_unix_seconds(1_500_000_000 + i as i64).unwrap(),
            ));
            folders.push(doc.push(parent, f));
        }
        let folder = *folders.last().unwrap();
        let mut b = Bookmark::new(format!(
            "https://example{}.org/path/{i}?q=a&b={}",
            i % 97,
            i * 7
        ))
        .with_title(format!("{} #{i}", titles[i % titles.len()]));
        b.added = Some(DateValue::Instant(
            Timestamp::from_unix(1_600_000_000 + i as i64, (i as u32 % 1000) * 1000).unwrap(),
        ));
        if i % 3 == 0 {
            b.desc = Some(format!("Description {i} with <markup> & entities, and some longer text to make it realistic."));
        }
        if i % 2 == 0 {
            b.tags = vec![
                "rust".into(),
                format!("tag{}", i % 40),
                "reading list".into(),
            ];
        }
        if i % 10 == 0 {
            b.details_mut().desktop_mut().mime_type = Some("text/html".into());
            b.details_mut().desktop_mut().groups = vec!["Work".into()];
            let mut app = markport_model::Application::new("Firefox", "firefox %u");
            app.count = Some(2);
            app.modified = b.added.clone();
            b.details_mut().desktop_mut().applications = vec![app];
        }
        doc.push(Some(folder), b);
        if i % 25 == 24 {
            doc.push(Some(folder), Separator::default());
        }
    }
    doc
}
