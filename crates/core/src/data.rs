//! Results as plain data (serde): the one shape the Python `to_dict()` gives and pickles store.
//!
//! The shape is derived on the result types themselves (`Settlement`, `Solved` and their parts)
//! with the helpers below: enums are written by their data names, rank triples and card codes
//! as lists, a hand rank as its `raw` integer, a setting as its text. Rebuilding a value from
//! data is serde (which refuses wrong types, unknown names, invalid cards and ranks) followed by
//! the value's one consistency check, [`Record::validate`]; [`rebuild`] runs both and words
//! every failure the same way.

use crate::card::parse_cards;
use crate::error::{Error, Result};
use crate::eval::HandRank;
use crate::rules::{NaturalKind, Row};
use crate::setting::Setting;
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt::Display;

/// A result that is stored as data and can be rebuilt from it.
pub trait Record: Serialize + DeserializeOwned {
    /// What the data is called in messages (the Python class name).
    const WHAT: &'static str;
    /// What must hold between the fields of a rebuilt value; serde has already checked each
    /// field on its own. Errors come from [`damaged`].
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

/// The error for data of `what` that is not what `to_dict()` gives.
pub fn damaged(what: &str, reason: impl Into<String>) -> Error {
    Error::InvalidShape {
        what: format!("{what} data"),
        expected: "what to_dict() returns".into(),
        got: reason.into(),
    }
}

/// A value read from data (`parsed`: what the deserializer made of it), checked once.
pub fn rebuild<T: Record, E: Display>(parsed: std::result::Result<T, E>) -> Result<T> {
    let value = parsed.map_err(|e| damaged(T::WHAT, e.to_string()))?;
    value.validate()?;
    Ok(value)
}

/// Serde for an enum as its data name: `$name(value)` out, a search of `$all` in.
macro_rules! by_name {
    ($ty:ty, $what:literal, $all:expr, $name:expr) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(
                &self,
                s: S,
            ) -> std::result::Result<S::Ok, S::Error> {
                s.serialize_str($name(*self))
            }
        }
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(
                d: D,
            ) -> std::result::Result<Self, D::Error> {
                let name = <String as serde::Deserialize>::deserialize(d)?;
                $all.into_iter().find(|v| $name(*v) == name).ok_or_else(|| {
                    <D::Error as serde::de::Error>::custom(format!("{} {name:?}", $what))
                })
            }
        }
    };
}
pub(crate) use by_name;

by_name!(Row, "row", Row::ALL, Row::name);
by_name!(NaturalKind, "natural", NaturalKind::ALL, NaturalKind::name);

impl Serialize for HandRank {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_u32(self.raw())
    }
}

impl<'de> Deserialize<'de> for HandRank {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let raw = u32::deserialize(d)?;
        HandRank::checked_from_raw(raw).ok_or_else(|| D::Error::custom(format!("rank {raw}")))
    }
}

/// A setting as its text, `front / middle / back`, the cards in the order they were set.
impl Serialize for Setting {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Setting {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let rows: Vec<&str> = text.split('/').collect();
        let [front, middle, back] = rows[..] else {
            return Err(D::Error::custom(format!("setting {text:?}")));
        };
        let row = |r: &str| parse_cards(r).map_err(D::Error::custom);
        Setting::new(&row(front)?, &row(middle)?, &row(back)?).map_err(D::Error::custom)
    }
}

/// A fixed-size array written as a list (serde writes arrays as tuples).
pub mod list {
    use super::*;

    /// Writes the array as a list.
    pub fn serialize<S: Serializer, T: Serialize, const N: usize>(
        v: &[T; N],
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(v)
    }

    /// Reads the array from a list of exactly `N` items.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>, const N: usize>(
        d: D,
    ) -> std::result::Result<[T; N], D::Error> {
        sized(Vec::deserialize(d)?)
    }

    pub(super) fn sized<T, E: serde::de::Error, const N: usize>(
        v: Vec<T>,
    ) -> std::result::Result<[T; N], E> {
        let got = v.len();
        v.try_into()
            .map_err(|_| E::custom(format!("{got} values where {N} belong")))
    }
}

/// [`list`] for an optional array.
pub mod opt_list {
    use super::*;

    /// Writes the array as a list, `None` as null.
    pub fn serialize<S: Serializer, T: Serialize, const N: usize>(
        v: &Option<[T; N]>,
        s: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        v.as_ref().map(|a| &a[..]).serialize(s)
    }

    /// Reads the array from a list of exactly `N` items, or null as `None`.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>, const N: usize>(
        d: D,
    ) -> std::result::Result<Option<[T; N]>, D::Error> {
        Option::<Vec<T>>::deserialize(d)?
            .map(list::sized)
            .transpose()
    }
}
