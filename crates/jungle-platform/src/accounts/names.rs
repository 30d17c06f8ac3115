//! What a username and a password may be.

/// Usernames are 3 to 20 of `A-Z a-z 0-9 _ -`, starting with a letter. ASCII only: no look-alike letters
/// from other scripts, nothing that means anything in HTML, a URL path (`/@/NAME`) or a PGN tag.
pub const NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=20;
/// Passwords are 8 to 256 characters (any characters: they are only ever hashed).
pub const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=256;

/// Why a name cannot be a username.
pub fn check_name(name: &str) -> Result<(), String> {
    let fits = name.len() >= *NAME_CHARS.start() && name.len() <= *NAME_CHARS.end();
    let allowed = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let starts_with_letter = name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic());
    if fits && allowed && starts_with_letter {
        Ok(())
    } else {
        Err(format!(
            "a username is {} to {} letters, digits, _ or -, starting with a letter (A-Z)",
            NAME_CHARS.start(),
            NAME_CHARS.end()
        ))
    }
}

/// Why a password cannot be used.
pub fn check_password(password: &str) -> Result<(), String> {
    if PASSWORD_CHARS.contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(format!(
            "a password is {} to {} characters",
            PASSWORD_CHARS.start(),
            PASSWORD_CHARS.end()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_ascii_words_starting_with_a_letter() {
        for good in ["Ann", "a-b_c", "Z123456789012345678x"] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "ab",
            "1ann",
            "_ann",
            "ann smith",
            "<script>",
            "ann\u{0430}",   // Cyrillic a
            "\u{212A}elvin", // Kelvin sign
            "Z1234567890123456789x",
            "ann\0",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn passwords_are_8_to_256_characters() {
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(
            check_password(&"é".repeat(256)).is_ok(),
            "characters, not bytes"
        );
        assert!(check_password(&"x".repeat(257)).is_err());
    }
}
