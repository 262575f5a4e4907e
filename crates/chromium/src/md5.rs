//! MD5 (RFC 1321), only for Chromium's checksum: Chromium stores the MD5 of
//! the tree in every `Bookmarks` file and repairs a file whose sum differs.
//! The digest is the `md-5` crate's; this module feeds it as Chromium does.

use ::md5::{Digest, Md5 as Hasher};

/// An MD5 computation fed piece by piece.
#[derive(Clone, Default)]
pub struct Md5 {
    hasher: Hasher,
}

impl Md5 {
    /// Feed `data`.
    pub fn update(&mut self, data: &[u8]) {
        self.hasher.update(data);
    }

    /// One node of Chromium's checksum: its id (ASCII), its title
    /// (UTF-16LE), then `url` and the url for a url (`url: Some`), or
    /// `folder` for a folder, whose children follow.
    pub fn node(&mut self, id: &str, title: &str, url: Option<&str>) {
        self.update(id.as_bytes());
        for u in title.encode_utf16() {
            self.update(&u.to_le_bytes());
        }
        match url {
            Some(url) => {
                self.update(b"url");
                self.update(url.as_bytes());
            }
            None => self.update(b"folder"),
        }
    }

    /// The digest's 16 bytes.
    pub fn digest(self) -> [u8; 16] {
        self.hasher.finalize().into()
    }

    /// The digest as 32 lowercase hex digits, as Chromium writes it.
    pub fn hex(self) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut out = String::with_capacity(32);
        for b in self.digest() {
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Md5;

    fn md5(s: &[u8]) -> String {
        let mut m = Md5::default();
        m.update(s);
        m.hex()
    }

    #[test]
    fn rfc_1321_test_suite() {
        assert_eq!(md5(b""), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(md5(b"abc"), "900150983cd24fb0d6963f7d28e17f72");
        assert_eq!(
            md5(
                b"12345678901234567890123456789012345678901234567890123456789012345678901234567890"
            ),
            "57edf4a22be3c955ac49da2e2107b67a"
        );
    }

    #[test]
    fn pieces_give_the_same_sum_as_the_whole() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
        let mut m = Md5::default();
        for piece in data.chunks(13) {
            m.update(piece);
        }
        assert_eq!(m.hex(), md5(&data));
    }
}
