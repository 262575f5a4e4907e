//! `markport man`: a manual page per subcommand, made from the same clap
//! definitions as `--help` (so no option is ever missing from it), with an
//! EXAMPLES section from [`EXAMPLES`] and the exit status.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use crate::failure::Failure;
use crate::{exit, files};

#[derive(Args)]
pub(crate) struct ManArgs {
    /// The subcommand whose page to print (`convert`, `desktop add`);
    /// without one, markport(1).
    #[arg(num_args = 0..=2, value_name = "SUBCOMMAND")]
    page: Vec<String>,
    /// Write every page into this directory (markport.1,
    /// markport-convert.1, ...) instead of printing one.
    #[arg(long, value_name = "DIR", conflicts_with = "page")]
    dir: Option<PathBuf>,
}

/// Examples for each page: what it does, and the command line. Every
/// command line is parsed by a test, so an example cannot name an option
/// that does not exist.
pub(crate) const EXAMPLES: &[(&str, &[(&str, &str)])] = &[
    (
        "markport",
        &[
            (
                "Convert a browser export to XBEL and see what was lost:",
                "markport convert bookmarks.html -o bookmarks.xbel",
            ),
            (
                "Look at a file's format and counts:",
                "markport info bookmarks.xbel",
            ),
        ],
    ),
    (
        "convert",
        &[
            (
                "Convert a Firefox export to XBEL (the format from the extension):",
                "markport convert firefox.html -o firefox.xbel",
            ),
            (
                "XBEL that validates against the 1.0 DTD:",
                "markport convert bookmarks.xbel --to xbel --xbel-strict -o strict.xbel",
            ),
            (
                "A gate for scripts: fail unless only guids and date forms are lost:",
                "markport convert chrome/Bookmarks -t html -o chrome.html --allow-loss bookmark.guid,folder.guid,bookmark.added.form",
            ),
            (
                "Folders as tags, for a tag-based service:",
                "markport convert firefox.html --folders-as-tags --flatten --dedupe -o for-linkding.html",
            ),
            (
                "From standard input to standard output, quietly:",
                "markport convert -f netscape -t xbel -q",
            ),
        ],
    ),
    (
        "info",
        &[
            ("Counts and fields:", "markport info bookmarks.xbel"),
            (
                "Fail (exit 1) when the reader warned about anything:",
                "markport info --strict export.html",
            ),
        ],
    ),
    (
        "diff",
        &[
            ("What differs:", "markport diff before.xbel after.json"),
            (
                "Both values of each difference, every node:",
                "markport diff --values --all before.xbel after.json",
            ),
        ],
    ),
    (
        "merge",
        &[
            (
                "Two browsers into one file, duplicates merged:",
                "markport merge firefox.html chrome.html -o bookmarks.xbel",
            ),
            (
                "Pocket and Safari, the same page with and without tracking parameters, http or https, a trailing slash or a #fragment merged:",
                "markport merge pocket.html Bookmarks.plist --match loose -o for-firefox.html",
            ),
            (
                "Keep duplicates, report as JSON:",
                "markport merge old.xbel phone.html -o merged.html --to netscape --keep-duplicates --json",
            ),
            (
                "Three ways: two copies edited apart since the last common one; every change of both kept, each conflict said (exit 1):",
                "markport merge --base last-sync.xbel laptop.xbel phone.xbel -o merged.xbel",
            ),
        ],
    ),
    (
        "sync",
        &[
            (
                "Keep a laptop's and a phone's bookmarks in step (the first run is a union that deletes nothing):",
                "markport sync laptop.xbel phone.html",
            ),
            (
                "See what each file would become, with the state kept beside them:",
                "markport sync laptop.xbel phone.html --state .bookmarks-sync --dry-run",
            ),
        ],
    ),
    (
        "git merge",
        &[
            (
                "As git's merge driver (.gitattributes: *.xbel merge=markport; git config merge.markport.driver 'markport git-merge %O %A %B %P'):",
                "markport git-merge %O %A %B %P",
            ),
            (
                "The same by hand, theirs winning a conflict:",
                "markport git-merge base.xbel ours.xbel theirs.xbel bookmarks.xbel --prefer theirs",
            ),
        ],
    ),
    (
        "publish",
        &[
            ("A static site:", "markport publish bookmarks.html -o site/"),
            (
                "Two inputs, a title and the 20 most recent on the index:",
                "markport publish firefox.html chrome.html -o site/ --title Links --recent 20",
            ),
            (
                "Only the public bookmarks outside one folder, with a feed readers can follow:",
                "markport publish bookmarks.html -o site/ --public-only --exclude-folder Work --site-url https://example.org/links/",
            ),
        ],
    ),
    (
        "check",
        &[
            (
                "Every problem, with line and column:",
                "markport check export.html other.xbel",
            ),
            (
                "Fail on warnings too, one JSON object per problem:",
                "markport check --strict --json recently-used.xbel",
            ),
        ],
    ),
    (
        "roundtrip",
        &[(
            "What survives XBEL -> strict XBEL -> back:",
            "markport roundtrip bookmarks.xbel --via xbel --xbel-strict",
        )],
    ),
    (
        "conformance",
        &[(
            "How another tool converts the corpus:",
            "markport conformance --cmd 'mytool convert {in} {out}' --from netscape --to netscape",
        )],
    ),
    (
        "formats",
        &[("The formats and the loss matrix:", "markport formats")],
    ),
    (
        "desktop",
        &[
            (
                "Register a file for an application:",
                "markport desktop add report.odt --app writer --group Office",
            ),
            (
                "List what an application registered:",
                "markport desktop list --app writer",
            ),
            (
                "Forget files that no longer exist:",
                "markport desktop prune --missing",
            ),
        ],
    ),
    (
        "desktop add",
        &[(
            "A private bookmark opened by evince:",
            "markport desktop add https://example.org/a.pdf --app evince --exec 'evince %u' --private",
        )],
    ),
    (
        "desktop list",
        &[
            (
                "Every entry (private ones marked), its date of last use, and a count:",
                "markport desktop list",
            ),
            ("As JSON:", "markport desktop list --json"),
        ],
    ),
    (
        "desktop remove",
        &[(
            "Remove a file's entry, named as you would type it:",
            "markport desktop remove ~/Pictures/Résumé.jpg",
        )],
    ),
    (
        "desktop prune",
        &[
            (
                "See what would go: files that are gone, entries unused for 90 days:",
                "markport desktop prune --missing --older-than 90d --dry-run",
            ),
            (
                "Remove entries last used before 2025:",
                "markport desktop prune --older-than 2025-01-01",
            ),
        ],
    ),
    (
        "desktop exec",
        &[(
            "Open a file the way an application registered it:",
            "markport desktop exec report.odt --app writer",
        )],
    ),
    (
        "desktop watch",
        &[("Print each change as it happens:", "markport desktop watch")],
    ),
    (
        "profiles",
        &[
            ("The browsers' profiles and counts:", "markport profiles"),
            ("Every place looked in:", "markport -v profiles"),
        ],
    ),
    (
        "completions",
        &[(
            "Bash completion:",
            "markport completions bash > ~/.local/share/bash-completion/completions/markport",
        )],
    ),
    (
        "man",
        &[
            ("This page:", "markport man man"),
            (
                "Every page, for man(1):",
                "markport man --dir ~/.local/share/man/man1",
            ),
        ],
    ),
    (
        "serve",
        &[
            (
                "The page in the default browser, on a port of its own:",
                "markport serve --open",
            ),
            (
                "A fixed port for a program, 50 MiB requests at most:",
                "markport serve --port 8737 --max-size 50M",
            ),
        ],
    ),
    (
        "links",
        &[
            (
                "Check every link of a browser export, keeping the results for the next run:",
                "markport links bookmarks.html --state links.state",
            ),
            (
                "Point moved bookmarks to their new links and tag the dead ones, keeping every other field:",
                "markport links bookmarks.html --update-redirects --tag-dead dead -o checked.html",
            ),
            (
                "One JSON object per link, a dead one confirmed only a day after its first failure:",
                "markport links bookmarks.xbel --json --state links.state --confirm-after 1d",
            ),
        ],
    ),
];

