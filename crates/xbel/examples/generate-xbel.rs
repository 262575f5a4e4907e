//! Write the benchmark's generated collection as XBEL:
//! `cargo run --release -p markport-xbel --example generate-xbel -- 100000 > big.xbel`

#[path = "../benches/generate.rs"]
mod generate;

fn main() {
    let n = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let doc = generate::collection(n);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    markport_xbel::write(&doc, &Default::default(), &mut out).expect("writes");
}
