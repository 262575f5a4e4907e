//! The exports people migrate from today: Pocket's export ZIP and its CSV
//! generations, Omnivore's export ZIP, Instapaper's current CSV, Raindrop's
//! CSV. Values are checked against the `csv` and `serde_json` crates' own
//! reading of the rows and items, not the readers'.

use std::io::{Cursor, Write};

use markport_model::{Document, ReadOptions, Severity};
use markport_services::{instapaper, omnivore, pocket, raindrop};
use zip::write::SimpleFileOptions;

fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in entries {
        zip.start_file(*name, options).unwrap();
        zip.write_all(data).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// Rows of a CSV text as the csv crate reads them, header by name.
fn rows(csv_text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

fn bookmarks(doc: &Document) -> Vec<&markport_model::Bookmark> {
    doc.preorder()
        .filter_map(|id| doc.node(id).as_bookmark())
        .collect()
}

/// A part of `n` rows numbered from `first`, in the cursor generation.
fn part(first: usize, n: usize) -> String {
    let mut s = String::from("title,url,time_added,cursor,tags,status\n");
    for i in first..first + n {
        let status = if i % 3 == 0 { "archive" } else { "unread" };
        let tags = if i % 2 == 0 { "a|b" } else { "" };
        s.push_str(&format!(
            "\"Title {i}, quoted\",https://e.example/{i},{},c{i},{tags},{status}\n",
            1_700_000_000 + i
        ));
    }
    s
}

#[test]
fn a_pocket_zip_reads_every_part_in_numeric_order_as_one_collection() {
    let parts = [(0, part(0, 40)), (2, part(40, 25)), (10, part(65, 7))];
    // Listed out of order, and by name part 10 sorts before part 2.
    let names = ["part_000000.csv", "part_2.csv", "part_000010.csv"];
    let entries: Vec<(&str, &[u8])> = [2, 0, 1]
        .iter()
        .map(|&i| (names[i], parts[i].1.as_bytes()))
        .collect();
    let bytes = zip(&entries);
    assert_eq!(pocket::detect(&bytes), Some(95));
    let parsed = pocket::read(&bytes, &ReadOptions::default()).unwrap();
    let got = bookmarks(&parsed.document);
    let want: Vec<_> = parts.iter().flat_map(|(_, p)| rows(p)).collect();
    assert_eq!(got.len(), want.len());
    // Folders hold their bookmarks in order; compare within each status.
    for status in ["unread", "archive"] {
        let mine: Vec<&str> = want
            .iter()
            .filter(|r| r["status"] == status)
            .map(|r| r["url"].as_str())
            .collect();
        let folder = parsed
            .document
            .children(None)
            .iter()
            .copied()
            .find(|id| {
                parsed.document.node(*id).title()
                    == Some(if status == "unread" {
                        "Unread"
                    } else {
                        "Read Archive"
                    })
            })
            .unwrap();
        let read: Vec<&str> = parsed
            .document
            .children(Some(folder))
            .iter()
            .map(|id| {
                parsed
                    .document
                    .node(*id)
                    .as_bookmark()
                    .unwrap()
                    .href
                    .as_str()
            })
            .collect();
        assert_eq!(read, mine, "{status}");
    }
    let tags: usize = want
        .iter()
        .map(|r| r["tags"].split('|').filter(|t| !t.is_empty()).count())
        .sum();
    assert_eq!(got.iter().map(|b| b.tags.len()).sum::<usize>(), tags);
    // The cursor is never a tag nor kept; it is said once.
    assert!(got
        .iter()
        .all(|b| b.tags.iter().all(|t| !t.starts_with('c'))));
    assert!(got.iter().all(|b| b.details().extra.is_empty()));
    let notes: Vec<_> = parsed
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("cursor"))
        .collect();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].severity, Severity::Note);
    assert!(
        notes[0].message.contains("72 values"),
        "{}",
        notes[0].message
    );
}

