//! A result's fingerprint: the SHA-256 of what it is, as hex.

use sha2::{Digest, Sha256};

/// The first 32 hex digits of the SHA-256 of `parts`, each ended by a unit separator so that
/// `("ab", "c")` and `("a", "bc")` differ.
pub(super) fn of(parts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part.as_bytes());
        hasher.update([0x1f]);
    }
    hasher
        .finalize()
        .iter()
        .take(16)
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::of;

    #[test]
    fn the_same_parts_give_the_same_print_and_the_boundaries_count() {
        assert_eq!(of(&["a", "b"]), of(&["a", "b"]));
        assert_eq!(of(&["a", "b"]).len(), 32);
        assert_ne!(of(&["ab", "c"]), of(&["a", "bc"]));
        assert_ne!(of(&["a"]), of(&["a", ""]));
    }
}
