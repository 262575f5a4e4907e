//! Numbers written into output text without `fmt`: writers put one or more
//! in every node (counts, Unix seconds), and the formatting machinery cost
//! more than the rest of such an attribute.

/// Append `n` in decimal to `out` (with `itoa`: no `fmt` machinery).
///
/// ```
/// let mut s = String::from("count=");
/// markport_markup::decimal::push_decimal(&mut s, 1_700_000_000);
/// assert_eq!(s, "count=1700000000");
/// ```
pub fn push_decimal(out: &mut String, n: u64) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// Append the last `width` digits of `n` to `out`, zero-padded: `push_padded(out, 7, 2)`
/// writes `07`, as `{n:0width$}` does for a number with no more digits.
pub fn push_padded(out: &mut String, n: u64, width: u32) {
    for place in (0..width).rev() {
        out.push(char::from(b'0' + (n / 10u64.pow(place) % 10) as u8));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_display_writes_them() {
        for n in [0, 1, 9, 10, 99, 100, 4_294_967_295, u64::MAX] {
            let mut s = String::new();
            push_decimal(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }

    #[test]
    fn padded_numbers_are_written_as_format_pads_them() {
        for (n, width) in [
            (0, 2),
            (7, 2),
            (42, 2),
            (5, 6),
            (123_456, 6),
            (2026, 4),
            (999, 4),
        ] {
            let mut s = String::new();
            push_padded(&mut s, n, width);
            assert_eq!(s, format!("{n:0width$}", width = width as usize));
        }
    }
}
