//! Mozilla's LZ4 container (`.jsonlz4`, `.baklz4`, `.mozlz4`): the magic
//! `mozLz40\0`, the decompressed size as a little-endian u32, then one LZ4
//! block.

use markport_model::{Error, ErrorKind};

/// The eight bytes every Mozilla LZ4 file starts with.
pub const MAGIC: &[u8; 8] = b"mozLz40\0";

/// How many times larger than its block a file may say it decompresses to.
/// LZ4 cannot do better than about 255:1, so a larger claim is a lie, and
/// refusing it keeps a forged size field from allocating gigabytes.
const MAX_RATIO: usize = 256;

fn invalid(offset: usize, message: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::Invalid,
        format!("Mozilla LZ4 file, at byte {offset}: {message}"),
        None,
    )
}

/// The bytes inside a Mozilla LZ4 file.
pub fn decompress(input: &[u8]) -> Result<Vec<u8>, Error> {
    if !input.starts_with(MAGIC) {
        return Err(invalid(0, "does not start with mozLz40\\0"));
    }
    let Some(size) = input.get(8..12) else {
        return Err(invalid(8, "the size field is cut off"));
    };
    let size = u32::from_le_bytes(size.try_into().expect("four bytes")) as usize;
    let block = &input[12..];
    let limit = block.len().saturating_mul(MAX_RATIO).max(64);
    if size > limit {
        return Err(invalid(
            8,
            format_args!(
                "the size field says {size} bytes, more than a {} byte block can hold",
                block.len()
            ),
        ));
    }
    let mut out = vec![0; size];
    match lz4_flex::block::decompress_into(block, &mut out) {
        Ok(n) if n == size => Ok(out),
        Ok(n) => Err(invalid(
            8,
            format_args!("the size field says {size} bytes but the block holds {n}"),
        )),
        Err(e) => Err(invalid(
            12,
            format_args!(
                "the LZ4 block does not decode to the {size} bytes the size field says ({e})"
            ),
        )),
    }
}

/// `data` as a Mozilla LZ4 file.
pub fn compress(data: &[u8]) -> Result<Vec<u8>, Error> {
    let size = u32::try_from(data.len()).map_err(|_| {
        Error::new(
            ErrorKind::Unwritable,
            "a Mozilla LZ4 file holds at most 4 GiB",
            None,
        )
    })?;
    let mut out = Vec::with_capacity(12 + data.len() / 2);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(&lz4_flex::block::compress(data));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let data = br#"{"type":"text/x-moz-place-container"}"#.repeat(100);
        assert_eq!(decompress(&compress(&data).unwrap()).unwrap(), data);
    }

    #[test]
    fn a_lying_size_is_refused_without_allocating_it() {
        let mut f = compress(b"hello hello hello hello").unwrap();
        f[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = decompress(&f).unwrap_err();
        assert!(e.message.contains("at byte 8"), "{e}");
        // Smaller than the block decodes to: the block runs past it.
        f[8..12].copy_from_slice(&5u32.to_le_bytes());
        let e = decompress(&f).unwrap_err();
        assert!(e.message.contains("at byte 12"), "{e}");
        // Larger than the block decodes to.
        f[8..12].copy_from_slice(&30u32.to_le_bytes());
        assert!(decompress(&f).unwrap_err().message.contains("holds 23"));
    }

    #[test]
    fn short_and_foreign_files_are_refused() {
        assert!(decompress(b"mozLz40\0\x01").is_err());
        assert!(decompress(b"{}").is_err());
    }
}
