//! The GUIDs markport gives Chromium nodes that have none it can use.

use crate::md5::Md5;

/// A GUID as `base::Uuid` parses it: 8-4-4-4-12 hex digits.
pub(crate) fn valid_guid(g: &str) -> bool {
    let b = g.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// A name-based GUID in version-4 form: the MD5 of `seed` and `n` with the
/// version nibble set to 4 and the variant bits to `10`, lowercase, as
/// Chromium's own random (`base::Uuid::GenerateRandomV4`) GUIDs are. It is
/// not random: the same input always gets the same GUIDs, so writing a
/// document twice gives the same file. (A true name-based UUID from MD5 is
/// version 3; Chromium makes only version 4, so the form follows Chromium.)
pub(crate) fn derived_v4_guid(seed: &str, n: u64) -> String {
    let mut m = Md5::default();
    m.update(seed.as_bytes());
    m.update(&n.to_le_bytes());
    let mut b = m.digest();
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let mut out = String::with_capacity(36);
    for (i, byte) in b.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_guids_are_lowercase_version_4_rfc_4122_variant_and_stable() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..2000 {
            let g = derived_v4_guid("seed", n);
            assert!(valid_guid(&g), "{g}");
            let parsed = uuid::Uuid::parse_str(&g).unwrap();
            assert_eq!(parsed.get_version_num(), 4, "{g}");
            assert_eq!(parsed.get_variant(), uuid::Variant::RFC4122, "{g}");
            // Chromium writes and compares GUIDs in lowercase.
            assert_eq!(g, parsed.hyphenated().to_string());
            assert!(seen.insert(g.clone()), "{g} twice");
            assert_eq!(g, derived_v4_guid("seed", n));
        }
        assert_ne!(derived_v4_guid("seed", 0), derived_v4_guid("other", 0));
    }

    #[test]
    fn the_guid_form_chromium_parses() {
        assert!(valid_guid("00000000-0000-4000-8000-000000000000"));
        assert!(!valid_guid("00000000-0000-4000-8000-00000000000"));
        assert!(!valid_guid("00000000_0000-4000-8000-000000000000"));
        assert!(!valid_guid("0000000g-0000-4000-8000-000000000000"));
    }
}
