//! The scripted loopback server on its own, for scripts/bench-links.sh:
//! `loopback DELAY_MS IP:PORT...` serves each address (loopback only)
//! until killed, answering each request after DELAY_MS; on exit (stdin
//! closed) it prints how many requests each address got.

use std::io::Read;
use std::time::Duration;

use markport_links::loopback::Server;

fn main() {
    let mut args = std::env::args().skip(1);
    let delay: u64 = args
        .next()
        .and_then(|d| d.parse().ok())
        .expect("usage: loopback DELAY_MS IP:PORT...");
    let servers: Vec<Server> = args
        .map(|a| {
            let (ip, port) = a.rsplit_once(':').expect("IP:PORT");
            Server::bind(
                ip,
                port.parse().expect("a port"),
                Duration::from_millis(delay),
            )
        })
        .collect();
    eprintln!("serving {} loopback addresses", servers.len());
    // Until the script closes our standard input.
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
    let total: usize = servers.iter().map(Server::count).sum();
    println!("requests {total}");
}
