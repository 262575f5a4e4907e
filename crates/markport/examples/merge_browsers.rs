//! Merge two browsers' bookmarks into one collection (the toolbars become
//! one folder, a link both have is kept once) and write it out.
//!
//! ```text
//! cargo run --example merge_browsers -- ~/.mozilla/firefox/x.default/places.sqlite \
//!     ~/.config/google-chrome/Default/Bookmarks merged.xbel
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [first, second, output] = &args[..] else {
        eprintln!("usage: merge_browsers FIRST SECOND OUTPUT");
        return ExitCode::from(2);
    };
    match run(first, second, output) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("merge_browsers: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(first: &str, second: &str, output: &str) -> Result<(), Box<dyn std::error::Error>> {
    let opts = Default::default();
    // Each input's format is found from its content (places.sqlite, a
    // Chromium Bookmarks file, a backup, an HTML export, ...).
    let inputs = vec![
        markport::read(first, None, &opts)?.document,
        markport::read(second, None, &opts)?.document,
    ];
    let (merged, report) = markport::ops::merge(inputs, false)?;
    for (name, input) in [first, second].iter().zip(&report) {
        eprintln!(
            "{name}: {} bookmarks, {} added, {} merged into one the other had",
            input.bookmarks, input.added, input.merged
        );
    }
    let loss = markport::write_path(&merged, output, None, &Default::default())?;
    eprintln!("{output}: {} bookmarks; {loss}", merged.bookmarks().count());
    Ok(())
}
