//! The bearer token: the `Authorization` header, or for the pages the sign-in cookie.

/// The cookie a browser signed in with the token carries (the pages only; HttpOnly, SameSite).
pub const TOKEN_COOKIE: &str = "chinese_poker_token";

/// Whether `given` is `token`, compared in time that does not depend on where they differ.
pub fn token_matches(given: &str, token: &str) -> bool {
    let (a, b) = (given.as_bytes(), token.as_bytes());
    let mut diff = a.len() ^ b.len();
    for (i, t) in b.iter().enumerate() {
        diff |= usize::from(a.get(i).copied().unwrap_or(0) ^ t);
    }
    diff == 0
}

/// Whether an `Authorization` header value carries `token`: the scheme's name is
/// case-insensitive (RFC 9110), spaces around the token are not part of it.
pub fn bearer_matches(header: &str, token: &str) -> bool {
    let header = header.trim();
    let (scheme, given) = header.split_once(' ').unwrap_or((header, ""));
    scheme.eq_ignore_ascii_case("bearer") && token_matches(given.trim(), token)
}

/// The sign-in cookie's value in a `Cookie` header.
pub fn cookie_token(header: &str) -> Option<&str> {
    header.split(';').find_map(|pair| {
        let (name, value) = pair.trim().split_once('=')?;
        (name == TOKEN_COOKIE).then(|| value.trim_matches('"'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_and_cookie() {
        assert!(bearer_matches("Bearer s3cret", "s3cret"));
        assert!(bearer_matches("bearer  s3cret ", "s3cret"));
        assert!(!bearer_matches("Basic s3cret", "s3cret"));
        assert!(!bearer_matches("Bearer s3cre", "s3cret"));
        assert!(!bearer_matches("Bearer s3cretx", "s3cret"));
        assert!(!bearer_matches("", "s3cret"));
        assert_eq!(cookie_token("a=1; chinese_poker_token=xyz"), Some("xyz"));
        assert_eq!(cookie_token("a=1"), None);
    }
}
