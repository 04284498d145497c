//! The identity of a set of strategy tables ([solve: Strategy tables](https://chinese-poker.github.io/chinese-poker/guide/solve/#strategy-tables)): where they
//! came from and a digest of what they hold. Every result played by the table objective (a
//! solution, a batch, a simulation's or duel's provenance, the service's answers) carries it, so
//! that two results made by different tables never look alike.

use super::table_ev::OutcomeTables;
use crate::data::by_name;
use crate::digest::Hasher;
use serde::{Deserialize, Serialize};

/// Where the tables a rule set plays with came from, in the order they are looked for.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum TablesSource {
    /// A file the caller named.
    File,
    /// Installed in the user tables directory for the rule set and table size.
    Installed,
    /// Shipped with the package for the rule set and table size.
    Shipped,
    /// None were trained for the rule set: the plain tables of its wheel stand in.
    Fallback,
}
crate::named!(TablesSource {
    File => "file",
    Installed => "installed",
    Shipped => "shipped",
    Fallback => "fallback" / "fallback (the plain tables of the wheel)",
});
by_name!(
    TablesSource,
    "tables source",
    TablesSource::ALL,
    TablesSource::name
);

/// Which tables: their source and the digest of their content ([`OutcomeTables::digest`]).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct TablesId {
    /// Where the tables came from: a file named, installed, shipped, or the fallback.
    pub source: TablesSource,
    /// SHA-256 of the tables' content, 64 hex digits.
    pub digest: String,
}

impl TablesId {
    /// The digest's first 12 hex digits, as text shows it.
    pub fn short(&self) -> &str {
        &self.digest[..self.digest.len().min(12)]
    }
}

impl OutcomeTables {
    /// SHA-256 of what decides play: the wheel, the three row distributions (as normalised,
    /// exact to the bit), the scoop rate and the model. Not the file's bytes (compression and
    /// the training's timings differ between two files of the same tables), nor the rule set
    /// they were trained for (which results name on their own).
    pub fn digest(&self) -> String {
        let mut h = Hasher::default();
        h.text("chinese-poker tables 1").text(self.wheel.name());
        for d in &self.dist {
            h.floats(d);
        }
        h.floats(&[self.scoop_rate]);
        h.text(&crate::digest::sorted_keys(&self.model.to_data()).to_string());
        h.hex()
    }
}

impl crate::data::Record for TablesId {
    const WHAT: &'static str = "TablesId";
    /// A digest of 64 lower-case hex digits.
    fn validate(&self) -> crate::error::Result<()> {
        if crate::digest::is_hex_digest(&self.digest) {
            Ok(())
        } else {
            Err(crate::data::damaged(
                Self::WHAT,
                format!("digest {:?} is not 64 hex digits", self.digest),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Wheel;

    #[test]
    fn digest_follows_content_only() {
        let a = OutcomeTables::random_rows(Wheel::Low);
        let mut b = a.clone();
        assert_eq!(a.digest(), b.digest());
        assert_eq!(a.digest().len(), 64);
        b.scoop_rate = (b.scoop_rate + 0.01).min(1.0);
        assert_ne!(a.digest(), b.digest());
        let mut c = a.clone();
        c.dist[1][7] = f64::from_bits(c.dist[1][7].to_bits() ^ 1);
        assert_ne!(a.digest(), c.digest());
        assert_ne!(
            a.digest(),
            OutcomeTables::random_rows(Wheel::Second).digest()
        );
    }
}
