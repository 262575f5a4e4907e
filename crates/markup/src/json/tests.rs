use super::*;

fn events(s: &str) -> Result<Vec<Event<'_>>, SyntaxError> {
    events_with(s, Options::default())
}

fn events_with(s: &str, options: Options) -> Result<Vec<Event<'_>>, SyntaxError> {
    let mut p = Parser::with_options(s.as_bytes(), options);
    let mut v = Vec::new();
    while let Some((_, e)) = p.next()? {
        v.push(e);
    }
    Ok(v)
}

fn error(s: &str) -> (ErrorKind, usize, String) {
    let e = events(s).unwrap_err();
    (e.kind, e.offset, e.location.to_string())
}

#[test]
fn reads_every_kind_of_value_with_its_offset() {
    let text = r#" {"a": [1, -2.5e3, true, false, null, {}, []], "b": "x"} "#;
    let mut p = Parser::new(text.as_bytes());
    let mut got = Vec::new();
    while let Some(e) = p.next().unwrap() {
        got.push(e);
    }
    use Event::*;
    assert_eq!(
        got,
        [
            (1, ObjectStart),
            (2, Key("a".into())),
            (7, ArrayStart),
            (8, Num("1")),
            (11, Num("-2.5e3")),
            (19, Bool(true)),
            (25, Bool(false)),
            (32, Null),
            (38, ObjectStart),
            (39, ObjectEnd),
            (42, ArrayStart),
            (43, ArrayEnd),
            (44, ArrayEnd),
            (47, Key("b".into())),
            (52, Str("x".into())),
            (55, ObjectEnd),
        ]
    );
}

