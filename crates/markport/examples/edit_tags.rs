//! Add a tag to every bookmark under one folder, and write the collection
//! back in the format its extension names.
//!
//! ```text
//! cargo run --example edit_tags -- bookmarks.html "Bookmarks bar/News" news out.xbel
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, folder, tag, output] = &args[..] else {
        eprintln!("usage: edit_tags INPUT FOLDER/PATH TAG OUTPUT");
        return ExitCode::from(2);
    };
    match run(input, folder, tag, output) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("edit_tags: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(
    input: &str,
    folder: &str,
    tag: &str,
    output: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut doc = markport::read(input, None, &Default::default())?.document;
    let Some(at) = doc.find_folder(folder.split('/')) else {
        return Err(format!("no folder {folder:?} in {input}").into());
    };
    // Ids first: the document cannot be changed while it is walked.
    let inside: Vec<_> = doc.descendants(at).collect();
    let mut tagged = 0;
    for id in inside {
        if let Some(b) = doc.as_bookmark_mut(id) {
            if !b.tags.iter().any(|t| t == tag) {
                b.tags.push(tag.to_owned());
                tagged += 1;
            }
        }
    }
    let loss = markport::write_path(&doc, output, None, &Default::default())?;
    eprintln!("tagged {tagged} bookmarks; {output}: {loss}");
    Ok(())
}
