//! What the table objective adds to its independent-rows formula, measured in self-play and
//! shipped with the tables ([architecture: The table objective's model](https://chinese-poker.github.io/chinese-poker/architecture/#the-table-objectives-model)).
//!
//! The row distributions say how strong an opponent's rows are one at a time. Treating the rows
//! as independent misjudges the events that depend on all three at once, and the formula
//! knows nothing of opponents who do not play their rows. Training measures each of these
//! against what the self-play table really does:
//!
//! - `scoop_for` / `scoop_against`: scoops observed over scoops the independent rows predict
//!   (`Σ Π pw` and `Σ Π pl` over the same matchups). A hand's rows are not independent (a
//!   strong back takes cards a strong middle needs), so the product misjudges scoops: MacePlay
//!   self-play sees 0.92 of the scoops it predicts for a hand and 1.02 of those against it.
//! - `sweep_rate`: how often a hand that scoops one opponent also scoops another: being swept
//!   means meeting such a hand, which is much likelier than two independent scoops.
//! - `natural_rate`, `natural_value`, `surrender_rate`: how often an opponent declares a natural
//!   (and what it is paid, in units per opponent) or surrenders instead of playing its rows.
//! - `calibration`: what a value still misses (the rows' correlation outside scoops, majority
//!   and overall points, the opponents' card removal), as a strictly increasing
//!   piecewise-linear map from the formula's value to the mean points realised in self-play. A
//!   strictly increasing map never changes which setting is best, so it moves values (and the
//!   natural and surrender decisions that compare them with fixed amounts) without moving plays.
//!
//! The default model changes nothing: factors 1, no natural or surrender, the identity map, and
//! the sweep rate taken to be the plain scoop rate (tables trained before the model existed).

use crate::error::{Error, Result};
use serde_json::{json, Map, Value};

/// A strictly increasing piecewise-linear map given by its knots, extended past the ends along
/// the end segments. No knots: the identity.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Calibration {
    knots: Vec<(f64, f64)>,
}

fn bad(field: &str, reason: impl Into<String>) -> Error {
    Error::InvalidRules {
        field: format!("tables.model.{field}"),
        reason: reason.into(),
    }
}

impl Calibration {
    /// Checks that the knots are finite and strictly increasing in both coordinates (at least
    /// two, or none).
    pub fn new(knots: Vec<(f64, f64)>) -> Result<Calibration> {
        if knots.len() == 1 {
            return Err(bad("calibration", "needs at least two knots (or none)"));
        }
        if let Some(i) = knots
            .iter()
            .position(|(x, y)| !x.is_finite() || !y.is_finite())
        {
            return Err(bad("calibration", format!("knot {i} is not finite")));
        }
        if let Some(i) = knots
            .windows(2)
            .position(|w| w[1].0 <= w[0].0 || w[1].1 <= w[0].1)
        {
            return Err(bad(
                "calibration",
                format!("knot {} does not increase on knot {i}", i + 1),
            ));
        }
        Ok(Calibration { knots })
    }

    /// The map's knots (formula value, calibrated value), increasing.
    pub fn knots(&self) -> &[(f64, f64)] {
        &self.knots
    }

    /// Whether the map changes nothing (no knots).
    pub fn is_identity(&self) -> bool {
        self.knots.is_empty()
    }

    fn segment(k: &[(f64, f64)], i: usize) -> ((f64, f64), (f64, f64)) {
        let i = i.clamp(1, k.len() - 1);
        (k[i - 1], k[i])
    }

    /// The calibrated value of a formula value.
    #[inline]
    pub fn apply(&self, x: f64) -> f64 {
        let k = &self.knots;
        if k.is_empty() {
            return x;
        }
        let (a, b) = Self::segment(k, k.partition_point(|p| p.0 <= x));
        a.1 + (x - a.0) * (b.1 - a.1) / (b.0 - a.0)
    }

    /// The formula value whose calibrated value is `y` (the map is strictly increasing).
    pub fn invert(&self, y: f64) -> f64 {
        let k = &self.knots;
        if k.is_empty() {
            return y;
        }
        let (a, b) = Self::segment(k, k.partition_point(|p| p.1 <= y));
        a.0 + (y - a.1) * (b.0 - a.0) / (b.1 - a.1)
    }
}

/// The measured corrections (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Probability that a setting of this policy scoops an opponent, beyond the rows' formula.
    pub scoop_for: f64,
    /// Probability that an opponent scoops such a setting, beyond the rows' formula.
    pub scoop_against: f64,
    /// `None`: the tables' plain scoop rate.
    pub sweep_rate: Option<f64>,
    /// Probability that an opponent declares a natural.
    pub natural_rate: f64,
    /// Mean value of an opponent's natural.
    pub natural_value: f64,
    /// Probability that an opponent surrenders.
    pub surrender_rate: f64,
    /// The map from formula values to realised points.
    pub calibration: Calibration,
}

