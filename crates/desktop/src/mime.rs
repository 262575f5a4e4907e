//! A MIME type from a file name, for bookmarks that come without one.

/// Where `mime_guess` and GLib's `g_content_type_guess` (shared-mime-info)
/// answer differently, GLib's answer: a desktop bookmark is GLib's, and a
/// file GLib registered carries these (measured with GLib 2.74).
const AS_GLIB_GUESSES: &[(&str, &str)] = &[
    ("xml", "application/xml"),
    ("xbel", "application/x-xbel"),
    ("rs", "text/rust"),
    ("c", "text/x-csrc"),
    ("py", "text/x-python"),
    ("sh", "application/x-shellscript"),
];

/// The MIME type the extension of `uri`'s last path segment suggests, else
/// `application/octet-stream` (the spec's answer for "unknown"). A web
/// address whose last segment has no extension is taken for a page.
pub fn mime_for(uri: &str) -> &'static str {
    let path = uri.split(['?', '#']).next().unwrap_or("");
    let name = path.rsplit('/').next().unwrap_or("");
    let ext = match name.rsplit_once('.') {
        Some((_, e)) => e.to_ascii_lowercase(),
        None if uri.starts_with("http:") || uri.starts_with("https:") => return "text/html",
        None => return "application/octet-stream",
    };
    AS_GLIB_GUESSES
        .iter()
        .find(|(e, _)| *e == ext)
        .map(|(_, m)| *m)
        .or_else(|| mime_guess::from_ext(&ext).first_raw())
        .unwrap_or("application/octet-stream")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_files_get_their_types() {
        for (uri, want) in [
            ("file:///a/report.pdf", "application/pdf"),
            ("file:///a/Photo.JPG", "image/jpeg"),
            ("file:///a/notes.txt?x#y", "text/plain"),
            (
                "file:///a/plan.odt",
                "application/vnd.oasis.opendocument.text",
            ),
            ("file:///a/page.xhtml", "application/xhtml+xml"),
        ] {
            assert_eq!(mime_for(uri), want, "{uri}");
        }
    }

    #[test]
    fn types_a_short_table_left_unknown_are_known() {
        for (uri, want) in [
            ("file:///a/data.csv", "text/csv"),
            ("file:///a/book.epub", "application/epub+zip"),
            ("file:///a/clip.mov", "video/quicktime"),
            ("file:///a/letter.rtf", "application/rtf"),
            ("file:///a/meeting.ics", "text/calendar"),
            ("file:///a/build.sh", "application/x-shellscript"),
        ] {
            assert_eq!(mime_for(uri), want, "{uri}");
        }
    }

    #[test]
    fn glib_answers_win_where_the_two_guessers_differ() {
        assert_eq!(mime_for("file:///a/b.xml"), "application/xml");
        assert_eq!(mime_for("file:///a/bookmarks.xbel"), "application/x-xbel");
        assert_eq!(mime_for("file:///src/main.rs"), "text/rust");
        assert_eq!(mime_for("file:///src/main.c"), "text/x-csrc");
        assert_eq!(mime_for("file:///src/main.py"), "text/x-python");
    }

    #[test]
    fn no_extension_is_a_page_on_the_web_and_unknown_elsewhere() {
        assert_eq!(mime_for("https://example.org/about"), "text/html");
        assert_eq!(mime_for("file:///a/README"), "application/octet-stream");
        assert_eq!(
            mime_for("file:///a/x.nosuchext"),
            "application/octet-stream"
        );
    }
}
