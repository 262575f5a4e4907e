//! Exports shaped to make a reader slow: what they read as, content
//! asserted. (Times and memory are measured in scripts/bench-scaling.sh,
//! not here.)

use markport_model::ReadOptions;
use markport_services::{instapaper, pocket};

const N: usize = 100_000;

/// Every row in a folder of its own: one folder each, in the order met.
#[test]
fn instapaper_with_a_folder_per_row_reads_every_folder() {
    let mut csv = String::from("URL,Title,Selection,Folder\n");
    for i in 0..N {
        csv.push_str(&format!("https://e/{i},t{i},,folder {i}\n"));
    }
    // A folder met again is the same folder.
    csv.push_str("https://e/again,again,,folder 7\n");
    let doc = instapaper::read(csv.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document;
    let top = doc.children(None);
    assert_eq!(top.len(), N);
    assert_eq!(doc.census().bookmarks, N + 1);
    assert_eq!(
        doc.node(top[N - 1]).title(),
        Some(&*format!("folder {}", N - 1))
    );
    assert_eq!(doc.children(Some(top[7])).len(), 2);
}

/// Every row with a status of its own: one folder each, in the order met.
#[test]
fn pocket_csv_with_a_status_per_row_reads_every_folder() {
    let mut csv = String::from("title,url,time_added,tags,status\n");
    for i in 0..N {
        csv.push_str(&format!("t{i},https://e/{i},1700000000,,status{i}\n"));
    }
    csv.push_str("again,https://e/again,1700000000,,status7\n");
    let doc = pocket::read(csv.as_bytes(), &ReadOptions::default())
        .unwrap()
        .document;
    let top = doc.children(None);
    assert_eq!(top.len(), N);
    assert_eq!(doc.census().bookmarks, N + 1);
    assert_eq!(
        doc.node(top[N - 1]).title(),
        Some(&*format!("status{}", N - 1))
    );
    assert_eq!(doc.children(Some(top[7])).len(), 2);
}
