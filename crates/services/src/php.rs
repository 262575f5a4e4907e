//! PHP's `serialize()` text, read into a flat tree with an explicit stack.
//!
//! The grammar is PHP's own (`ext/standard/var_unserializer.re`): `N;`,
//! `b:0;`, `i:-3;`, `d:0.5;`, `s:LEN:"BYTES";`, `a:COUNT:{KEY VALUE ...}`,
//! `O:LEN:"CLASS":COUNT:{NAME VALUE ...}`, `C:LEN:"CLASS":LEN:{DATA}`,
//! `E:LEN:"ENUM:CASE";`, and the back references `r:N;` and `R:N;`. A
//! string's length is in bytes, so a string may hold anything, quotes and
//! braces included.
//!
//! Every bound the input could stretch is checked before it is trusted:
//! the nesting depth ([`MAX_DEPTH`]), a declared count against the bytes left
//! (each entry takes at least four), a string's length against the bytes
//! left, and every value and list kept is charged to the reader's
//! [`Budget`]. Values are slices of the input; containers' entries are
//! moved once into one shared list when the container closes, so reading
//! is linear in the input.

use markport_model::Budget;

/// The deepest nesting read: Shaarli's deepest is four (the list, its
/// array, a bookmark, its date), and any real data stays far below.
pub(crate) const MAX_DEPTH: usize = 64;

/// What one value costs in the tree besides its bytes (its slot and its
/// entry in a container's list, with spare capacity).
const VALUE_COST: usize = 64;

/// One value; strings and names are slices of the input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Val<'a> {
    Null,
    Bool(bool),
    Int(i64),
    /// A float as written (`0.5`, `INF`, `NAN`).
    Float(&'a str),
    Str(&'a [u8]),
    /// An array: its entries are `Tree::entries(range)`.
    Array(Entries),
    /// An object of a class: its properties, named as PHP writes them
    /// (`\0*\0name` for a protected one, `\0Class\0name` for a private one).
    Object(&'a [u8], Entries),
    /// An object that serialized itself (`Serializable`): its class and
    /// its own text, not read.
    Custom(&'a [u8], &'a [u8]),
    /// An enum case (`Suit:Hearts`).
    Enum(&'a [u8]),
    /// A back reference to the value numbered so (1-based, in the order
    /// PHP numbers them).
    Ref(u64),
}

/// Where a container's entries lie in [`Tree::pairs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entries {
    start: u32,
    len: u32,
}

/// A read value and its entries: every key and value is an index into
/// `vals`, with its offset in the text.
pub(crate) struct Tree<'a> {
    vals: Vec<(usize, Val<'a>)>,
    pairs: Vec<(u32, u32)>,
    /// The values PHP numbers for back references, in order: every value
    /// but an array's keys and an object's property names, and but `R:`.
    numbered: Vec<u32>,
    /// The numbers before the records (`numbered[..prefix]`), and how many
    /// numbers the dropped records took after them.
    prefix: usize,
    skipped: u64,
    /// The top value.
    pub(crate) root: u32,
}

/// Why the text is not serialized PHP: what, and at which byte.
#[derive(Debug)]
pub(crate) struct PhpError {
    pub(crate) at: usize,
    pub(crate) message: String,
    /// The budget's refusal, when that is the reason.
    pub(crate) budget: Option<markport_model::Error>,
}

impl<'a> Tree<'a> {
    /// The value at index `i`, with its offset.
    pub(crate) fn get(&self, i: u32) -> (usize, Val<'a>) {
        self.vals[i as usize]
    }

    /// A container's entries as (key, value) indices.
    pub(crate) fn entries(&self, e: Entries) -> &[(u32, u32)] {
        &self.pairs[e.start as usize..(e.start + e.len) as usize]
    }

    /// A value with a back reference followed (once: PHP's references
    /// point at values, never at other references of the same kind that
    /// would need more).
    pub(crate) fn resolve(&self, i: u32) -> (usize, Val<'a>) {
        match self.get(i) {
            (at, Val::Ref(n)) => match n.checked_sub(1).and_then(|n| self.numbered(n)) {
                Some(&target) if !matches!(self.get(target).1, Val::Ref(_)) => self.get(target),
                _ => (at, Val::Null),
            },
            v => v,
        }
    }

    /// The value numbered `n` (0-based), unless it was in a dropped record.
    fn numbered(&self, n: u64) -> Option<&u32> {
        let prefix = self.prefix as u64;
        if n < prefix {
            self.numbered.get(n as usize)
        } else if n >= prefix + self.skipped {
            self.numbered.get((n - self.skipped) as usize)
        } else {
            None
        }
    }

    /// The property `name` of an object's entries, whatever its
    /// visibility, or the string key `name` of an array.
    pub(crate) fn member(&self, e: Entries, name: &str) -> Option<(usize, Val<'a>)> {
        self.entries(e).iter().rev().find_map(|&(k, v)| {
            let Val::Str(key) = self.get(k).1 else {
                return None;
            };
            (property(key) == name.as_bytes()).then(|| self.resolve(v))
        })
    }
}

/// A property's name without the visibility PHP writes before it.
pub(crate) fn property(key: &[u8]) -> &[u8] {
    match key.strip_prefix(b"\0") {
        Some(rest) => match rest.iter().position(|&b| b == 0) {
            Some(end) => &rest[end + 1..],
            None => key,
        },
        None => key,
    }
}

/// One open container.
struct Frame {
    /// Its index in `vals`.
    val: u32,
    /// Entries declared, and read so far (a key and a value each).
    count: u64,
    read: u64,
    /// Whether the next item is a key.
    key_next: bool,
    /// The key read, waiting for its value.
    key: u32,
    /// Where its entries start on the scratch stack.
    scratch: usize,
}

/// Whether the value about to be read is a record, from the open
/// containers (outermost first), each with its key for its next value.
pub(crate) type IsRecord<'a> = dyn Fn(&Tree<'a>, &[(u32, u32)]) -> Record + 'a;

/// What to do with a value once it is whole.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Record {
    /// Keep it in the tree.
    Keep,
    /// Hand it over, then drop it.
    Hand,
    /// Drop it unread (an index the reader has no use for).
    Drop,
}

