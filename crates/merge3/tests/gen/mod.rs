//! Random bookmark trees and random edits of them, from a seed: for the
//! property tests and the two-copies fuzz run (`examples/two_copies.rs`).
// Each user takes what it needs.
#![allow(dead_code)]

use markport_model::{Bookmark, Document, Folder, Node, NodeId, Separator};

/// A small, seeded generator (xorshift64*): the same seed, the same trees.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

const WORDS: [&str; 16] = [
    "news", "rust", "recipes", "maps", "music", "docs", "mail", "shop", "travel", "work", "games",
    "bank", "weather", "video", "photos", "blog",
];

/// Fresh guids for new nodes, as a browser gives them.
pub struct Ids(pub u64);

impl Ids {
    fn next(&mut self) -> String {
        self.0 += 1;
        format!("guid{:08}", self.0)
    }
}

fn bookmark(rng: &mut Rng, ids: &mut Ids) -> Bookmark {
    let w = WORDS[rng.below(WORDS.len())];
    // A few hundred links, so that some repeat.
    let mut b = Bookmark::new(format!("https://{w}.example/{}", rng.below(300)))
        .with_title(format!("{w} {}", rng.below(40)));
    if rng.chance(30) {
        b.tags = vec![WORDS[rng.below(WORDS.len())].to_string()];
    }
    b.details_mut().guid = Some(ids.next());
    b
}

fn folder(rng: &mut Rng, ids: &mut Ids) -> Folder {
    let mut f = Folder::titled(WORDS[rng.below(WORDS.len())]);
    f.guid = Some(ids.next());
    f
}

/// A tree of about `bookmarks` bookmarks in folders up to five deep, with
/// a separator now and then.
pub fn tree(rng: &mut Rng, ids: &mut Ids, bookmarks: usize) -> Document {
    let mut doc = Document::new();
    let mut folders: Vec<Option<NodeId>> = vec![None];
    for _ in 0..(bookmarks / 8).max(1) {
        let parent = folders[rng.below(folders.len())];
        if parent.is_none_or(|p| doc.depth(p) < 5) {
            let f = doc.push(parent, folder(rng, ids));
            folders.push(Some(f));
        }
    }
    for _ in 0..bookmarks {
        let parent = folders[rng.below(folders.len())];
        if rng.chance(3) {
            doc.push(parent, Separator::new());
        }
        doc.push(parent, bookmark(rng, ids));
    }
    doc
}

fn folders(doc: &Document) -> Vec<Option<NodeId>> {
    std::iter::once(None)
        .chain(
            doc.preorder()
                .filter(|&id| matches!(doc.node(id), Node::Folder(_)))
                .map(Some),
        )
        .collect()
}

/// `base` with `edits` random edits: titles, links and tags changed,
/// nodes moved, reordered, deleted and added.
pub fn edit(rng: &mut Rng, ids: &mut Ids, base: &Document, edits: usize) -> Document {
    let mut doc = base.clone();
    for _ in 0..edits {
        if doc.is_empty() {
            doc.push(None, bookmark(rng, ids));
            continue;
        }
        let all: Vec<NodeId> = doc.preorder().collect();
        let id = all[rng.below(all.len())];
        match rng.below(9) {
            0 | 1 => {
                if let Some(b) = doc.as_bookmark_mut(id) {
                    b.title = Some(format!("{} {}", WORDS[rng.below(16)], rng.below(40)));
                }
            }
            2 => {
                if let Some(b) = doc.as_bookmark_mut(id) {
                    b.href = format!("https://edited.example/{}", rng.below(1000));
                }
            }
            3 => {
                if let Some(b) = doc.as_bookmark_mut(id) {
                    if b.tags.is_empty() || rng.chance(50) {
                        b.tags.push(WORDS[rng.below(16)].to_string());
                    } else {
                        b.tags.remove(0);
                    }
                }
            }
            4 => {
                let fs = folders(&doc);
                let _ = doc.move_to(id, fs[rng.below(fs.len())]);
            }
            5 => {
                let parent = doc.parent(id);
                let _ = doc.move_to(id, parent);
            }
            6 => doc.remove(id),
            7 => {
                let fs = folders(&doc);
                doc.push(fs[rng.below(fs.len())], bookmark(rng, ids));
            }
            _ => {
                let fs = folders(&doc);
                doc.push(fs[rng.below(fs.len())], folder(rng, ids));
            }
        }
    }
    doc
}
