//! Binary plists built byte by byte, as Apple's format describes them
//! (CFBinaryPList.c): objects, an offset table and a 32-byte trailer. The
//! plist crate's writer cannot make the shapes the reader must refuse (a
//! container that contains itself, containers shared many times), and a
//! file written here does not depend on the reader's own crate.
#![allow(dead_code)]

use std::io::Cursor;

use plist::stream::{BinaryWriter, Writer, XmlReader};

/// Objects of a binary plist, referred to by index.
#[derive(Default)]
pub struct Bplist {
    objects: Vec<Vec<u8>>,
}

/// References are 4 bytes wide: room for any count a test makes.
const REF: usize = 4;

fn length(marker: u8, n: usize, out: &mut Vec<u8>) {
    if n < 15 {
        out.push(marker | n as u8);
    } else {
        out.push(marker | 0x0F);
        out.push(0x12);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
}

impl Bplist {
    fn add(&mut self, bytes: Vec<u8>) -> u32 {
        self.objects.push(bytes);
        (self.objects.len() - 1) as u32
    }

    /// Reserve an object to fill in later (for a cycle).
    pub fn reserve(&mut self) -> u32 {
        self.add(Vec::new())
    }

    /// An ASCII string.
    pub fn string(&mut self, s: &str) -> u32 {
        assert!(s.is_ascii());
        let mut o = Vec::new();
        length(0x50, s.len(), &mut o);
        o.extend_from_slice(s.as_bytes());
        self.add(o)
    }

    /// A date: seconds since 2001-01-01T00:00:00Z.
    pub fn date(&mut self, since_2001: f64) -> u32 {
        let mut o = vec![0x33];
        o.extend_from_slice(&since_2001.to_be_bytes());
        self.add(o)
    }

    fn array_bytes(items: &[u32]) -> Vec<u8> {
        let mut o = Vec::new();
        length(0xA0, items.len(), &mut o);
        for r in items {
            o.extend_from_slice(&r.to_be_bytes());
        }
        o
    }

    fn dict_bytes(pairs: &[(u32, u32)]) -> Vec<u8> {
        let mut o = Vec::new();
        length(0xD0, pairs.len(), &mut o);
        for (k, _) in pairs {
            o.extend_from_slice(&k.to_be_bytes());
        }
        for (_, v) in pairs {
            o.extend_from_slice(&v.to_be_bytes());
        }
        o
    }

    /// An array of objects.
    pub fn array(&mut self, items: &[u32]) -> u32 {
        self.add(Self::array_bytes(items))
    }

    /// A dictionary of (key, value) objects.
    pub fn dict(&mut self, pairs: &[(u32, u32)]) -> u32 {
        self.add(Self::dict_bytes(pairs))
    }

    /// Fill a reserved object with a dictionary.
    pub fn set_dict(&mut self, at: u32, pairs: &[(u32, u32)]) {
        self.objects[at as usize] = Self::dict_bytes(pairs);
    }

    /// The file, with `root` as its top object.
    pub fn finish(&self, root: u32) -> Vec<u8> {
        let mut out = b"bplist00".to_vec();
        let mut offsets = Vec::with_capacity(self.objects.len());
        for o in &self.objects {
            offsets.push(out.len() as u64);
            out.extend_from_slice(o);
        }
        let table = out.len() as u64;
        for off in offsets {
            out.extend_from_slice(&off.to_be_bytes());
        }
        out.extend_from_slice(&[0; 6]);
        out.push(8); // offset size
        out.push(REF as u8);
        out.extend_from_slice(&(self.objects.len() as u64).to_be_bytes());
        out.extend_from_slice(&u64::from(root).to_be_bytes());
        out.extend_from_slice(&table.to_be_bytes());
        out
    }
}

/// An XML plist in binary, through the plist crate's own event streams.
pub fn xml_to_binary(xml: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = BinaryWriter::new(&mut out);
        for event in XmlReader::new(Cursor::new(xml)) {
            w.write(event.expect("the XML plist reads")).unwrap();
        }
    }
    out
}

/// A Safari store whose toolbar holds `leaves` built by `leaf(i)`, as XML.
pub fn store_xml(leaves: impl Iterator<Item = String>) -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<key>Children</key><array>\n\
         <dict><key>Title</key><string>BookmarksBar</string><key>WebBookmarkType</key><string>WebBookmarkTypeList</string>\n<key>Children</key><array>\n",
    );
    for l in leaves {
        s.push_str(&l);
    }
    s.push_str("</array></dict>\n</array>\n<key>WebBookmarkType</key><string>WebBookmarkTypeList</string>\n</dict>\n</plist>\n");
    s
}

/// One leaf, as Safari writes it.
pub fn leaf_xml(i: usize) -> String {
    format!(
        "<dict><key>URIDictionary</key><dict><key>title</key><string>Page {i} &amp; more</string></dict>\
         <key>URLString</key><string>https://example.org/{i}/page?q=markport</string>\
         <key>WebBookmarkType</key><string>WebBookmarkTypeLeaf</string>\
         <key>WebBookmarkUUID</key><string>{i:08X}-0000-4000-8000-000000000000</string></dict>\n"
    )
}
