//! The report as one self-contained page: no script, no external file; a
//! table of checks by result, coloured by how much of each was kept, with
//! the failing paths, and the files the tool failed on.

use std::fmt::Write as _;

use crate::Report;

/// `s` for HTML text or an attribute, its control characters shown
/// escaped as in the text report (line breaks kept for `<pre>`).
fn esc(s: &str) -> String {
    let s = crate::report::shown(s, true);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:70em;color:#1d1d1f;padding:0 1em}
h1{font-size:1.5em;margin-bottom:.2em}code{font-size:.95em;background:#f2f2f4;padding:.1em .3em;border-radius:3px}
.verdict{display:inline-block;padding:.3em .8em;border-radius:4px;font-weight:600;color:#fff}
.pass{background:#1a7f37}.fail{background:#c62828}
table{border-collapse:collapse;width:100%;margin:1em 0}th,td{padding:.35em .6em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
th{background:#f6f6f8}td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.kept td.res{background:#dcf5e0}tr.some td.res{background:#fff1c2}tr.none td.res{background:#ffd6d6}
.lvl{font-size:.8em;font-weight:600;text-transform:uppercase;padding:.1em .4em;border-radius:3px}
.must{background:#ffe0e0;color:#8a1010}.should{background:#fff0cc;color:#7a5200}.may{background:#e6eefc;color:#1f3f7a}
ul.paths{margin:.2em 0;padding-left:1.2em;font-size:.88em;color:#444}ul.paths li{overflow-wrap:anywhere}td.res{white-space:nowrap}
pre{background:#f6f6f8;padding:.5em;white-space:pre-wrap;font-size:.85em}";

impl Report {
    /// The report as one HTML page, everything inline.
    pub fn to_html(&self) -> String {
        let mut s = String::new();
        let failed = self.files.iter().filter(|f| f.failure.is_some()).count();
        let _ = write!(
            s,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width\">\
             <title>markport conformance: {from} to {to}</title><style>{STYLE}</style></head><body>\
             <h1>Conformance: {from} &rarr; {to} ({mode})</h1>\
             <p>Command: <code>{cmd}</code><br>{n} files; tool {tool:.3} s, run {total:.3} s</p>\
             <p><span class=\"verdict {class}\">{verdict}</span></p>",
            from = esc(self.from),
            to = esc(self.to),
            mode = self.mode.name(),
            cmd = esc(&self.command),
            n = self.files.len(),
            tool = self.tool_seconds,
            total = self.total_seconds,
            class = if self.passed { "pass" } else { "fail" },
            verdict = esc(&self.verdict()),
        );
        let fixes = self.fix_first();
        if !fixes.is_empty() {
            s.push_str("<h2>Fix first</h2><ol>");
            for f in &fixes {
                let _ = write!(s, "<li>{}</li>", esc(f));
            }
            s.push_str("</ol>");
        }
        s.push_str(
            "<table><thead><tr><th>Level</th><th>Check</th><th>Files</th><th>Values</th>\
             <th>Kept</th><th>Changed</th><th>Lost</th><th>Result</th><th>Where</th></tr></thead><tbody>",
        );
        for c in &self.checks {
            let t = &c.tally;
            let class = if t.all_kept() {
                "kept"
            } else if t.kept > 0 {
                "some"
            } else {
                "none"
            };
            // Counts, not a percentage: 5,031 of 5,032 is not "100%".
            let result = if t.all_kept() {
                format!("all {} kept", t.values)
            } else {
                format!("{} of {} kept", t.kept, t.values)
            };
            let _ = write!(
                s,
                "<tr class=\"{class}\"><td><span class=\"lvl {lvl}\">{lvl}</span></td><td><code>{check}</code></td>\
                 <td class=\"n\">{files}</td><td class=\"n\">{values}</td><td class=\"n\">{kept}</td>\
                 <td class=\"n\">{changed}</td><td class=\"n\">{lost}</td><td class=\"res n\">{result}</td><td>",
                lvl = c.level.name(),
                check = esc(c.check),
                files = c.files,
                values = t.values,
                kept = t.kept,
                changed = t.changed,
                lost = t.lost,
            );
            for (what, count, paths) in [
                ("changed", t.changed, &t.changed_paths),
                ("lost", t.lost, &t.lost_paths),
            ] {
                if paths.is_empty() {
                    continue;
                }
                let _ = write!(s, "{what}:<ul class=\"paths\">");
                for p in paths {
                    let _ = write!(s, "<li>{}</li>", esc(p));
                }
                if count > paths.len() {
                    let _ = write!(s, "<li>&hellip; {} more</li>", count - paths.len());
                }
                s.push_str("</ul>");
            }
            if !t.examples.is_empty() {
                s.push_str("first values, before &rarr; after:<ul class=\"paths\">");
                for e in &t.examples {
                    let after = e
                        .after
                        .as_deref()
                        .map_or_else(|| "(lost)".to_owned(), crate::report::quoted);
                    let _ = write!(
                        s,
                        "<li><code>{}</code> &rarr; <code>{}</code> at {}</li>",
                        esc(&crate::report::quoted(&e.before)),
                        esc(&after),
                        esc(&e.path)
                    );
                }
                s.push_str("</ul>");
            }
            s.push_str("</td></tr>");
        }
        s.push_str("</tbody></table>");
        if failed > 0 {
            s.push_str("<h2>Files the tool failed on</h2><table><thead><tr><th>File</th><th>Failure</th><th>Standard error (end)</th></tr></thead><tbody>");
            for f in &self.files {
                if let Some(fail) = &f.failure {
                    let _ = write!(
                        s,
                        "<tr class=\"none\"><td><code>{}</code></td><td class=\"res\">{}</td><td><pre>{}</pre></td></tr>",
                        esc(&f.file),
                        esc(&fail.message),
                        stderr_html(fail)
                    );
                }
            }
            s.push_str("</tbody></table>");
        }
        s.push_str("<h2>Files</h2><table><thead><tr><th>File</th><th>Must kept</th><th>Changed</th><th>Lost</th><th>Tool time</th></tr></thead><tbody>");
        for f in &self.files {
            let _ = write!(
                s,
                "<tr class=\"{}\"><td><code>{}</code></td><td class=\"res\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:.3} s</td></tr>",
                if f.must_kept { "kept" } else { "none" },
                esc(&f.file),
                if f.must_kept { "yes" } else { "no" },
                f.changed,
                f.lost,
                f.seconds
            );
        }
        s.push_str("</tbody></table><p>Levels and comparison rules: markport's docs/conformance.md.</p></body></html>\n");
        s
    }
}

/// The kept end of a failure's standard error, with a note of what was cut.
fn stderr_html(fail: &crate::Failure) -> String {
    let mut s = String::new();
    if fail.stderr_cut > 0 {
        let _ = writeln!(s, "&hellip; ({} bytes cut)", fail.stderr_cut);
    }
    s.push_str(&esc(&fail.stderr));
    s
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn markup_in_paths_is_escaped() {
        assert_eq!(
            esc("<a href='x'>&</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;"
        );
    }
}
