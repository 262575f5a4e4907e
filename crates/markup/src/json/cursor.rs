//! A walk over a JSON text by its expected shape, on markup's pull parser:
//! the reader asks for the members of an object or the elements of an
//! array it knows, and every value it does not ask about is skipped
//! whole (iteratively, at any depth). The reader's own calls nest only as
//! deep as the layout it knows, so the input's depth never reaches the
//! call stack. Arc's sidebar and Zen's sessions are read through it.

use std::borrow::Cow;

use super::{Event, Parser, SyntaxError};
use markport_model::{Error, Location};

/// The parser and the reader's place in it.
pub struct Cursor<'a> {
    p: Parser<'a>,
}

/// A syntax error of the text, at its line and column.
pub fn syntax(e: SyntaxError) -> Error {
    Error::syntax(e.message, e.location)
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `input`.
    pub fn new(input: &'a [u8]) -> Cursor<'a> {
        Cursor {
            p: Parser::new(input),
        }
    }

    /// The line and column of a byte offset.
    pub fn locate(&self, at: usize) -> Location {
        self.p.locate(at)
    }

    /// The next event; the end of the text where a value was due is an
    /// error at the end.
    pub fn event(&mut self) -> Result<(usize, Event<'a>), Error> {
        match self.p.next().map_err(syntax)? {
            Some(e) => Ok(e),
            None => Err(Error::syntax(
                "the JSON text ends where a value was due",
                self.p.locate(self.p.pos()),
            )),
        }
    }

    /// Skip the value whose first event was just read.
    pub fn skip(&mut self, at: usize, first: &Event<'a>) -> Result<(), Error> {
        self.p.skip_value(at, first).map_err(syntax)?;
        Ok(())
    }

    /// Check the rest of the text (nothing may follow the top value).
    pub fn finish(self) -> Result<(), Error> {
        self.p.skip_all().map_err(syntax)
    }

    /// The members of the object whose `{` was just read: `member` is
    /// called with each key and must read (or skip) its value.
    pub fn members(
        &mut self,
        mut member: impl FnMut(&mut Self, &str) -> Result<(), Error>,
    ) -> Result<(), Error> {
        loop {
            let (at, e) = self.event()?;
            match e {
                Event::ObjectEnd => return Ok(()),
                Event::Key(k) => member(self, &k)?,
                other => {
                    return Err(Error::syntax(
                        format!("an object member was due, not {other:?}"),
                        self.locate(at),
                    ))
                }
            }
        }
    }

    /// The elements of the array whose `[` was just read: `element` is
    /// called with each element's first event and must read (or skip) it.
    pub fn elements(
        &mut self,
        mut element: impl FnMut(&mut Self, usize, Event<'a>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        loop {
            let (at, e) = self.event()?;
            if e == Event::ArrayEnd {
                return Ok(());
            }
            element(self, at, e)?;
        }
    }

    /// The next value when it is an object (its `{` read: read its
    /// members next): `Some(offset)`; anything else is skipped, `None`.
    pub fn object(&mut self) -> Result<Option<usize>, Error> {
        let (at, e) = self.event()?;
        if e == Event::ObjectStart {
            return Ok(Some(at));
        }
        self.skip(at, &e)?;
        Ok(None)
    }

    /// The next value when it is an array (its `[` read); anything else
    /// is skipped, `None`.
    pub fn array(&mut self) -> Result<Option<usize>, Error> {
        let (at, e) = self.event()?;
        if e == Event::ArrayStart {
            return Ok(Some(at));
        }
        self.skip(at, &e)?;
        Ok(None)
    }

    /// The next value when it is an array: `object` is called with each
    /// object in it (its `{` read; `at` its offset) and must read its
    /// members; anything else in the array, or instead of it, is skipped.
    pub fn objects(
        &mut self,
        mut object: impl FnMut(&mut Self, usize) -> Result<(), Error>,
    ) -> Result<(), Error> {
        if self.array()?.is_none() {
            return Ok(());
        }
        self.elements(|c, at, e| {
            if e == Event::ObjectStart {
                object(c, at)
            } else {
                c.skip(at, &e)
            }
        })
    }

    /// The next value when it is a string; anything else is skipped.
    pub fn string(&mut self) -> Result<Option<Cow<'a, str>>, Error> {
        let (at, e) = self.event()?;
        match e {
            Event::Str(s) => Ok(Some(s)),
            other => {
                self.skip(at, &other)?;
                Ok(None)
            }
        }
    }

    /// The next value when it is a number (as written); anything else is
    /// skipped.
    pub fn number(&mut self) -> Result<Option<&'a str>, Error> {
        let (at, e) = self.event()?;
        match e {
            Event::Num(n) => Ok(Some(n)),
            other => {
                self.skip(at, &other)?;
                Ok(None)
            }
        }
    }

    /// The next value when it is `true` or `false`; anything else is
    /// skipped.
    pub fn boolean(&mut self) -> Result<Option<bool>, Error> {
        let (at, e) = self.event()?;
        match e {
            Event::Bool(b) => Ok(Some(b)),
            other => {
                self.skip(at, &other)?;
                Ok(None)
            }
        }
    }

    /// Skip the next value.
    pub fn skip_next(&mut self) -> Result<(), Error> {
        let (at, e) = self.event()?;
        self.skip(at, &e)
    }
}

/// `e` at `location` when it has no place of its own (a budget refused,
/// found while reading the value that starts there).
pub fn placed(mut e: Error, location: Location) -> Error {
    if e.location.is_none() {
        e.location = Some(location);
    }
    e
}
