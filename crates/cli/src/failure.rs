//! What a command that fails says: one style for every subcommand,
//! `markport: FILE:LINE:COL: error: MESSAGE`, with the file and the position
//! only when they are known (`markport: error: MESSAGE` otherwise).

use std::fmt;

use markport::model::display::{shown, MESSAGE_CHARS, VALUE_CHARS};
use markport::model::Location;

use crate::exit;

/// A failure the CLI reports and exits 2 on.
pub(crate) struct Failure {
    file: Option<String>,
    at: Option<Location>,
    message: String,
}

impl Failure {
    /// A failure about no file in particular.
    pub(crate) fn new(message: impl fmt::Display) -> Failure {
        Failure {
            file: None,
            at: None,
            message: message.to_string(),
        }
    }

    /// A failure about `file` (a path as shown, or `<stdin>`, `<stdout>`).
    pub(crate) fn in_file(file: impl fmt::Display, message: impl fmt::Display) -> Failure {
        Failure {
            file: Some(file.to_string()),
            ..Failure::new(message)
        }
    }

    /// A library error about `file`, at the error's position when it has one.
    pub(crate) fn located(file: impl fmt::Display, e: &markport::Error) -> Failure {
        Failure {
            at: e.location,
            ..Failure::in_file(file, &e.message)
        }
    }

    /// Print the failure on standard error; the exit code to return.
    pub(crate) fn report(&self) -> u8 {
        crate::say::err(format_args!("markport: {self}\n"));
        exit::ERROR
    }
}

/// A reader's warning or note about `file`, in the form of a failure:
/// `markport: FILE:LINE:COL: warning: MESSAGE`.
pub(crate) fn diagnostic_line(file: impl fmt::Display, d: &markport::Diagnostic) -> String {
    // A diagnostic about one file of a tree names it under the tree.
    let file = match &d.file {
        Some(inner) => format!("{file}/{}", shown(inner, VALUE_CHARS)),
        None => file.to_string(),
    };
    match d.location {
        Some(l) => format!(
            "markport: {file}:{}:{}: {}\n",
            l.line,
            l.column,
            without_location(d)
        ),
        None => format!("markport: {file}: {}\n", without_location(d)),
    }
}

/// The diagnostic's severity and message, without its position.
fn without_location(d: &markport::Diagnostic) -> String {
    let mut d = d.clone();
    d.location = None;
    d.file = None;
    d.to_string()
}

impl<T: std::error::Error> From<T> for Failure {
    fn from(e: T) -> Failure {
        Failure::new(e)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}:")?;
            if let Some(l) = self.at {
                write!(f, "{}:{}:", l.line, l.column)?;
            }
            f.write_str(" ")?;
        }
        // A message may quote the file (a tool's stderr, a value): shown
        // escaped and cut, as every value a person reads.
        write!(f, "error: {}", shown(&self.message, MESSAGE_CHARS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_warning_has_the_form_of_an_error() {
        let at = Location { line: 5, column: 7 };
        let d = markport::Diagnostic::warning("odd", Some(at));
        assert_eq!(
            diagnostic_line("a.html", &d),
            "markport: a.html:5:7: warning: odd\n"
        );
        let failure = Failure {
            at: Some(at),
            ..Failure::in_file("a.html", "odd")
        };
        assert_eq!(
            format!("markport: {failure}\n").replace("error", "warning"),
            diagnostic_line("a.html", &d)
        );
        let d = markport::Diagnostic::warning("odd", None);
        assert_eq!(
            diagnostic_line("a.html", &d),
            "markport: a.html: warning: odd\n"
        );
    }

    #[test]
    fn the_file_and_position_appear_only_when_known() {
        assert_eq!(Failure::new("bad").to_string(), "error: bad");
        assert_eq!(
            Failure::in_file("a.xbel", "bad").to_string(),
            "a.xbel: error: bad"
        );
        let xbel = markport::format("xbel").unwrap();
        let e =
            markport::read_bytes(b"<xbel>\n\n  <folder>", xbel, &Default::default()).unwrap_err();
        let at = e.location.expect("an XML error has a position");
        assert_eq!(
            Failure::located("a.xbel", &e).to_string(),
            format!("a.xbel:{}:{}: error: {}", at.line, at.column, e.message)
        );
    }
}