#[test]
fn one_part_on_its_own_reads_and_a_future_column_is_kept_not_tagged() {
    let csv = "title,url,time_added,cursor,tags,status,reading_time\n\
               A,https://a.example/,1700000000,c1,x|y,unread,7\n\
               B,https://b.example/,1700000001,c2,,archive,\n";
    assert_eq!(pocket::detect(csv.as_bytes()), Some(80));
    let parsed = pocket::read(csv.as_bytes(), &ReadOptions::default()).unwrap();
    let got = bookmarks(&parsed.document);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].tags, ["x", "y"]);
    let extra = &got[0].details().extra;
    assert_eq!(extra.len(), 1);
    assert_eq!(
        (extra[0].name.as_str(), extra[0].value.as_str()),
        ("reading_time", "7")
    );
    assert!(got[1].details().extra.is_empty());
    assert!(parsed
        .diagnostics
        .iter()
        .any(|d| d.message.contains("reading_time") && d.severity == Severity::Warning));
    // The older five columns, and columns in another order, read too.
    let old = "status,tags,time_added,url,title\nunread,a|b,1700000000,https://a.example/,A\n";
    assert_eq!(pocket::detect(old.as_bytes()), Some(90));
    let doc = pocket::read(old.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document;
    let b = bookmarks(&doc);
    assert_eq!(
        (b[0].href.as_str(), b[0].tags.len()),
        ("https://a.example/", 2)
    );
}

#[test]
fn annotations_become_descriptions_and_unmatched_ones_are_reported() {
    let csv = part(0, 3);
    let notes = br#"[{"url":"https://e.example/1","title":"t","highlights":[{"quote":"first","created_at":1},{"quote":"second","created_at":2}]},
                     {"url":"https://elsewhere.example/","highlights":[{"quote":"q"}]}]"#;
    let bytes = zip(&[
        ("part_000000.csv", csv.as_bytes()),
        ("annotations/part_000000.json", notes),
        ("README.txt", b"hello"),
    ]);
    let parsed = pocket::read(&bytes, &ReadOptions::default()).unwrap();
    let got = bookmarks(&parsed.document);
    let one = got
        .iter()
        .find(|b| b.href == "https://e.example/1")
        .unwrap();
    assert_eq!(one.desc.as_deref(), Some("first\n\nsecond"));
    let said = |needle: &str| {
        parsed
            .diagnostics
            .iter()
            .any(|d| d.message.contains(needle))
    };
    assert!(said("1 article whose URL no part lists"));
    assert!(said("README.txt"));
    assert!(said("dates of 2 highlights"));
}

#[test]
fn an_error_inside_a_part_names_the_entry_and_its_line_and_column() {
    let bad = "title,url,time_added,tags,status\nA,https://a/,1,,unread\nB,https://b/,2\n";
    let bytes = zip(&[
        ("part_000000.csv", part(0, 2).as_bytes()),
        ("part_000001.csv", bad.as_bytes()),
    ]);
    let err = pocket::read(&bytes, &ReadOptions::default()).unwrap_err();
    assert!(
        err.message
            .starts_with("ZIP entry part_000001.csv:3:1: 3 fields where the header has 5"),
        "{}",
        err.message
    );
}

#[test]
fn hostile_archives_are_refused_naming_the_entry() {
    // A bomb: 16 MiB of one byte in a few kilobytes.
    let bomb = vec![b'a'; 16 << 20];
    let mut big = part(0, 1).into_bytes();
    big.extend_from_slice(&bomb);
    let bytes = zip(&[("part_000000.csv", &big)]);
    assert!(bytes.len() < 1 << 20);
    let err = pocket::read(&bytes, &ReadOptions::default()).unwrap_err();
    assert!(
        err.message.contains("\"part_000000.csv\""),
        "{}",
        err.message
    );
    assert!(err.message.contains("ZIP bomb"), "{}", err.message);
    // A name out of the archive.
    let bytes = zip(&[("part_000000.csv", part(0, 1).as_bytes()), ("../x", b"x")]);
    assert_eq!(
        pocket::detect(&bytes),
        Some(10),
        "claimed faintly, to say why"
    );
    let err = pocket::read(&bytes, &ReadOptions::default()).unwrap_err();
    assert!(err.message.contains("\"../x\""), "{}", err.message);
    // A ZIP with no part is no Pocket export.
    let bytes = zip(&[("notes.txt", b"x")]);
    assert_eq!(pocket::detect(&bytes), None);
    assert!(pocket::read(&bytes, &ReadOptions::default()).is_err());
}

