//! Two copies edited apart, at random, as Floccus' fuzz harness does: a
//! tree of about 1,000 bookmarks, two copies of it each given random
//! edits, moves, additions and deletions, merged; then each copy merged
//! with the result as a client syncing would (the result winning), which
//! must give the result back (they converge); then a second round edited
//! from the result. Counts the items any ledger leaves unaccounted.
//!
//! `cargo run --release -p markport-merge3 --example two_copies -- [RUNS] [SEED]`
//! (scripts/bench-merge3.sh runs it with 10,000).

#[path = "../tests/gen/mod.rs"]
mod gen;

use std::time::Instant;

use markport_merge3::{merge, MergeError, Merged, Options, Side};
use markport_model::Document;

use gen::{edit, tree, Ids, Rng};

#[derive(Default)]
struct Tally {
    merges: usize,
    unaccounted: usize,
    diverged: usize,
    conflicts: usize,
    first_diverged: Option<u64>,
}

impl Tally {
    fn merge(&mut self, b: &Document, o: &Document, t: &Document, prefer: Side) -> Option<Merged> {
        let mut opts = Options::default();
        opts.allow_mass_delete = true;
        opts.prefer = prefer;
        self.merges += 1;
        match merge(b, o, t, &opts) {
            Ok(m) => {
                let sides: usize = m.report.ledger.iter().map(|e| e.sides.len()).sum();
                let kept = m
                    .report
                    .ledger
                    .iter()
                    .filter(|e| e.outcome.in_result())
                    .count();
                self.unaccounted += (b.len() + o.len() + t.len()).abs_diff(sides);
                self.unaccounted += kept.abs_diff(m.document.len());
                Some(m)
            }
            Err(MergeError::Unaccounted { items }) => {
                self.unaccounted += items;
                None
            }
            Err(e) => panic!("{e}"),
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: u64 = args.next().map_or(10_000, |a| a.parse().expect("RUNS"));
    let seed: u64 = args.next().map_or(1, |a| a.parse().expect("SEED"));
    let mut t = Tally::default();
    let start = Instant::now();
    for run in 0..runs {
        let mut rng = Rng::new(seed.wrapping_add(run));
        let mut ids = Ids(0);
        let base = tree(&mut rng, &mut ids, 1000);
        let edits = 1 + rng.below(60);
        let a = edit(&mut rng, &mut ids, &base, edits);
        let b = edit(&mut rng, &mut ids, &base, edits);
        let Some(m) = t.merge(&base, &a, &b, Side::Ours) else {
            continue;
        };
        t.conflicts += m.report.conflicts.len();
        // Each copy syncs: the merged tree wins what both changed.
        for copy in [&a, &b] {
            if let Some(back) = t.merge(&base, copy, &m.document, Side::Theirs) {
                if back.document != m.document {
                    if std::env::var_os("SHOW").is_some() && t.diverged == 0 {
                        eprintln!(
                            "--- merged\n{}--- synced back\n{}",
                            outline(&m.document),
                            outline(&back.document)
                        );
                        eprintln!("{:#?}", back.report.conflicts);
                    }
                    t.diverged += 1;
                    t.first_diverged.get_or_insert(seed.wrapping_add(run));
                }
            }
        }
        // The next round, edited apart from the result.
        let a2 = edit(&mut rng, &mut ids, &m.document, edits);
        let b2 = edit(&mut rng, &mut ids, &m.document, edits);
        t.merge(&m.document, &a2, &b2, Side::Ours);
    }
    let took = start.elapsed();
    println!(
        "{runs} runs (seed {seed}): {} merges, {} items unaccounted, {} syncs that did not converge{}, {} conflicts said; {:.2} s ({:.2} ms a merge)",
        t.merges,
        t.unaccounted,
        t.diverged,
        t.first_diverged.map(|s| format!(" (first at seed {s})")).unwrap_or_default(),
        t.conflicts,
        took.as_secs_f64(),
        took.as_secs_f64() * 1000.0 / t.merges.max(1) as f64
    );
    if t.unaccounted > 0 {
        std::process::exit(1);
    }
}

/// The tree as indented lines, to show where two differ.
fn outline(doc: &Document) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for step in doc.walk() {
        let (id, open) = match step {
            markport_model::Step::Open(id) => (id, true),
            markport_model::Step::Leaf(id) => (id, false),
            markport_model::Step::Close(_) => {
                depth -= 1;
                continue;
            }
        };
        let n = doc.node(id);
        let what = match n.as_bookmark() {
            Some(b) => format!(
                "{} <{}> {:?}",
                b.title.as_deref().unwrap_or(""),
                b.href,
                b.tags
            ),
            None => n.title().unwrap_or("(separator)").to_string(),
        };
        let guid = n
            .as_bookmark()
            .and_then(|b| b.details().guid.clone())
            .or_else(|| n.as_folder().and_then(|f| f.guid.clone()));
        out.push_str(&format!(
            "{}{what} {}\n",
            "  ".repeat(depth),
            guid.unwrap_or_default()
        ));
        if open {
            depth += 1;
        }
    }
    out
}