/// What takes a record: the tree, the record's value, the budget to charge
/// what it keeps.
pub(crate) type OnRecord<'a, 'r> =
    dyn FnMut(&Tree<'a>, u32, &mut Budget) -> Result<(), markport_model::Error> + 'r;

/// Where a record began: what the tree held then, to go back to it once
/// the record is handed over.
struct Mark {
    /// The record's key (its value follows it).
    value: u32,
    /// Whether it is handed over before it is dropped.
    hand: bool,
    pairs: usize,
    numbered: usize,
    /// The budget as it was: a record's values are given back with it.
    budget: Budget,
}

/// Read `text` as one serialized value, and nothing after it.
///
/// A value that `is_record` names (from the open containers, outermost
/// first, each with the key its next value goes under) is handed to
/// `record` as soon as it is complete and then dropped from the tree, so
/// that a list of a million bookmarks never takes more than one of them;
/// its container is left without it. Values are charged to `budget` as
/// they are read, and a record's are given back when it is dropped. A
/// back reference into a dropped record reads as `N;`.
pub(crate) fn parse<'a>(
    text: &'a [u8],
    budget: &mut Budget,
    is_record: &IsRecord<'a>,
    record: &mut OnRecord<'a, '_>,
) -> Result<Tree<'a>, PhpError> {
    let mut p = Reader { text, pos: 0 };
    let mut tree = Tree {
        vals: Vec::new(),
        pairs: Vec::new(),
        numbered: Vec::new(),
        prefix: 0,
        skipped: 0,
        root: 0,
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut scratch: Vec<(u32, u32)> = Vec::new();
    let mut path: Vec<(u32, u32)> = Vec::new();
    let mut mark: Option<Mark> = None;
    loop {
        // The value just completed, if one was.
        let done = match stack.last() {
            // A container whose entries are all read closes here.
            Some(top) if top.read == top.count && top.key_next => {
                p.expect(b'}')?;
                let top = stack.pop().expect("a frame");
                let start = tree.pairs.len() as u32;
                let len = (scratch.len() - top.scratch) as u32;
                tree.pairs.extend(scratch.drain(top.scratch..));
                match &mut tree.vals[top.val as usize].1 {
                    Val::Array(e) | Val::Object(_, e) => *e = Entries { start, len },
                    _ => unreachable!("only containers have frames"),
                }
                top.val
            }
            _ => {
                let is_key = stack.last().is_some_and(|f| f.key_next);
                let at = p.pos;
                // A record is marked from its key on, so that the key
                // goes with it.
                if is_key && mark.is_none() {
                    path.clear();
                    path.extend(stack.iter().map(|f| (f.val, f.key)));
                    let what = if stack.is_empty() {
                        Record::Keep
                    } else {
                        is_record(&tree, &path)
                    };
                    if what != Record::Keep {
                        mark = Some(Mark {
                            value: tree.vals.len() as u32,
                            hand: what == Record::Hand,
                            pairs: tree.pairs.len(),
                            numbered: tree.numbered.len(),
                            budget: budget.clone(),
                        });
                        tree.prefix = tree.numbered.len();
                    }
                }
                let (val, opens) = p.value(is_key)?;
                budget.charge(VALUE_COST).map_err(|e| p.refused(at, e))?;
                let index =
                    u32::try_from(tree.vals.len()).map_err(|_| p.error(at, "too many values"))?;
                tree.vals.push((at, val));
                // `R:` takes no number; `r:` and every other value do.
                if !is_key && p.text[at] != b'R' {
                    tree.numbered.push(index);
                }
                if let Some(count) = opens {
                    if stack.len() >= MAX_DEPTH {
                        return Err(p.error(at, format!("nested deeper than {MAX_DEPTH} levels")));
                    }
                    stack.push(Frame {
                        val: index,
                        count,
                        read: 0,
                        key_next: true,
                        key: 0,
                        scratch: scratch.len(),
                    });
                    continue;
                }
                if is_key {
                    let top = stack.last_mut().expect("a key is inside a container");
                    top.key = index;
                    top.key_next = false;
                    continue;
                }
                index
            }
        };
        let Some(top) = stack.last_mut() else {
            break;
        };
        top.read += 1;
        top.key_next = true;
        match mark.take_if(|m| m.value + 1 == done) {
            Some(mut m) => {
                // What the record keeps is charged to the budget as it was
                // before the record's values, which go with the tree.
                let at = tree.vals[done as usize].0;
                if m.hand {
                    record(&tree, done, &mut m.budget).map_err(|e| p.refused(at, e))?;
                }
                tree.vals.truncate(m.value as usize);
                tree.pairs.truncate(m.pairs);
                tree.skipped += (tree.numbered.len() - m.numbered) as u64;
                tree.numbered.truncate(m.numbered);
                *budget = m.budget;
            }
            None => scratch.push((top.key, done)),
        }
    }
    if p.pos != text.len() {
        return Err(p.error(p.pos, "text after the serialized value"));
    }
    tree.root = 0;
    Ok(tree)
}