const EXIT_STATUS: &str =
    "0 success; 1 something was lost (--fail-on-loss), the files differ (diff), \
problems were found (check), a tool changed or lost a must value (conformance) \
or a link is gone, broken or unreachable (links); \
2 bad usage or unreadable input.";

pub(crate) fn run(a: ManArgs, root: clap::Command) -> u8 {
    let result = match &a.dir {
        Some(dir) => write_all(root, dir),
        None => print_one(root, &a.page),
    };
    result.unwrap_or_else(|f| f.report())
}

fn print_one(root: clap::Command, page: &[String]) -> Result<u8, Failure> {
    let pages = pages(root);
    let name = std::iter::once("markport")
        .chain(page.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("-");
    let Some((_, cmd)) = pages.iter().find(|(n, _)| *n == name) else {
        let known: Vec<_> = pages
            .iter()
            .filter_map(|(n, _)| n.strip_prefix("markport-"))
            .map(|n| n.replace('-', " "))
            .collect();
        return Err(Failure::new(format_args!(
            "no manual page for {:?}; the pages: {}",
            page.join(" "),
            known.join(", ")
        )));
    };
    let mut out = files::stdout()?;
    render(cmd, &name, &pages, &mut out)?;
    files::finish_stdout(out)?;
    Ok(exit::OK)
}

fn write_all(root: clap::Command, dir: &Path) -> Result<u8, Failure> {
    std::fs::create_dir_all(dir).map_err(|e| Failure::in_file(dir.display(), e))?;
    let pages = pages(root);
    for (name, cmd) in &pages {
        let mut page = Vec::new();
        render(cmd, name, &pages, &mut page)?;
        let path = dir.join(format!("{name}.1"));
        let failed = |e: &dyn std::fmt::Display| Failure::in_file(path.display(), e);
        let mut out = markport::output::OutputFile::create(&path).map_err(|e| failed(&e))?;
        out.write_all(&page).map_err(|e| failed(&e))?;
        out.commit().map_err(|e| failed(&e))?;
    }
    crate::say::info(format_args!(
        "wrote {} manual pages into {}\n",
        pages.len(),
        dir.display()
    ));
    Ok(exit::OK)
}

/// Every page: `markport`, each subcommand (`markport-convert`) and each
/// of their subcommands (`markport-desktop-add`), in `--help` order.
fn pages(root: clap::Command) -> Vec<(String, clap::Command)> {
    let mut root = root;
    root.build();
    let mut out = vec![("markport".to_string(), root.clone())];
    let mut stack: Vec<(String, clap::Command)> = root
        .get_subcommands()
        .filter(|c| c.get_name() != "help")
        .map(|c| (format!("markport-{}", c.get_name()), c.clone()))
        .collect();
    stack.reverse();
    while let Some((name, cmd)) = stack.pop() {
        let children: Vec<_> = cmd
            .get_subcommands()
            .filter(|c| c.get_name() != "help")
            .map(|c| (format!("{name}-{}", c.get_name()), c.clone()))
            .collect();
        out.push((name, cmd));
        stack.extend(children.into_iter().rev());
    }
    out
}

/// The page: clap_mangen's sections for what clap knows, then ours.
fn render(
    cmd: &clap::Command,
    name: &str,
    pages: &[(String, clap::Command)],
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let cmd = cmd
        .clone()
        .display_name(name.to_string())
        .bin_name(name.replace('-', " "));
    let version = env!("CARGO_PKG_VERSION");
    let man = clap_mangen::Man::new(cmd.clone())
        .title(name)
        .source(format!("markport {version}"))
        .manual("markport manual");
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(out)?;
    }
    if cmd.has_subcommands() {
        man.render_subcommands_section(out)?;
    }
    let key = name
        .strip_prefix("markport-")
        .map_or("markport".to_string(), |k| k.replace('-', " "));
    let examples = EXAMPLES
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(&[][..], |(_, e)| *e);
    let mut roff = String::new();
    if !examples.is_empty() {
        roff.push_str(".SH EXAMPLES\n");
        for (what, line) in examples {
            roff.push_str(&format!(
                ".PP\n{}\n.PP\n.RS 4\n.nf\n{}\n.fi\n.RE\n",
                text(what),
                text(line)
            ));
        }
    }
    roff.push_str(&format!(".SH \"EXIT STATUS\"\n{}\n", text(EXIT_STATUS)));
    let see_also: Vec<String> = pages
        .iter()
        .map(|(n, _)| n)
        .filter(|n| *n != name)
        .map(|n| format!("\\fB{}\\fR(1)", text(n)))
        .collect();
    roff.push_str(&format!(".SH \"SEE ALSO\"\n{}\n", see_also.join(", ")));
    roff.push_str(&format!(".SH VERSION\nv{version}\n"));
    out.write_all(roff.as_bytes())?;
    Ok(())
}

