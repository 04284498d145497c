//! Content digests: what names a rule set ([`crate::rules::Rules::digest`]) and a set of
//! strategy tables ([`crate::solve::OutcomeTables::digest`]) on every result, whatever file,
//! path or serialisation they came from. SHA-256, written as 64 lower-case hex digits.

use serde_json::{Map, Value};
use sha2::{Digest as _, Sha256};

/// SHA-256 fed piece by piece.
#[derive(Default)]
pub struct Hasher(Sha256);

impl Hasher {
    /// Adds bytes.
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update(bytes);
        self
    }

    /// Adds text, its length first so that two pieces cannot run into each other.
    pub fn text(&mut self, text: &str) -> &mut Self {
        self.bytes(&(text.len() as u64).to_le_bytes())
            .bytes(text.as_bytes())
    }

    /// Adds numbers as their little-endian IEEE bytes (the exact value, on every platform).
    pub fn floats(&mut self, values: &[f64]) -> &mut Self {
        self.bytes(&(values.len() as u64).to_le_bytes());
        for v in values {
            self.0.update(v.to_le_bytes());
        }
        self
    }

    /// The digest as 64 lower-case hex digits.
    pub fn hex(self) -> String {
        self.0
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// The digest of some bytes, as 64 lower-case hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let mut h = Hasher::default();
    h.bytes(bytes);
    h.hex()
}

/// Whether `text` is a digest as [`Hasher::hex`] writes it: 64 lower-case hex digits.
pub fn is_hex_digest(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// `value` with every object's keys in sorted (byte) order, at every depth: the canonical
/// layout of a JSON value, independent of the order its keys were written or read in.
pub fn sorted_keys(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let sorted: Map<String, Value> = keys
                .into_iter()
                .map(|k| (k.clone(), sorted_keys(&map[k])))
                .collect();
            Value::Object(sorted)
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted_keys).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_digest_and_sorted_keys() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let a: Value = serde_json::from_str(r#"{"b":{"y":1,"x":[{"d":1,"c":2}]},"a":0}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"a":0,"b":{"x":[{"c":2,"d":1}],"y":1}}"#).unwrap();
        assert_eq!(sorted_keys(&a).to_string(), sorted_keys(&b).to_string());
        assert_eq!(
            sorted_keys(&a).to_string(),
            r#"{"a":0,"b":{"x":[{"c":2,"d":1}],"y":1}}"#
        );
    }
}