struct Reader<'a> {
    text: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn error(&self, at: usize, message: impl Into<String>) -> PhpError {
        PhpError {
            at,
            message: message.into(),
            budget: None,
        }
    }

    fn refused(&self, at: usize, e: markport_model::Error) -> PhpError {
        PhpError {
            at,
            message: e.message.clone(),
            budget: Some(e),
        }
    }

    fn expect(&mut self, b: u8) -> Result<(), PhpError> {
        match self.text.get(self.pos) {
            Some(&c) if c == b => {
                self.pos += 1;
                Ok(())
            }
            Some(&c) => Err(self.error(
                self.pos,
                format!("expected `{}`, found `{}`", b as char, c.escape_ascii()),
            )),
            None => Err(self.error(self.pos, format!("cut short: expected `{}`", b as char))),
        }
    }

    /// The bytes up to `end` (not included, and consumed).
    fn until(&mut self, end: u8, what: &str) -> Result<&'a [u8], PhpError> {
        let rest = &self.text[self.pos..];
        // A number or a float is short: a long run without its end is not
        // one, and is not scanned to the end of the text.
        let window = &rest[..rest.len().min(400)];
        match window.iter().position(|&b| b == end) {
            Some(n) => {
                let s = &rest[..n];
                self.pos += n + 1;
                Ok(s)
            }
            None => Err(self.error(self.pos, format!("{what} without its `{}`", end as char))),
        }
    }

    fn unsigned(&mut self, end: u8, what: &str) -> Result<u64, PhpError> {
        let at = self.pos;
        let digits = self.until(end, what)?;
        std::str::from_utf8(digits)
            .ok()
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| self.error(at, format!("{what} is not a number")))
    }

    /// `LEN:"BYTES"` with the closing quote; the bytes.
    fn quoted(&mut self, what: &str) -> Result<&'a [u8], PhpError> {
        let len = self.unsigned(b':', what)?;
        self.expect(b'"')?;
        let left = self.text.len() - self.pos;
        if len > left as u64 {
            return Err(self.error(
                self.pos,
                format!("{what} of {len} bytes, with {left} bytes left"),
            ));
        }
        let s = &self.text[self.pos..self.pos + len as usize];
        self.pos += len as usize;
        self.expect(b'"')?;
        Ok(s)
    }

    /// A declared count of entries, refused when the bytes left could not
    /// hold that many (each takes at least four: `N;N;`).
    fn count(&mut self, what: &str) -> Result<u64, PhpError> {
        let at = self.pos;
        let n = self.unsigned(b':', what)?;
        let left = (self.text.len() - self.pos) as u64;
        if n > left / 4 || n > u32::MAX as u64 {
            return Err(self.error(
                at,
                format!("{what} declares {n} entries, more than the {left} bytes left can hold"),
            ));
        }
        self.expect(b'{')?;
        Ok(n)
    }

    /// One value; with the count of entries it opens, for a container.
    fn value(&mut self, is_key: bool) -> Result<(Val<'a>, Option<u64>), PhpError> {
        let at = self.pos;
        let Some(&tag) = self.text.get(at) else {
            return Err(self.error(at, "cut short: a value expected"));
        };
        self.pos += 1;
        if tag != b'N' {
            self.expect(b':')?;
        }
        let key_ok = matches!(tag, b'i' | b's');
        if is_key && !key_ok {
            return Err(self.error(at, "a key that is not an integer or a string"));
        }
        let val = match tag {
            b'N' => {
                self.expect(b';')?;
                Val::Null
            }
            b'b' => match self.until(b';', "a boolean")? {
                b"0" => Val::Bool(false),
                b"1" => Val::Bool(true),
                _ => return Err(self.error(at, "a boolean that is not 0 or 1")),
            },
            b'i' => {
                let digits = self.until(b';', "an integer")?;
                let n = std::str::from_utf8(digits)
                    .ok()
                    .and_then(|d| d.parse::<i64>().ok())
                    .ok_or_else(|| self.error(at, "an integer that is not one"))?;
                Val::Int(n)
            }
            b'd' => {
                let text = self.until(b';', "a float")?;
                let text = std::str::from_utf8(text)
                    .ok()
                    .filter(|t| matches!(*t, "INF" | "-INF" | "NAN") || t.parse::<f64>().is_ok())
                    .ok_or_else(|| self.error(at, "a float that is not one"))?;
                Val::Float(text)
            }
            b's' => {
                let s = self.quoted("a string")?;
                self.expect(b';')?;
                Val::Str(s)
            }
            b'E' => {
                let s = self.quoted("an enum case")?;
                self.expect(b';')?;
                Val::Enum(s)
            }
            b'r' | b'R' => {
                let n = self.unsigned(b';', "a reference")?;
                Val::Ref(n)
            }
            b'a' => {
                let n = self.count("an array")?;
                return Ok((Val::Array(Entries { start: 0, len: 0 }), Some(n)));
            }
            b'O' => {
                let class = self.quoted("a class name")?;
                self.expect(b':')?;
                let n = self.count("an object")?;
                return Ok((Val::Object(class, Entries { start: 0, len: 0 }), Some(n)));
            }
            b'C' => {
                let class = self.quoted("a class name")?;
                self.expect(b':')?;
                let len = self.unsigned(b':', "an object's length")?;
                self.expect(b'{')?;
                let left = self.text.len() - self.pos;
                if len > left as u64 {
                    return Err(self.error(
                        self.pos,
                        format!("an object of {len} bytes, with {left} bytes left"),
                    ));
                }
                let data = &self.text[self.pos..self.pos + len as usize];
                self.pos += len as usize;
                self.expect(b'}')?;
                Val::Custom(class, data)
            }
            other => {
                return Err(self.error(
                    at,
                    format!(
                        "`{}` does not start a serialized value",
                        other.escape_ascii()
                    ),
                ))
            }
        };
        Ok((val, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use markport_model::ReadOptions;

    fn tree(text: &[u8]) -> Result<Tree<'_>, PhpError> {
        let budget = &mut Budget::new(&ReadOptions::default(), text.len());
        parse(text, budget, &|_, _| Record::Keep, &mut |_, _, _| Ok(()))
    }

    /// The entries of the top array are handed over one by one and leave
    /// nothing behind; a reference into one that is gone reads as null,
    /// one before them still resolves.
    #[test]
    fn records_are_handed_over_and_dropped() {
        let text = b"a:3:{i:0;a:1:{i:0;s:1:\"x\";}i:1;a:1:{i:0;s:1:\"y\";}s:1:\"r\";a:2:{i:0;r:3;i:1;r:1;}}";
        let budget = &mut Budget::new(&ReadOptions::default(), text.len());
        let mut seen = Vec::new();
        let t = parse(
            text,
            budget,
            &|t, path| match path {
                [(top, _)] if matches!(t.get(*top).1, Val::Array(_)) => Record::Hand,
                _ => Record::Keep,
            },
            &mut |t, v, _| {
                let (_, Val::Array(e)) = t.get(v) else {
                    panic!()
                };
                seen.push(t.resolve(t.entries(e)[0].1).1);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen[..2], [Val::Str(b"x"), Val::Str(b"y")]);
        // r:3 is the first record's string, gone; r:1 the top array.
        assert_eq!(seen[2], Val::Null);
        assert!(matches!(t.get(t.root).1, Val::Array(e) if t.entries(e).is_empty()));
    }

    #[test]
    fn objects_arrays_and_strings_with_any_bytes() {
        let text =
            b"O:3:\"Foo\":2:{s:6:\"\0*\0bar\";a:2:{i:0;s:5:\"a\";}\"\";i:1;d:0.5;}s:1:\"x\";r:2;}";
        let t = tree(text).unwrap();
        let (_, Val::Object(class, e)) = t.get(t.root) else {
            panic!()
        };
        assert_eq!(class, b"Foo");
        let Some((_, Val::Array(a))) = t.member(e, "bar") else {
            panic!()
        };
        assert_eq!(t.get(t.entries(a)[0].1).1, Val::Str(b"a\";}\""));
        assert_eq!(t.get(t.entries(a)[1].1).1, Val::Float("0.5"));
        // r:2 is the object's first property value: the array.
        assert!(matches!(t.member(e, "x"), Some((_, Val::Array(_)))));
    }

    #[test]
    fn lies_are_refused_where_they_are() {
        for (text, at, says) in [
            (&b"a:99999999:{}"[..], 2, "more than"),
            (b"s:50:\"ab\";", 6, "50 bytes"),
            (b"a:1:{i:0;N;", 11, "cut short"),
            (b"a:1:{d:0.5;N;}", 5, "key"),
            (b"i:12", 2, "without"),
            (b"N;N;", 2, "after"),
        ] {
            let e = tree(text).err().unwrap();
            assert_eq!(e.at, at, "{}: {}", text.escape_ascii(), e.message);
            assert!(e.message.contains(says), "{}", e.message);
        }
    }

    #[test]
    fn depth_is_bounded_without_recursion() {
        let deep = "a:1:{i:0;".repeat(100_000) + "N;" + &"}".repeat(100_000);
        let e = tree(deep.as_bytes()).err().unwrap();
        assert!(e.message.contains("deeper than 64"), "{}", e.message);
        let ok = "a:1:{i:0;".repeat(60) + "N;" + &"}".repeat(60);
        assert!(tree(ok.as_bytes()).is_ok());
    }
}
