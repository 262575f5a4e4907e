//! Numbers written into output text without `fmt`: writers put one or more
//! in every node (counts, Unix seconds), and the formatting machinery cost
//! more than the rest of such an attribute.

/// Append `n` in decimal to `out`.
///
/// ```
/// let mut s = String::from("count=");
/// markport_markup::decimal::push_decimal(&mut s, 1_700_000_000);
/// assert_eq!(s, "count=1700000000");
/// ```
pub fn push_decimal(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
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
}
