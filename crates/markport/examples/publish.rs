//! Publish a collection as a static site: only the public bookmarks of one
//! folder, as pages, tag pages and an Atom feed.
//!
//! ```text
//! cargo run --example publish -- bookmarks.html "Toolbar/Reading" site/
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, folder, dir] = &args[..] else {
        eprintln!("usage: publish INPUT FOLDER/PATH DIR");
        return ExitCode::from(2);
    };
    match run(input, folder, dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("publish: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(input: &str, folder: &str, dir: &str) -> Result<(), Box<dyn std::error::Error>> {
    let mut doc = markport::read(input, None, &Default::default())?.document;
    // The folder becomes the site's top level; private bookmarks stay out.
    markport::ops::only_folder(&mut doc, folder)?;
    markport::ops::public_only(&mut doc);
    let site = markport_publish::build(&doc, &markport_publish::Options::default());
    markport_publish::publish(&site.files, dir.as_ref())?;
    eprintln!(
        "{dir}: {} files, {} bookmarks",
        site.files.len(),
        doc.bookmarks().count()
    );
    Ok(())
}
