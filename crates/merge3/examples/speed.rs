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
    let (mut best, mut best_cpu) = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        let (start, cpu) = (Instant::now(), on_cpu());
        let m = merge(&base, &ours, &theirs, &opts).expect("merged");
        best = best.min(start.elapsed().as_secs_f64());
        best_cpu = best_cpu.min(on_cpu() - cpu);
        std::hint::black_box(m);
    }
    println!(
        "{n} bookmarks ({} nodes in the base): merged in {best:.3} s, {best_cpu:.3} s on the CPU (best of 3)",
        base.len(),
    );
}

/// Seconds this thread has run on a CPU (Linux's schedstat; 0 elsewhere):
/// on a machine others share, the merge's own time.
fn on_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0.0, |ns| ns as f64 / 1e9)
}
