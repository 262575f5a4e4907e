//! Pinboard's JSON export (`posts/all`): an array of posts, each with its
//! `href`, a `time` in the W3C profile Pinboard writes, and `shared` and
//! `toread` as `yes` or `no` — every post, not only the first that fails.
//!
//! One pass over markup's JSON pull parser; a post's values are looked at
//! one level deep, anything deeper skipped.

use std::borrow::Cow;

use markport_markup::json::{Event, Parser};

use crate::problem::Sink;
use crate::rules::*;

/// Check a Pinboard export into `sink`.
pub(crate) fn check(input: &[u8], sink: &mut Sink<'_>) {
    let mut p = Parser::new(input);
    let syntax = |sink: &mut Sink<'_>, e: markport_markup::json::SyntaxError| {
        sink.at(
            &PINBOARD_NOT_JSON,
            e.offset,
            format!("{}; checking stops here", e.message),
        );
    };
    match p.next() {
        Ok(Some((_, Event::ArrayStart))) => {}
        Ok(Some((at, first))) => {
            sink.at(
                &PINBOARD_STRUCTURE,
                at,
                "a Pinboard export is a JSON array of posts",
            );
            let _ = p.skip_value(at, &first);
            return;
        }
        Ok(None) => {
            sink.at(&PINBOARD_NOT_JSON, 0, "the file is empty");
            return;
        }
        Err(e) => return syntax(sink, e),
    }
    loop {
        let (at, event) = match p.next() {
            Ok(Some(e)) => e,
            Ok(None) => return,
            Err(e) => return syntax(sink, e),
        };
        match event {
            Event::ArrayEnd => break,
            Event::ObjectStart => {}
            other => {
                sink.at(&PINBOARD_STRUCTURE, at, "a post must be a JSON object");
                if let Err(e) = p.skip_value(at, &other) {
                    return syntax(sink, e);
                }
                continue;
            }
        }
        let mut href = false;
        loop {
            let (key_at, key) = match p.next() {
                Ok(Some((_, Event::ObjectEnd))) => break,
                Ok(Some((key_at, Event::Key(k)))) => (key_at, k),
                Ok(_) => return,
                Err(e) => return syntax(sink, e),
            };
            let (value_at, value) = match p.next() {
                Ok(Some(v)) => v,
                Ok(None) => return,
                Err(e) => return syntax(sink, e),
            };
            let text: Option<Cow<'_, str>> = match &value {
                Event::Str(s) => Some(s.clone()),
                _ => None,
            };
            if let Err(e) = p.skip_value(value_at, &value) {
                return syntax(sink, e);
            }
            match (&*key, text) {
                ("href", Some(h)) if !h.trim().is_empty() => href = true,
                ("time", Some(t))
                    if !t.is_empty()
                        && markport_model::Timestamp::parse_w3c_strict(&t).is_none() =>
                {
                    sink.at(
                        &PINBOARD_BAD_DATE,
                        value_at,
                        format!(
                        "time {t:?} is not a date as Pinboard writes them (2023-11-14T22:13:20Z)"
                    ),
                    )
                }
                ("shared" | "toread", Some(f)) if f != "yes" && f != "no" => sink.at(
                    &PINBOARD_BAD_FLAG,
                    value_at,
                    format!("{key} is {f:?}; Pinboard writes yes or no"),
                ),
                ("href" | "time" | "shared" | "toread", None) => sink.at(
                    &PINBOARD_STRUCTURE,
                    key_at,
                    format!("`{key}` must be a string"),
                ),
                _ => {}
            }
        }
        if !href {
            sink.at(
                &PINBOARD_MISSING_HREF,
                at,
                "this post has no href: importers skip it",
            );
        }
    }
    // Nothing may follow the array.
    if let Err(e) = p.next() {
        syntax(sink, e);
    }
}
