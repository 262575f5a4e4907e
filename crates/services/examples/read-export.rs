//! Read one export with one of this crate's readers and print what it
//! holds: for measuring a reader's time and peak memory on a file apart
//! from the command (`/usr/bin/time -v`).
//!
//! Usage: `read-export FORMAT FILE [BUDGET_BYTES]`, FORMAT one of
//! `shaarli`, `delicious`, `pinboard`, `pocket`.

use markport_model::ReadOptions;
use markport_services::{delicious, pinboard, pocket, shaarli};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(format), Some(file)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: read-export FORMAT FILE [BUDGET_BYTES]");
        std::process::exit(2);
    };
    let bytes = std::fs::read(file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2)
    });
    let mut opts = ReadOptions::default();
    opts.memory_budget = args.get(3).and_then(|b| b.parse().ok());
    let read = match format.as_str() {
        "shaarli" => shaarli::read,
        "delicious" => delicious::read,
        "pinboard" => pinboard::read,
        "pocket" => pocket::read,
        other => {
            eprintln!("unknown format {other}");
            std::process::exit(2)
        }
    };
    let start = std::time::Instant::now();
    match read(&bytes, &opts) {
        Ok(parsed) => {
            let took = start.elapsed();
            let census = parsed.document.census();
            println!(
                "{} bookmarks, {} diagnostics, {:.3} s, {:.1} MiB/s",
                census.bookmarks,
                parsed.diagnostics.len(),
                took.as_secs_f64(),
                bytes.len() as f64 / (1 << 20) as f64 / took.as_secs_f64()
            );
        }
        Err(e) => {
            println!("refused: {e}");
            std::process::exit(1)
        }
    }
}