#[test]
fn strings_without_escapes_are_borrowed() {
    let v = events(r#"["plain café", "esc\n"]"#).unwrap();
    assert!(matches!(&v[1], Event::Str(Cow::Borrowed("plain café"))));
    assert!(matches!(&v[2], Event::Str(Cow::Owned(s)) if s == "esc\n"));
}

#[test]
fn escapes_and_surrogate_pairs_decode() {
    let v = events(r#"["\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00\u0000 end"]"#).unwrap();
    assert_eq!(v[1], Event::Str("\"\\/\u{8}\u{c}\n\r\tAé€😀\0 end".into()));
}

#[test]
fn lone_surrogates_become_replacement_characters_and_are_kept() {
    // A high half at the end, a high half before a non-low escape, a low half alone.
    let text = r#"["a\ud800", "\ud800\u0041", "\udc00b"]"#;
    let mut p = Parser::new(text.as_bytes());
    let mut strings = Vec::new();
    while let Some((_, e)) = p.next().unwrap() {
        if let Event::Str(s) = e {
            strings.push(s.into_owned());
        }
    }
    assert_eq!(strings, ["a\u{fffd}", "\u{fffd}A", "\u{fffd}b"]);
    assert_eq!(p.lone_surrogates(), [3, 13, 29]);
    assert_eq!(p.locate(29).to_string(), "1:30");
}

#[test]
fn numbers_keep_their_text_and_follow_json_syntax() {
    for n in [
        "0",
        "-0",
        "12",
        "-1.5",
        "1e9",
        "1E+9",
        "2.5e-3",
        "123456789012345678901234567890",
    ] {
        assert_eq!(events(&format!("[{n}]")).unwrap()[1], Event::Num(n), "{n}");
    }
    for n in [
        "01", "1.", ".5", "-", "1e", "1e+", "+1", "1.2.3", "--1", "1-2",
    ] {
        let e = events(&format!("[{n}]")).unwrap_err();
        if n.starts_with(['.', '+']) {
            assert_eq!(e.kind, ErrorKind::Unexpected, "{n}");
        } else {
            assert_eq!((e.kind, e.offset), (ErrorKind::BadNumber, 1), "{n}: {e}");
        }
    }
}

#[test]
fn every_error_kind_says_where() {
    use ErrorKind::*;
    for (text, want) in [
        // Cut files: at the end, or at a string's opening quote.
        ("{\"a\": 1", (Truncated, 7, "1:8")),
        ("[1, 2", (Truncated, 5, "1:6")),
        ("{\n  \"roots\": {\n    \"bar\": {", (Truncated, 27, "3:13")),
        ("[\"abc", (Truncated, 1, "1:2")),
        ("[\"ab\\", (Truncated, 1, "1:2")),
        ("[\"\\u00", (Truncated, 6, "1:7")),
        ("[tr", (Truncated, 3, "1:4")),
        ("[-", (Truncated, 2, "1:3")),
        ("{\"a\"", (Truncated, 4, "1:5")),
        ("", (Truncated, 0, "1:1")),
        ("  \n ", (Truncated, 4, "2:2")),
        // Wrong tokens.
        ("{\"a\" 1}", (Unexpected, 5, "1:6")),
        ("[1 2]", (Unexpected, 3, "1:4")),
        ("{\"a\": 1 \"b\": 2}", (Unexpected, 8, "1:9")),
        ("{\"a\": tru}", (Unexpected, 6, "1:7")),
        ("{a: 1}", (Unexpected, 1, "1:2")),
        ("[,]", (Unexpected, 1, "1:2")),
        ("[1,,2]", (Unexpected, 3, "1:4")),
        ("{\"a\":1,,}", (Unexpected, 7, "1:8")),
        ("[1}", (Unexpected, 2, "1:3")),
        ("{\"a\":1]", (Unexpected, 6, "1:7")),
        ("not json", (Unexpected, 0, "1:1")),
        ("[\n\u{e9}]", (Unexpected, 2, "2:1")),
        // Escapes.
        ("[\"\\x\"]", (BadEscape, 2, "1:3")),
        ("[\"é\\u12G4\"]", (BadEscape, 4, "1:4")),
        ("[\"\\ud83d\\uXYZW\"]", (BadEscape, 8, "1:9")),
        // Numbers.
        ("[01]", (BadNumber, 1, "1:2")),
        // Commas before closers are not JSON unless asked for.
        ("[1,]", (TrailingComma, 2, "1:3")),
        ("{\"a\": 1 , }", (TrailingComma, 8, "1:9")),
        // After the value.
        ("{} x", (TrailingData, 3, "1:4")),
        ("[] []", (TrailingData, 3, "1:4")),
    ] {
        let got = error(text);
        assert_eq!(got, (want.0, want.1, want.2.to_string()), "{text:?}");
    }
    let bad = b"[\"ok\xff\"]";
    let e = Parser::new(bad).skip_all().unwrap_err();
    assert_eq!((e.kind, e.offset), (InvalidUtf8, 4));
    let e = Parser::new(b"[\"a\\n\xc3\"]").skip_all().unwrap_err();
    assert_eq!((e.kind, e.offset), (InvalidUtf8, 5));
}

#[test]
fn messages_say_what_was_wanted() {
    let e = events("[1 2]").unwrap_err();
    assert_eq!(e.to_string(), "1:4: expected `,` or `]`");
    let e = events("{\"a\":1,}").unwrap_err();
    assert_eq!(e.to_string(), "1:7: a comma before `}` (not JSON)");
    let e = events("[\"abc").unwrap_err();
    assert!(e.message.contains("truncated"), "{e}");
}

#[test]
fn trailing_commas_are_read_on_request_and_their_offsets_kept() {
    let text = "{\"a\":[1,],\n\"b\":2,}";
    let lenient = Options {
        trailing_commas: true,
    };
    let mut p = Parser::with_options(text.as_bytes(), lenient);
    let mut n = 0;
    while p.next().unwrap().is_some() {
        n += 1;
    }
    assert_eq!(n, 8);
    assert_eq!(p.trailing_commas(), [7, 16]);
    assert_eq!(p.locate(16).to_string(), "2:6");
    // Still not a value or a key: a lone comma is an error.
    for bad in ["[,]", "{,}", "[1,,]"] {
        let e = events_with(bad, lenient).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unexpected, "{bad}");
    }
}

#[test]
fn a_byte_order_mark_is_skipped() {
    assert_eq!(events("\u{feff}[]").unwrap().len(), 2);
}

#[test]
fn huge_strings_read_whole() {
    let big = "é".repeat(4 << 20);
    let text = format!("[\"{big}\", \"{}\\n\"]", "x".repeat(4 << 20));
    let v = events(&text).unwrap();
    assert_eq!(v[1], Event::Str(big.as_str().into()));
    match &v[2] {
        Event::Str(s) => assert_eq!(s.len(), (4 << 20) + 1),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_hundred_thousand_levels_cost_no_call_stack() {
    const DEPTH: usize = 100_000;
    let arrays = format!("{}{}", "[".repeat(DEPTH), "]".repeat(DEPTH));
    assert_eq!(events(&arrays).unwrap().len(), 2 * DEPTH);
    let objects = format!("{}1{}", "{\"k\":".repeat(DEPTH), "}".repeat(DEPTH));
    assert_eq!(events(&objects).unwrap().len(), 3 * DEPTH + 1);
    // Cut in the middle: an error, not a crash.
    let cut = &arrays[..DEPTH + 10];
    assert_eq!(events(cut).unwrap_err().kind, ErrorKind::Truncated);
}

#[test]
fn skip_value_returns_the_text_as_written_at_any_depth() {
    let deep = format!("{}{}", "[".repeat(50_000), "]".repeat(50_000));
    let text = format!("{{\"a\": {{\"x\": [1, \"y\"]}}, \"b\": {deep}, \"c\": 2.50}}");
    let mut p = Parser::new(text.as_bytes());
    let mut raw = Vec::new();
    while let Some((at, e)) = p.next().unwrap() {
        if matches!(e, Event::Key(_)) {
            let (at, first) = p.next().unwrap().unwrap();
            raw.push(p.skip_value(at, &first).unwrap());
        } else {
            let _ = at;
        }
    }
    assert_eq!(raw, ["{\"x\": [1, \"y\"]}", deep.as_str(), "2.50"]);
    assert_eq!(p.depth(), 0);
}

#[test]
fn value_at_reads_one_value_in_the_middle_of_a_text_and_stops() {
    let text = "{\"a\": [1, {\"b\": null}],\n \"c\": \"x\"}";
    let at = text.find('[').unwrap();
    let mut p = Parser::value_at(text.as_bytes(), at);
    let mut got = Vec::new();
    while let Some((_, e)) = p.next().unwrap() {
        got.push(e);
    }
    assert_eq!(
        got,
        [
            Event::ArrayStart,
            Event::Num("1"),
            Event::ObjectStart,
            Event::Key("b".into()),
            Event::Null,
            Event::ObjectEnd,
            Event::ArrayEnd
        ]
    );
    // Offsets and line:col are the whole text's.
    let at = text.find("\"x\"").unwrap();
    let mut p = Parser::value_at(text.as_bytes(), at);
    assert_eq!(p.next().unwrap(), Some((at, Event::Str("x".into()))));
    assert_eq!(p.locate(at).to_string(), "2:7");
    assert_eq!(p.next().unwrap(), None);
}

/// Skip the value at the top of `text` (inside `[`, so that a skip that
/// ends leaves the parser in an array) the fast way and the event loop's,
/// and say what each left: the text or error, where the parser stands,
/// what it recorded and what it reads next.
fn skip_both(text: &[u8], options: Options) -> [String; 2] {
    let mut out = [String::new(), String::new()];
    for (k, slot) in out.iter_mut().enumerate() {
        let mut p = Parser::with_options(text, options);
        p.next().unwrap();
        let Ok(Some((at, first))) = p.next() else {
            *slot = "no value".into();
            continue;
        };
        let got = if k == 0 {
            p.skip_value(at, &first)
        } else {
            // The event loop alone, as skip_value read before its scan.
            let base = p.depth();
            let mut r = Ok(());
            while r.is_ok() && p.depth() >= base {
                r = p.next().map(|_| ());
            }
            r.and_then(|()| p.utf8(at, p.pos()))
        };
        let then = p.next().map(|e| e.map(|(at, e)| (at, format!("{e:?}"))));
        *slot = format!(
            "{got:?} pos {} depth {} commas {:?} surrogates {:?} then {then:?}",
            p.pos(),
            p.depth(),
            p.trailing_commas(),
            p.lone_surrogates()
        );
    }
    out
}

#[test]
fn skipping_by_scan_leaves_what_the_event_loop_leaves() {
    let values: &[&[u8]] = &[
        br#"{"a": [1, -2.5e+3, true, false, null, "x\"y\\z\/\b\f\n\r\t\u00e9"], "b": {}}"#,
        br#"[[], {}, [{"k": []}], "caf\xc3\xa9"]"#,
        b"[\"\\ud83d\\ude00\", \"\\ud800\", \"\\udc00x\"]",
        b"{\"a\": 1,}",
        b"[1, 2 ,\n]",
        b"[1 2]",
        b"{\"a\" 1}",
        b"{\"a\": 01}",
        b"{\"a\": 1.}",
        b"[tru]",
        b"[truex]",
        b"[\"\\x\"]",
        b"[\"\\u12g4\"]",
        b"[\"\xff\"]",
        b"[\"ok\", \"\xe9t\xe9\"]",
        b"[\xc3\xa9]",
        b"{\"a\": [1, 2}",
        b"[1, 2",
        b"[\"open",
        b"[\"\\",
        b"{\"a\":",
        b"[{\"a\": 1}]]",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
        b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
        b"[ ]",
        b"{ }",
        b"[{}]",
        b"[{\"a\": {\"b\": [\"\\u0041\", {}]}}, []]",
    ];
    for value in values {
        for tail in [&b"]"[..], b", 3]", b"", b" x"] {
            let text = [b"[", *value, tail].concat();
            for trailing_commas in [false, true] {
                let options = Options { trailing_commas };
                let [fast, slow] = skip_both(&text, options);
                assert_eq!(fast, slow, "{}", String::from_utf8_lossy(&text));
            }
        }
    }
}

#[test]
fn strings_read_the_same_wherever_the_checked_stretches_end() {
    // Characters of two to four bytes at every offset across the first
    // stretches' ends (64, 192, 448 bytes), then bytes that are not UTF-8.
    for pad in 0..80 {
        let mut text = format!("[\"{}\"", "a".repeat(pad));
        let mut want = vec!["a".repeat(pad)];
        for k in 0..40 {
            let s = format!("{}é€😀{}", "b".repeat(k % 7), k);
            text.push_str(&format!(", \"{s}\", {k}"));
            want.push(s);
        }
        let mut bytes = text.clone().into_bytes();
        bytes.extend_from_slice(b"]");
        let mut p = Parser::new(&bytes);
        let mut got = Vec::new();
        while let Some((_, e)) = p.next().unwrap() {
            if let Event::Str(s) = e {
                got.push(s.into_owned());
            }
        }
        assert_eq!(got, want);

        let mut bad = text.into_bytes();
        let at = bad.len() + 3;
        bad.extend_from_slice(b", \"ok\xc3\x28\"]");
        let e = Parser::new(&bad).skip_all().unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::InvalidUtf8, at + 2));
    }
}

#[test]
fn the_end_of_a_string_is_found_at_any_offset_past_any_bytes() {
    // Each byte value before the quote or backslash (0x01 and 0x80 are
    // where a word-at-a-time search could go wrong), at every offset of
    // the first words and past them.
    for target in [b'"', b'\\'] {
        for len in 0..45 {
            for filler in [b'a', 0x01, 0x21, 0x23, 0x5b, 0x5d, 0x80, 0xa2, 0xdc, 0xff] {
                let mut b = vec![filler; len];
                b.push(target);
                b.extend_from_slice(b"\x01\"\\x");
                for from in 0..=len {
                    assert_eq!(quote_or_backslash(&b, from), Some(len));
                }
                assert_eq!(quote_or_backslash(&b[..len], 0), None);
            }
        }
    }
}