impl Default for Model {
    fn default() -> Self {
        Model {
            scoop_for: 1.0,
            scoop_against: 1.0,
            sweep_rate: None,
            natural_rate: 0.0,
            natural_value: 0.0,
            surrender_rate: 0.0,
            calibration: Calibration::default(),
        }
    }
}

/// Largest scoop factor accepted: far above any measured one (about 1 to 3).
const MAX_SCOOP_FACTOR: f64 = 100.0;

impl Model {
    /// Checks every field's range.
    pub fn validate(&self) -> Result<()> {
        for (name, v) in [
            ("scoop_for", self.scoop_for),
            ("scoop_against", self.scoop_against),
        ] {
            if !(v.is_finite() && v > 0.0 && v <= MAX_SCOOP_FACTOR) {
                return Err(bad(name, format!("{v} is not a factor in (0, 100]")));
            }
        }
        let probability = |name: &str, v: f64| {
            if (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(bad(name, format!("{v} is not a probability")))
            }
        };
        if let Some(q) = self.sweep_rate {
            probability("sweep_rate", q)?;
        }
        probability("natural_rate", self.natural_rate)?;
        probability("surrender_rate", self.surrender_rate)?;
        probability(
            "natural_rate + surrender_rate",
            self.natural_rate + self.surrender_rate,
        )?;
        if !(self.natural_value.is_finite() && self.natural_value >= 0.0) {
            return Err(bad(
                "natural_value",
                format!("{} is not a non-negative amount", self.natural_value),
            ));
        }
        Ok(())
    }

    /// The data form shipped in a tables file's metadata.
    pub fn to_data(&self) -> Value {
        json!({
            "scoop_for": self.scoop_for,
            "scoop_against": self.scoop_against,
            "sweep_rate": self.sweep_rate,
            "natural_rate": self.natural_rate,
            "natural_value": self.natural_value,
            "surrender_rate": self.surrender_rate,
            "calibration": self.calibration.knots.iter().map(|&(x, y)| json!([x, y])).collect::<Vec<_>>(),
        })
    }

    /// Reads [`Model::to_data`]'s form; missing fields keep their defaults, unknown ones are
    /// refused.
    pub fn from_data(data: &Value) -> Result<Model> {
        let obj: &Map<String, Value> = data
            .as_object()
            .ok_or_else(|| bad("", "expected a JSON object"))?;
        let mut m = Model::default();
        let num = |name: &str, v: &Value| {
            v.as_f64()
                .ok_or_else(|| bad(name, format!("expected a number, got {v}")))
        };
        for (name, v) in obj {
            match name.as_str() {
                "scoop_for" => m.scoop_for = num(name, v)?,
                "scoop_against" => m.scoop_against = num(name, v)?,
                "sweep_rate" => {
                    m.sweep_rate = if v.is_null() {
                        None
                    } else {
                        Some(num(name, v)?)
                    }
                }
                "natural_rate" => m.natural_rate = num(name, v)?,
                "natural_value" => m.natural_value = num(name, v)?,
                "surrender_rate" => m.surrender_rate = num(name, v)?,
                "calibration" => {
                    let list = v
                        .as_array()
                        .ok_or_else(|| bad(name, "expected a list of [x, y] knots"))?;
                    let mut knots = Vec::with_capacity(list.len());
                    for (i, k) in list.iter().enumerate() {
                        match k.as_array().map(|p| p.as_slice()) {
                            Some([x, y]) => knots.push((
                                num(&format!("calibration[{i}]"), x)?,
                                num(&format!("calibration[{i}]"), y)?,
                            )),
                            _ => return Err(bad(name, format!("knot {i} is not [x, y]"))),
                        }
                    }
                    m.calibration = Calibration::new(knots)?;
                }
                other => return Err(bad(other, "unknown field")),
            }
        }
        m.validate()?;
        Ok(m)
    }

    /// [`Model::from_data`] of a JSON text.
    pub fn from_json(text: &str) -> Result<Model> {
        let data: Value =
            serde_json::from_str(text).map_err(|e| bad("", format!("not JSON: {e}")))?;
        Model::from_data(&data)
    }
}