#[test]
fn a_header_of_100000_columns_and_a_50_mb_field_are_refused_where_they_are() {
    let mut wide = String::from("title,url,time_added");
    for i in 0..100_000 {
        wide.push_str(&format!(",c{i}"));
    }
    wide.push('\n');
    // Pocket keeps unknown columns, so the count is what refuses this.
    let err = pocket::read(wide.as_bytes(), &ReadOptions::default()).unwrap_err();
    let at = err.location.unwrap();
    assert_eq!(at.line, 1);
    // The column where the 1001st name starts.
    let col =
        "title,url,time_added".len() + (0..997).map(|i| format!(",c{i}").len()).sum::<usize>() + 2;
    assert_eq!(at.column as usize, col, "{err}");
    let mut long = String::from("URL,Title,Selection,Folder\nhttps://a/,A,\"");
    long.push_str(&"x".repeat(50 << 20));
    long.push_str("\",Unread\n");
    let err = instapaper::read(long.as_bytes(), &ReadOptions::default()).unwrap_err();
    assert_eq!(err.location.map(|l| (l.line, l.column)), Some((2, 1)));
    assert!(err.message.contains("field 3"), "{}", err.message);
}

#[test]
fn instapaper_reads_every_generation_by_column_name() {
    let current = "URL,Title,Selection,Folder,Timestamp,Tags\n\
                   https://a/,A,picked words,Work/Reading,1700000000,\"[\"\"x\"\",\"\"y z\"\"]\"\n\
                   https://b/,B,,Work,1700000001,[]\n\
                   https://c/,C,,Blogs / Portfolios,,not json]\n\
                   https://d/,D,,,1700000002,\"[\"\"open\"\n";
    assert_eq!(instapaper::detect(current.as_bytes()), Some(90));
    let parsed = instapaper::read(current.as_bytes(), &ReadOptions::default()).unwrap();
    let doc = &parsed.document;
    let top: Vec<_> = doc
        .children(None)
        .iter()
        .map(|id| doc.node(*id).title().unwrap())
        .collect();
    assert_eq!(top, ["Work", "Blogs / Portfolios", "Unread"]);
    let work = doc.children(None)[0];
    let reading = doc.children(Some(work))[0];
    assert_eq!(doc.node(reading).title(), Some("Reading"));
    let a = doc
        .node(doc.children(Some(reading))[0])
        .as_bookmark()
        .unwrap();
    assert_eq!(a.tags, ["x", "y z"]);
    assert_eq!(a.desc.as_deref(), Some("picked words"));
    let b = bookmarks(doc);
    // A comma list is read as tags; a broken array is kept as written.
    assert_eq!(b[2].tags, ["not json]"]);
    assert_eq!(b[3].details().extra[0].value, "[\"open");
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    // Without Timestamp, and Tags without Timestamp.
    for header in [
        "URL,Title,Selection,Folder",
        "URL,Title,Selection,Folder,Tags",
    ] {
        let csv = format!(
            "{header}\nhttps://a/,A,,Unread{}\n",
            if header.ends_with("Tags") { ",[]" } else { "" }
        );
        assert_eq!(instapaper::detect(csv.as_bytes()), Some(90), "{header}");
        let doc = instapaper::read(csv.as_bytes(), &ReadOptions::default())
            .unwrap()
            .document;
        assert_eq!(doc.census().bookmarks, 1);
    }
}

