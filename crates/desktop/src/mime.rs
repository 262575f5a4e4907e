//! A MIME type from a file name, for bookmarks that come without one.

/// The MIME type the extension of `uri`'s last path segment suggests, else
/// `application/octet-stream` (the spec's answer for "unknown").
pub fn mime_for(uri: &str) -> &'static str {
    let path = uri.split(['?', '#']).next().unwrap_or("");
    let name = path.rsplit('/').next().unwrap_or("");
    let ext = match name.rsplit_once('.') {
        Some((_, e)) => e.to_ascii_lowercase(),
        None if uri.starts_with("http:") || uri.starts_with("https:") => return "text/html",
        None => return "application/octet-stream",
    };
    match ext.as_str() {
        "html" | "htm" | "xhtml" => "text/html",
        "txt" | "text" => "text/plain",
        "md" => "text/markdown",
        "pdf" => "application/pdf",
        "ps" => "application/postscript",
        "odt" => "application/vnd.oasis.opendocument.text",
        "ods" => "application/vnd.oasis.opendocument.spreadsheet",
        "odp" => "application/vnd.oasis.opendocument.presentation",
        "doc" => "application/msword",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls" => "application/vnd.ms-excel",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "webp" => "image/webp",
        "mp3" => "audio/mpeg",
        "ogg" => "audio/ogg",
        "flac" => "audio/flac",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        "mkv" => "video/x-matroska",
        "zip" => "application/zip",
        "gz" => "application/gzip",
        "tar" => "application/x-tar",
        "xml" | "xbel" => "application/xml",
        "json" => "application/json",
        "rs" => "text/rust",
        "c" => "text/x-csrc",
        "py" => "text/x-python",
        _ => "application/octet-stream",
    }
}
