//! Write the benchmark's generated browser export as Netscape HTML:
//! `cargo run --release -p markport-netscape --example generate-netscape -- 100000 > big.html`
//! (`-- 100000 chrome`: only what Chrome's own export holds, for peers that
//! read nothing else).

#[path = "../benches/generate.rs"]
mod generate;

fn main() {
    let n = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let doc = match std::env::args().nth(2).as_deref() {
        Some("chrome") => generate::chrome_export(n),
        _ => generate::collection(n),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    markport_netscape::write(&doc, &Default::default(), &mut out).expect("writes");
}