#[test]
fn instapaper_folder_paths_of_any_depth_cost_their_length() {
    let depth = 100_000;
    let path = vec!["f"; depth].join("/");
    let csv = format!("URL,Title,Selection,Folder\nhttps://a/,A,,{path}\nhttps://b/,B,,{path}\n");
    let doc = instapaper::read(csv.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document;
    assert_eq!(doc.census().folders, depth);
    assert_eq!(doc.census().bookmarks, 2);
}

#[test]
fn raindrop_csv_values_match_the_rows() {
    let csv = "id,title,note,excerpt,url,folder,tags,created,cover,highlights,favorite\n\
               1,One,my note,the excerpt,https://one/,A/B,\"x, y, z\",2024-03-01T10:20:30.123Z,https://img/1.png,Highlight:h,true\n\
               2,\"Two, quoted\",,only excerpt,https://two/,A,,2024-03-02T00:00:00Z,,,false\n\
               3,Three,,,https://three/,,solo,yesterday,,,\n";
    assert_eq!(raindrop::detect(csv.as_bytes()), Some(90));
    let parsed = raindrop::read(csv.as_bytes(), &ReadOptions::default()).unwrap();
    let doc = &parsed.document;
    let got = bookmarks(doc);
    let want = rows(csv);
    assert_eq!(got.len(), want.len());
    for (b, r) in got.iter().zip(&want) {
        assert_eq!(b.href, r["url"]);
        assert_eq!(b.details().id.as_deref(), Some(r["id"].as_str()));
        let tags: Vec<&str> = r["tags"].split(", ").filter(|t| !t.is_empty()).collect();
        assert_eq!(b.tags, tags);
        for column in ["cover", "highlights", "favorite"] {
            let kept = b.details().extra.iter().find(|a| a.name == column);
            assert_eq!(
                kept.map(|a| a.value.as_str()),
                Some(r[column].as_str()).filter(|v| !v.is_empty()),
                "{column}"
            );
        }
    }
    assert_eq!(got[0].desc.as_deref(), Some("my note\n\nthe excerpt"));
    assert_eq!(got[1].desc.as_deref(), Some("only excerpt"));
    assert_eq!(got[2].desc, None);
    assert_eq!(
        got[0]
            .added
            .as_ref()
            .and_then(|d| d.instant())
            .map(|t| t.to_w3c_utc()),
        Some("2024-03-01T10:20:30.123Z".to_string())
    );
    // The folder path nests; no folder is the top level.
    let a = doc.children(None)[0];
    assert_eq!(doc.node(a).title(), Some("A"));
    assert_eq!(doc.node(doc.children(Some(a))[0]).title(), Some("B"));
    assert!(doc
        .node(*doc.children(None).last().unwrap())
        .as_bookmark()
        .is_some());
    // A date that is no ISO 8601 is kept as written, with its position.
    assert_eq!(parsed.diagnostics.len(), 1);
    assert_eq!(parsed.diagnostics[0].location.map(|l| l.line), Some(4));
}

/// A metadata file of Omnivore's last exporter: items `first..first + n`,
/// every third archived (in each generation's spelling), every other one
/// with a description.
fn metadata(first: usize, n: usize) -> serde_json::Value {
    let states = [
        "Archived", "Active", "Active", "ARCHIVED", "Unknown", "Active", "archived",
    ];
    (first..first + n)
        .map(|i| {
            serde_json::json!({
                "id": format!("id-{i}"),
                "slug": format!("item-{i}-18f0a1b2c{i:02}"),
                "title": format!("Item {i}"),
                "description": if i % 2 == 0 { Some(format!("About {i}")) } else { None },
                "author": null,
                "url": format!("https://o.example/{i}"),
                "state": states[i % states.len()],
                "readingProgress": 0,
                "thumbnail": null,
                "labels": if i % 2 == 0 { vec!["a", "b"] } else { vec![] },
                "savedAt": "2024-05-01T10:00:00.000Z",
                "updatedAt": "2024-05-02T10:00:00.000Z",
                "publishedAt": null
            })
        })
        .collect()
}

fn pretty(v: &serde_json::Value) -> Vec<u8> {
    serde_json::to_vec_pretty(v).unwrap()
}

#[test]
fn an_omnivore_zip_reads_every_metadata_file_in_numeric_order_as_one_collection() {
    let files = [
        ("metadata_0_to_20.json", metadata(0, 20)),
        ("metadata_20_to_40.json", metadata(20, 20)),
        ("metadata_100_to_107.json", metadata(100, 7)),
    ];
    let bytes: Vec<Vec<u8>> = files.iter().map(|(_, v)| pretty(v)).collect();
    // Listed out of order; by name 100 sorts before 20.
    let entries: Vec<(&str, &[u8])> = [2, 0, 1]
        .iter()
        .map(|&i| (files[i].0, bytes[i].as_slice()))
        .collect();
    let zip_bytes = zip(&entries);
    assert_eq!(omnivore::detect(&zip_bytes), Some(95));
    assert_eq!(pocket::detect(&zip_bytes), None);
    let parsed = omnivore::read(&zip_bytes, &ReadOptions::default()).unwrap();
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let got = bookmarks(&parsed.document);
    let want: Vec<&serde_json::Value> = files
        .iter()
        .flat_map(|(_, v)| v.as_array().unwrap())
        .collect();
    assert_eq!(got.len(), want.len());
    for (b, item) in got.iter().zip(&want) {
        assert_eq!(b.href, item["url"].as_str().unwrap());
        assert_eq!(b.desc.as_deref(), item["description"].as_str());
        assert_eq!(b.tags.len(), item["labels"].as_array().unwrap().len());
        let archived = item["state"].as_str().unwrap().to_lowercase() == "archived";
        assert_eq!(b.to_read, Some(!archived), "{}", item["state"]);
    }
    // One metadata file on its own reads as it did.
    let one = omnivore::read(&bytes[1], &ReadOptions::default()).unwrap();
    assert_eq!(one.document.census().bookmarks, 20);
}

#[test]
fn omnivore_highlights_join_their_items_by_slug_and_pages_are_counted() {
    let meta = pretty(&metadata(0, 3));
    // As the exporter writes them: a quote with its labels, a note.
    let h0 = b"> first quote \n\n#key\n\n> second quote \n\nmy note";
    let h1 = b"> only quote ";
    let bytes = zip(&[
        ("metadata_0_to_3.json", &meta),
        ("content/item-0-18f0a1b2c00.html", b"<p>page</p>"),
        ("content/item-1-18f0a1b2c01.pdf", b"%PDF"),
        ("highlights/item-0-18f0a1b2c00.md", h0),
        ("highlights/item-1-18f0a1b2c01.md", h1),
        ("highlights/gone-18f0a1b2cff.md", b"> lost"),
        ("notes.txt", b"x"),
    ]);
    let parsed = omnivore::read(&bytes, &ReadOptions::default()).unwrap();
    let got = bookmarks(&parsed.document);
    assert_eq!(got.len(), 3);
    // After the description and a blank line; or the whole description.
    assert_eq!(
        got[0].desc.as_deref(),
        Some("About 0\n\n> first quote \n\n#key\n\n> second quote \n\nmy note")
    );
    assert_eq!(got[1].desc.as_deref(), Some("> only quote"));
    assert_eq!(got[2].desc.as_deref(), Some("About 2"));
    let said = |needle: &str, severity: Severity| {
        parsed
            .diagnostics
            .iter()
            .any(|d| d.message.contains(needle) && d.severity == severity)
    };
    assert!(said(
        "1 highlights file whose slug no metadata file lists: not kept",
        Severity::Warning
    ));
    assert!(said("highlights/gone-18f0a1b2cff.md", Severity::Warning));
    assert!(said("2 saved pages (content/) not carried", Severity::Note));
    assert!(said("1 ZIP entry not read", Severity::Warning));
    assert!(said("notes.txt", Severity::Warning));
    assert_eq!(parsed.diagnostics.len(), 3, "{:?}", parsed.diagnostics);
    // A slug two items share matches neither for sure: said, not kept.
    let mut twice = metadata(0, 2);
    twice[1]["slug"] = twice[0]["slug"].clone();
    let twice = pretty(&twice);
    let bytes = zip(&[
        ("metadata_0_to_2.json", &twice),
        ("highlights/item-0-18f0a1b2c00.md", h1),
    ]);
    let parsed = omnivore::read(&bytes, &ReadOptions::default()).unwrap();
    let got = bookmarks(&parsed.document);
    assert_eq!(got[0].desc.as_deref(), Some("About 0"));
    assert_eq!(got[1].desc, None);
    assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
    assert!(parsed.diagnostics[0]
        .message
        .starts_with("1 highlights file whose slug several items share: not kept"));
}

#[test]
fn an_error_inside_an_omnivore_metadata_file_names_the_entry_and_its_position() {
    let good = pretty(&metadata(0, 2));
    let bad = b"[\n  {\"url\": \"https://a/\",\n   \"slug\": }\n]";
    let bytes = zip(&[
        ("metadata_0_to_2.json", &good),
        ("metadata_2_to_3.json", bad),
    ]);
    let err = omnivore::read(&bytes, &ReadOptions::default()).unwrap_err();
    assert!(
        err.message
            .starts_with("ZIP entry metadata_2_to_3.json:3:12: JSON: "),
        "{}",
        err.message
    );
    // A warning inside an entry says where too.
    let odd = b"[1,\n {\"url\": \"https://a/\", \"savedAt\": \"soon\"}]";
    let bytes = zip(&[("metadata_0_to_2.json", odd)]);
    let parsed = omnivore::read(&bytes, &ReadOptions::default()).unwrap();
    let messages: Vec<&str> = parsed
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        messages[0].starts_with("ZIP entry metadata_0_to_2.json:1:2: item 1 is not an object"),
        "{messages:?}"
    );
    assert!(
        messages[1].starts_with("ZIP entry metadata_0_to_2.json:2:35: item 2: savedAt"),
        "{messages:?}"
    );
}