/// Fits a strictly increasing piecewise-linear map from `(x, y)` pairs: the pairs sorted by
/// `x` are cut into `bins` groups of equal size, each group's mean `y` is made non-decreasing by
/// pooling adjacent violators (weighted by size), and the knots sit at the groups' mean `x`.
/// A small slope keeps the map strictly increasing, and a final shift makes the map's mean over
/// the pairs equal the mean `y` exactly (interpolating between group means moves it a little).
pub fn fit_calibration(pairs: &mut [(f64, f64)], bins: usize) -> Result<Calibration> {
    const MIN_SLOPE: f64 = 1e-3;
    let n = pairs.len();
    let bins = bins.min(n / 2);
    if bins < 2 {
        return Calibration::new(Vec::new());
    }
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    // (sum x, sum y, count) per group, then pool adjacent violators
    let mut groups: Vec<(f64, f64, f64)> = (0..bins)
        .map(|b| {
            let part = &pairs[b * n / bins..(b + 1) * n / bins];
            let (sx, sy) = part
                .iter()
                .fold((0.0, 0.0), |(a, c), &(x, y)| (a + x, c + y));
            (sx, sy, part.len() as f64)
        })
        .collect();
    let mut pooled: Vec<(f64, f64, f64)> = Vec::with_capacity(bins);
    for g in groups.drain(..) {
        let mut g = g;
        while let Some(&last) = pooled.last() {
            if last.1 / last.2 >= g.1 / g.2 {
                pooled.pop();
                g = (g.0 + last.0, g.1 + last.1, g.2 + last.2);
            } else {
                break;
            }
        }
        pooled.push(g);
    }
    let mut knots: Vec<(f64, f64)> = Vec::with_capacity(pooled.len());
    for &(sx, sy, c) in &pooled {
        let (x, mut y) = (sx / c, sy / c);
        if let Some(&(px, py)) = knots.last() {
            if x <= px {
                continue;
            }
            y = y.max(py + MIN_SLOPE * (x - px));
        }
        knots.push((x, y));
    }
    if knots.len() < 2 {
        // every prediction alike: a shift by the mean error, slope 1
        let (mx, my) = pairs
            .iter()
            .fold((0.0, 0.0), |(a, c), &(x, y)| (a + x, c + y));
        let (mx, my) = (mx / n as f64, my / n as f64);
        return Calibration::new(vec![(mx - 1.0, my - 1.0), (mx + 1.0, my + 1.0)]);
    }
    let map = Calibration::new(knots)?;
    let shift = pairs.iter().map(|&(x, y)| y - map.apply(x)).sum::<f64>() / n as f64;
    Calibration::new(map.knots.iter().map(|&(x, y)| (x, y + shift)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_maps_and_inverts() {
        let c = Calibration::new(vec![(0.0, 1.0), (2.0, 2.0), (3.0, 5.0)]).unwrap();
        assert_eq!(c.apply(1.0), 1.5);
        assert_eq!(c.apply(-2.0), 0.0); // first segment extended
        assert_eq!(c.apply(4.0), 8.0); // last segment extended
        for x in [-3.0, 0.0, 0.5, 2.0, 2.5, 7.0] {
            assert!((c.invert(c.apply(x)) - x).abs() < 1e-12);
        }
        assert!(Calibration::new(vec![(0.0, 1.0), (1.0, 1.0)]).is_err());
        assert!(Calibration::new(vec![(0.0, 1.0)]).is_err());
        assert_eq!(Calibration::default().apply(3.25), 3.25);
    }

    #[test]
    fn fit_recovers_a_monotone_relation_and_keeps_the_mean() {
        // y = 2x − 1 plus zero-mean noise that cancels within each group
        let mut pairs: Vec<(f64, f64)> = (0..4000)
            .map(|i| {
                let x = i as f64 / 100.0;
                (x, 2.0 * x - 1.0 + if i % 2 == 0 { 0.5 } else { -0.5 })
            })
            .collect();
        let c = fit_calibration(&mut pairs, 20).unwrap();
        for x in [1.0, 10.0, 30.0] {
            assert!((c.apply(x) - (2.0 * x - 1.0)).abs() < 0.05, "{x}");
        }
        let mean_err: f64 = pairs.iter().map(|&(x, y)| c.apply(x) - y).sum::<f64>() / 4000.0;
        assert!(mean_err.abs() < 1e-9);
        // a decreasing relation is pooled into a strictly increasing, nearly flat map
        let mut down: Vec<(f64, f64)> = (0..1000).map(|i| (i as f64, -(i as f64))).collect();
        let d = fit_calibration(&mut down, 10).unwrap();
        assert!(d.knots().windows(2).all(|w| w[1].1 > w[0].1));
    }

    #[test]
    fn model_round_trips_and_names_bad_fields() {
        let m = Model {
            scoop_for: 1.4,
            scoop_against: 1.2,
            sweep_rate: Some(0.3),
            natural_rate: 0.02,
            natural_value: 4.5,
            surrender_rate: 0.01,
            calibration: Calibration::new(vec![(-1.0, -0.5), (1.0, 0.7)]).unwrap(),
        };
        assert_eq!(Model::from_data(&m.to_data()).unwrap(), m);
        assert_eq!(Model::from_json("{}").unwrap(), Model::default());
        for (text, field) in [
            (r#"{"scoop_for": 0}"#, "scoop_for"),
            (r#"{"natural_rate": 1.5}"#, "natural_rate"),
            (r#"{"calibration": [[0, 1]]}"#, "calibration"),
            (r#"{"colour": 1}"#, "colour"),
            (r#"{"natural_value": "x"}"#, "natural_value"),
        ] {
            let e = Model::from_json(text).unwrap_err().to_string();
            assert!(e.contains(field), "{text}: {e}");
        }
    }
}