/// Text as roff shows it literally: backslashes doubled, hyphens as
/// `\-` (so a copied option is a hyphen-minus), and a line that would
/// start with a control character (`.` or `'`) guarded with `\&`.
fn text(s: &str) -> String {
    let escaped = s.replace('\\', "\\e").replace('-', "\\-");
    escaped
        .lines()
        .map(|l| {
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roff_text_is_shown_literally() {
        assert_eq!(text("a\\b --x"), "a\\eb \\-\\-x");
        assert_eq!(text(".hidden\n'quote"), "\\&.hidden\n\\&'quote");
    }
}

#[cfg(test)]
mod examples {
    use clap::CommandFactory;

    use super::*;

    /// A command line as a shell splits it (single quotes, no expansions),
    /// without a redirection.
    fn words(line: &str) -> Vec<String> {
        let mut words = Vec::new();
        let (mut word, mut quoted, mut any) = (String::new(), false, false);
        for c in line.chars() {
            match c {
                '\'' => (quoted, any) = (!quoted, true),
                ' ' if !quoted => {
                    if any {
                        words.push(std::mem::take(&mut word));
                    }
                    any = false;
                }
                c => {
                    word.push(c);
                    any = true;
                }
            }
        }
        if any {
            words.push(word);
        }
        words
            .split(|w| w == ">")
            .next()
            .unwrap_or_default()
            .to_vec()
    }

    #[test]
    fn every_example_is_a_command_line_markport_accepts() {
        for (page, examples) in EXAMPLES {
            for (_, line) in *examples {
                let words = words(line);
                assert_eq!(words[0], "markport", "{line}");
                if let Err(e) = crate::Cli::command().try_get_matches_from(&words) {
                    panic!("the example of {page} does not parse: {line}\n{e}");
                }
            }
        }
    }

    #[test]
    fn every_page_has_examples() {
        let pages = pages(crate::Cli::command());
        for (name, _) in &pages {
            let key = name
                .strip_prefix("markport-")
                .map_or("markport".to_string(), |k| k.replace('-', " "));
            assert!(
                EXAMPLES.iter().any(|(k, e)| *k == key && !e.is_empty()),
                "no examples for {name}"
            );
        }
        assert_eq!(
            pages.len(),
            EXAMPLES.len(),
            "an example for a page that does not exist"
        );
    }
}