#[test]
fn hostile_omnivore_archives_are_refused_naming_the_entry() {
    let meta = pretty(&metadata(0, 1));
    // A bomb in a metadata file: 16 MiB of spaces after the array.
    let mut big = meta.clone();
    big.extend(std::iter::repeat_n(b' ', 16 << 20));
    let bytes = zip(&[("metadata_0_to_1.json", &big)]);
    assert!(bytes.len() < 1 << 20);
    assert_eq!(omnivore::detect(&bytes), Some(95));
    let err = omnivore::read(&bytes, &ReadOptions::default()).unwrap_err();
    assert!(
        err.message.contains("\"metadata_0_to_1.json\""),
        "{}",
        err.message
    );
    assert!(err.message.contains("ZIP bomb"), "{}", err.message);
    // A name out of the archive: claimed just above Pocket, to say why.
    let bytes = zip(&[("metadata_0_to_1.json", &meta), ("../x", b"x")]);
    assert_eq!(omnivore::detect(&bytes), Some(11));
    assert_eq!(pocket::detect(&bytes), Some(10));
    let err = omnivore::read(&bytes, &ReadOptions::default()).unwrap_err();
    assert!(err.message.contains("\"../x\""), "{}", err.message);
    // Neither export is taken for the other.
    let pocket_zip = zip(&[("part_000000.csv", part(0, 2).as_bytes())]);
    assert_eq!(omnivore::detect(&pocket_zip), None);
    assert!(omnivore::read(&pocket_zip, &ReadOptions::default()).is_err());
    // Names that only look like metadata files are not.
    let bytes = zip(&[
        ("metadata.json", &meta),
        ("metadata_x_to_1.json", &meta),
        ("content/metadata_0_to_1.json", &meta),
    ]);
    assert_eq!(omnivore::detect(&bytes), None);
    let err = omnivore::read(&bytes, &ReadOptions::default()).unwrap_err();
    assert!(err.message.contains("no metadata_"), "{}", err.message);
}

