//! The merge's own time and the work it does, on three generated trees of
//! N bookmarks (a base, two copies with 1% of it edited apart): run by
//! scripts/bench-merge3.sh for 10,000 and 100,000.
//!
//! `cargo run --release -p markport-merge3 --example speed -- N`

#[path = "../tests/gen/mod.rs"]
mod gen;

use std::time::Instant;

use markport_merge3::{merge, Options};

use gen::{edit, tree, Ids, Rng};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(10_000, |a| a.parse().expect("N"));
    let mut rng = Rng::new(7);
    let mut ids = Ids(0);
    let base = tree(&mut rng, &mut ids, n);
    let ours = edit(&mut rng, &mut ids, &base, n / 100);
    let theirs = edit(&mut rng, &mut ids, &base, n / 100);
    let mut opts = Options::default();
    opts.allow_mass_delete = true;
    let mut best = f64::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        let m = merge(&base, &ours, &theirs, &opts).expect("merged");
        best = best.min(start.elapsed().as_secs_f64());
        std::hint::black_box(m);
    }
    println!(
        "{n} bookmarks ({} nodes in the base): merged in {:.3} s (best of 3)",
        base.len(),
        best
    );
}