#[test]
fn a_pocket_html_link_keeps_the_attributes_pocket_did_not_write() {
    let html = br#"<!DOCTYPE html><html><body><h1>Unread</h1><ul>
<li><a href="https://a.example/" time_added="1700000000" tags="x" item_id="42" DATA-NOTE="caf&eacute;" data-note="second">A</a></li>
<li><a href="https://b.example/" time_added="1700000001" tags="">B</a></li>
</ul></body></html>"#;
    let parsed = pocket::read(html, &ReadOptions::default()).unwrap();
    let marks = bookmarks(&parsed.document);
    let extra: Vec<(&str, &str)> = marks[0]
        .details()
        .extra
        .iter()
        .map(|a| (a.name.as_str(), a.value.as_str()))
        .collect();
    // In source order, decoded, the first of a name given twice.
    assert_eq!(extra, [("item_id", "42"), ("DATA-NOTE", "café")]);
    assert!(marks[1].details().extra.is_empty());
    assert!(parsed
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Note
            && d.message.contains("item_id, data-note")
            && d.message.contains("kept as extra attributes")));

    // Thousands of attributes on one link read in linear time.
    let many: String = (0..20_000).map(|i| format!(" a{i}=\"{i}\"")).collect();
    let html =
        format!("<h1>Unread</h1><ul><li><a href=\"https://c.example/\"{many}>C</a></li></ul>");
    let parsed = pocket::read(html.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(bookmarks(&parsed.document)[0].details().extra.len(), 20_000);
}
