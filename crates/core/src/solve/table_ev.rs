//! The table objective: expected score against the table from per-row outcome tables.
//!
//! A table is, for each row, the distribution of the opponents' row ranks (by class) when they
//! set their hands with the solver itself, measured by self-play (`train.rs`). From it, for a
//! row of class `x`: `P(win) = P(opp < x)`, `P(tie) = P(opp = x)`, `P(lose) = P(opp > x)`, the
//! expected value won (our row value, doubled where the rule set doubles a bonus beating the
//! same category) and the expected value lost (the opponent's row value). Win rates are
//! therefore monotone in rank by construction.
//!
//! # The formula (one opponent, rows treated as independent)
//!
//! With `pw_r, pt_r, pl_r` the row probabilities and `w_r`, `l_r` the expected values won and
//! lost given a win or a loss:
//!
//! - rows: `Σ_r pw_r·w_r − pl_r·l_r`;
//! - majority point `u`: `u·(P(more rows won) − P(more rows lost))` over the 27 joint outcomes;
//! - overall point `u`: `u·(P(our total > theirs) − P(our total < theirs))`, the totals taken
//!   at the conditional means `w_r`, `l_r` in each of the 27 outcomes;
//! - scoop `×k`: `(k−1)·(P_s·(Σw + maj + ovr) − P_c·(Σl + maj + ovr))` with
//!   `P_s = Π pw_r`, `P_c = Π pl_r`; scoop `+n`: `n·(P_s − P_c)`.
//!
//! At a table of `n` players the matchup value is counted `n − 1` times. A sweep (×s at tables of
//! at least its minimum size) adds `(s−1)·(n−1)·(P_s^(n−1)·S − P_c·q^(n−2)·C)` where `S` and `C`
//! are the matchup points of a scoop for and against us and `q` the measured rate at which a
//! hand set by the policy scoops a random opponent (the sweeper must also scoop the others).
//! Where a suit order breaks ties, a tie counts half a win and half a loss.
//!
//! # What the formula misses, measured (`model.rs`)
//!
//! The scoop probabilities are scaled by measured factors (`P_s = f_s·Π pw_r`,
//! `P_c = f_c·Π pl_r`), the rate `q` in the sweep against us is the measured rate at which a
//! hand that scoops one opponent scoops another, each opponent plays its rows only with
//! probability `1 − p_n − p_s` (else it declares a natural worth `v_n` or surrenders and pays
//! the surrender cost `c`): the matchup value `m` becomes `(1 − p_n − p_s)·m + p_s·c − p_n·v_n`,
//! and a sweep needs every opponent to play. Last, a strictly increasing map calibrates the
//! total to the points realised in self-play. Every correction keeps the value non-decreasing
//! in each row's class (the factors are positive and the map increasing), so the best setting
//! is still on the frontier. The policy never fouls, so fouls are not modelled.

use super::classes::{Classes, FIVE_CLASSES, FRONT_CLASSES};
use super::enumerate::Bound;
use super::model::Model;
use super::tables_id::{TablesId, TablesSource};
use crate::error::{Error, Result};
use crate::eval::{HandRank, Wheel};
use crate::rules::{Row, Rules, Scoop};

/// What a table is measured and shipped as: the opponents' row-rank distributions.
#[derive(Clone, Debug, PartialEq)]
pub struct OutcomeTables {
    /// The wheel the distributions were measured under.
    pub wheel: Wheel,
    /// front (455 classes), middle and back (7,462 each), weakest class first.
    pub dist: [Vec<f64>; 3],
    /// Probability that a hand set by the policy scoops a random opponent.
    pub scoop_rate: f64,
    /// The measured corrections to the independent-rows formula.
    pub model: Model,
}

impl OutcomeTables {
    /// Checks sizes and values and normalises each row to sum 1.
    pub fn new(wheel: Wheel, dist: [Vec<f64>; 3], scoop_rate: f64) -> Result<OutcomeTables> {
        let bad = |field: &str, reason: String| Error::InvalidRules {
            field: format!("tables.{field}"),
            reason,
        };
        let mut dist = dist;
        for (r, name) in Row::ALL.map(Row::name).iter().enumerate() {
            let want = if r == 0 { FRONT_CLASSES } else { FIVE_CLASSES };
            let d = &mut dist[r];
            if d.len() != want {
                return Err(bad(
                    name,
                    format!(
                        "expected {want} classes, got {}",
                        crate::error::count(d.len(), "class")
                    ),
                ));
            }
            if let Some(i) = d.iter().position(|p| !p.is_finite() || *p < 0.0) {
                return Err(bad(
                    name,
                    format!("class {i}: {} is not a probability", d[i]),
                ));
            }
            let total: f64 = d.iter().sum();
            if total <= 0.0 {
                return Err(bad(name, "all zero".into()));
            }
            d.iter_mut().for_each(|p| *p /= total);
        }
        if !(0.0..=1.0).contains(&scoop_rate) {
            return Err(bad(
                "scoop_rate",
                format!("{scoop_rate} is not a probability"),
            ));
        }
        Ok(OutcomeTables {
            wheel,
            dist,
            scoop_rate,
            model: Model::default(),
        })
    }

    /// The same tables with a (checked) model.
    pub fn with_model(mut self, model: Model) -> Result<OutcomeTables> {
        model.validate()?;
        self.model = model;
        Ok(self)
    }

    /// The starting point of training: rows distributed like random 5- and 3-card hands.
    pub fn random_rows(wheel: Wheel) -> OutcomeTables {
        let ev = crate::eval::Evaluator::new(wheel);
        let classes = Classes::get(wheel);
        let mut five = vec![0f64; FIVE_CLASSES];
        let mut front = vec![0f64; FRONT_CLASSES];
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    front[classes.index(ev.eval3([a, b, c]).raw())] += 1.0;
                    for d in c + 1..52 {
                        for e in d + 1..52 {
                            five[classes.index(ev.eval5([a, b, c, d, e]).raw())] += 1.0;
                        }
                    }
                }
            }
        }
        OutcomeTables::new(wheel, [front, five.clone(), five], 0.1).expect("valid by construction")
    }
}

/// Per-class row numbers derived from a distribution.
struct RowTable {
    pw: Vec<f64>,
    pt: Vec<f64>,
    pl: Vec<f64>,
    /// expected value won given a win
    w: Vec<f64>,
    /// expected value lost given a loss
    l: Vec<f64>,
}

/// A compiled table objective for one rule set and table size.
pub struct TableEv {
    /// The distributions and corrections.
    pub tables: OutcomeTables,
    /// The table size.
    pub players: usize,
    /// Which tables these are: their source ([`TableEv::with_source`]; tables given directly
    /// are [`TablesSource::File`]) and the digest of their content.
    pub id: TablesId,
    /// Per row and class: `[pw, pt, pl, w, l]` side by side, so that valuing a setting costs
    /// one cache line per row rather than five.
    rows: [Vec<[f64; 5]>; 3],
    classes: &'static Classes,
    majority: f64,
    overall: f64,
    /// The majority and overall points' summed weight.
    points: f64,
    scoop: Scoop,
    /// Which of the formula's optional terms apply, as `points · 6 + scoop · 2 + sweep` (see
    /// [`TableEv::terms`]): each combination has its own compiled body, so that a rule set pays
    /// only for the terms it scores. Where every row's win and loss values are one constant (one
    /// unit a row, as `pokerfever_western` and `two_four` score), the overall point is the
    /// majority point, valued in closed form ([`majority_odds`], `points` 1); else the 27
    /// outcomes are walked (`points` 2).
    shape: u8,
    /// The value is non-decreasing in each row's class (see [`TableEv::monotone`]).
    monotone: bool,
    /// Where the value is not monotone but has no majority or overall point: per row and class,
    /// the rows' best `pw` and `w` and least `pl` and `l` over that class and every weaker one,
    /// which make the formula an envelope the bounded search can prune with
    /// ([`TableEv::order_bound`]); where there is no scoop or sweep either (`shape` 0), the
    /// running maximum of each row's whole term instead (`row_term_envelope`), which is tighter.
    envelope: Option<[Vec<[f64; 5]>; 3]>,
    /// The formula's terms that do not depend on the setting, computed once.
    k: Constants,
    /// [`TableEv::front_line`]'s coefficients with the middle and back of one class, for
    /// every five class (empty where there is no line): the search bounds a back rank, a
    /// bucket and the cut at such settings, which then cost a dot product. Stored in single
    /// precision, 32 bytes a class (half the table, one cache line a look), the constant
    /// raised by what the rounding of the others could take off ([`DiagonalLine::new`]): a
    /// bound at least the line's at every front, a little looser.
    diagonal: Vec<DiagonalLine>,
    /// What [`FrontLine`]'s coefficients multiply, per front class of the rows it bounds with
    /// ([`FrontLine::numbers`]), worked out once: a look along the fronts is a dot product.
    front_numbers: Vec<[f64; 8]>,
}

/// One line of [`TableEv::diagonal`] (see there).
#[derive(Copy, Clone)]
#[repr(align(32))]
struct DiagonalLine([f32; 8]);

impl DiagonalLine {
    /// The coefficients `c` in single precision, no line below `c`'s at any front whose
    /// numbers are at most `most` in magnitude (`most[0]` is 1, the constant's).
    fn new(c: &[f64; 8], most: &[f64; 8]) -> DiagonalLine {
        let mut out = c.map(|x| x as f32);
        let lost: f64 = (1..8).map(|i| (c[i] - out[i] as f64).abs() * most[i]).sum();
        // twice what rounding could take, then the constant rounded up
        let want = c[0] + 2.0 * lost;
        out[0] = want as f32;
        if (out[0] as f64) < want {
            let bits = out[0].to_bits();
            out[0] = f32::from_bits(if out[0] > 0.0 {
                bits + 1
            } else if out[0] < 0.0 {
                bits - 1
            } else {
                1
            });
        }
        DiagonalLine(out)
    }
}

/// The parts of [`TableEv::formula`] fixed by the rule set, the table size and the model.
struct Constants {
    /// `1 − natural_rate − surrender_rate`: the share of opponents who play their rows.
    plays: f64,
    /// What the opponents who do not play are worth per matchup.
    fixed: f64,
    /// Opponents.
    opp: f64,
    /// Majority and overall points (both go to whoever wins every row).
    sweep_all: f64,
    /// `(s − 1)·opp·plays^(k−1)` and `q^(k−2)` where sweeps count (`s` the multiplier, `q` the
    /// sweep rate).
    sweep: Option<(f64, f64)>,
}

impl Constants {
    fn new(rules: &Rules, players: usize, tables: &OutcomeTables, sweep: Option<f64>) -> Self {
        let model = &tables.model;
        let plays = 1.0 - model.natural_rate - model.surrender_rate;
        let opp = (players - 1) as f64;
        let k = players as i32;
        Constants {
            plays,
            fixed: model.surrender_rate * rules.surrender.unwrap_or(0) as f64
                - model.natural_rate * model.natural_value,
            opp,
            sweep_all: (rules.majority_point + rules.overall_point) as f64,
            // every opponent must play its rows for anyone to sweep
            sweep: sweep.map(|s| {
                let q = model.sweep_rate.unwrap_or(tables.scoop_rate);
                ((s - 1.0) * opp * plays.powi(k - 1), q.powi(k - 2))
            }),
        }
    }
}

/// [`Rules::win_value`] as a float, for the expectations below.
fn win_value(rules: &Rules, row: usize, win: usize, lose: usize) -> f64 {
    rules.win_value(row, win, lose).0 as f64
}

impl TableEv {
    /// The compiled objective for `rules` at `players` seats, from checked `tables`.
    pub fn new(rules: &Rules, players: usize, tables: OutcomeTables) -> Result<TableEv> {
        if !(2..=4).contains(&players) {
            return Err(Error::InvalidShape {
                what: "players".into(),
                expected: "2 to 4".into(),
                got: players.to_string(),
            });
        }
        if tables.wheel != rules.wheel {
            return Err(Error::InvalidRules {
                field: "tables.wheel".into(),
                reason: format!(
                    "tables were built for the {} wheel, the rule set uses {}",
                    tables.wheel.name(),
                    rules.wheel.name()
                ),
            });
        }
        let classes = Classes::get(rules.wheel);
        let split_ties = rules.suit_order.is_some();
        let rows: [Vec<[f64; 5]>; 3] = std::array::from_fn(|r| {
            let raws = classes.of(r == 0);
            let d = &tables.dist[r];
            let n = d.len();
            // mass below / above each class, and value masses by category for the values
            let mut below = vec![0f64; n + 1];
            for i in 0..n {
                below[i + 1] = below[i] + d[i];
            }
            let cats: Vec<usize> = raws
                .iter()
                .map(|&x| HandRank::category_index_of_raw(x))
                .collect();
            let mut cat_mass = [0f64; 9];
            for i in 0..n {
                cat_mass[cats[i]] += d[i];
            }
            let mut t = RowTable {
                pw: vec![0.0; n],
                pt: vec![0.0; n],
                pl: vec![0.0; n],
                w: vec![0.0; n],
                l: vec![0.0; n],
            };
            // masses by category strictly below / above class i, in one pass each way
            let mut cat_below = [0f64; 9];
            for i in 0..n {
                let c = cats[i];
                let mut won = 0.0;
                for (oc, &m) in cat_below.iter().enumerate() {
                    won += m * win_value(rules, r, c, oc);
                }
                let (mut pw, mut pt) = (below[i], d[i]);
                let tie_value = win_value(rules, r, c, c);
                if split_ties {
                    pw += pt / 2.0;
                    won += pt / 2.0 * tie_value;
                    pt = 0.0;
                }
                t.pw[i] = pw;
                t.pt[i] = pt;
                t.w[i] = if pw > 0.0 { won / pw } else { tie_value };
                cat_below[c] += d[i];
            }
            let mut cat_above = [0f64; 9];
            // the mass above, summed from the top: `1 − below` loses most of its digits where
            // little is above, which made `l` drift where it should be constant
            let mut above = 0.0;
            for i in (0..n).rev() {
                let c = cats[i];
                let mut lost = 0.0;
                for (oc, &m) in cat_above.iter().enumerate() {
                    lost += m * win_value(rules, r, oc, c);
                }
                let mut pl = above;
                if split_ties {
                    pl += d[i] / 2.0;
                    lost += d[i] / 2.0 * win_value(rules, r, c, c);
                }
                t.pl[i] = pl;
                t.l[i] = if pl > 0.0 {
                    lost / pl
                } else {
                    win_value(rules, r, c, c)
                };
                cat_above[c] += d[i];
                above += d[i];
            }
            (0..n)
                .map(|i| [t.pw[i], t.pt[i], t.pl[i], t.w[i], t.l[i]])
                .collect()
        });
        let sweep = (players >= rules.sweep.min_players && rules.sweep.multiplier > 1)
            .then_some(rules.sweep.multiplier as f64);
        let monotone = rows
            .iter()
            .all(|row| rows_monotone(row, rules.overall_point != 0));
        let k = Constants::new(rules, players, &tables, sweep);
        let points = (rules.majority_point + rules.overall_point) as f64;
        let by_rows = rules.overall_point == 0 || overall_is_majority(&rows);
        let shape = {
            let points = match by_rows {
                _ if rules.majority_point == 0 && rules.overall_point == 0 => 0,
                true => 1,
                false => 2,
            };
            let scoop = match rules.scoop {
                Scoop::None => 0,
                Scoop::Multiply(_) => 1,
                Scoop::Add(_) => 2,
            };
            points * 6 + scoop * 2 + k.sweep.is_some() as u8
        };
        // Without a scoop or a sweep the formula is a sum of one term per row, whose running
        // maximum is the tightest envelope there is; otherwise each factor's.
        let envelope =
            (!monotone && rules.majority_point == 0 && rules.overall_point == 0).then(|| {
                rows.each_ref().map(|row| match shape {
                    0 => row_term_envelope(row),
                    _ => envelope(row),
                })
            });
        let mut te = TableEv {
            id: TablesId {
                source: TablesSource::File,
                digest: tables.digest(),
            },
            tables,
            players,
            rows,
            classes,
            majority: rules.majority_point as f64,
            overall: rules.overall_point as f64,
            points,
            scoop: rules.scoop,
            shape,
            monotone,
            envelope,
            k,
            diagonal: Vec::new(),
            front_numbers: Vec::new(),
        };
        te.front_numbers = te.bound_rows()[0]
            .iter()
            .map(|row| FrontLine::numbers(row, players))
            .collect();
        let most = te.front_numbers.iter().fold([1f64; 8], |most, x| {
            std::array::from_fn(|i| most[i].max(x[i].abs()))
        });
        te.diagonal = (0..te.rows[1].len() as u16)
            .map_while(|c| {
                te.front_line(c, c)
                    .map(|line| DiagonalLine::new(&line.c, &most))
            })
            .collect();
        Ok(te)
    }

    /// The same tables, named as coming from `source`.
    pub fn with_source(mut self, source: TablesSource) -> TableEv {
        self.id.source = source;
        self
    }

    /// Whether the value is non-decreasing in each row's class index, so that the value at the
    /// strongest classes a setting could reach bounds it (the solver's pruned search relies on
    /// it; when false it values the whole frontier).
    pub fn monotone(&self) -> bool {
        self.monotone
    }

    /// Expected score of a legal setting with these row ranks (`raw()`: front, middle, back)
    /// against the whole table.
    pub fn value(&self, ranks: &[u32; 3]) -> f64 {
        self.value_of_classes(&ranks.map(|r| self.classes.index(r) as u16))
    }

    /// [`TableEv::value`] from the rows' class indices (as the frontier carries them).
    pub fn value_of_classes(&self, classes: &[u16; 3]) -> f64 {
        self.calibrate(self.formula(classes))
    }

    /// [`TableEv::formula`] as the search calls it: one out-of-line body for its many call
    /// sites (inlining it there made the search about 3% slower).
    #[inline(never)]
    pub fn order_value(&self, classes: &[u16; 3]) -> f64 {
        self.formula(classes)
    }

    /// The value of a setting whose [`TableEv::formula`] is `formula`. The calibration map is
    /// strictly increasing, so the solvers order settings by the formula and calibrate only the
    /// values they report (applying the map to every setting valued cost a fifth of a solve).
    #[inline]
    pub fn calibrate(&self, formula: f64) -> f64 {
        self.tables.model.calibration.apply(formula)
    }

    /// `(Π pw, Π pl)` of a setting's rows: the independent-rows probabilities of scooping a
    /// random opponent and of being scooped, before the model's factors (what training
    /// compares with the scoops it sees).
    pub(crate) fn independent_scoops(&self, classes: &[u16; 3]) -> (f64, f64) {
        let (mut ps, mut pc) = (1.0, 1.0);
        for (rows, &class) in self.rows.iter().zip(classes) {
            let row = rows[class as usize];
            ps *= row[0];
            pc *= row[2];
        }
        (ps, pc)
    }

    /// The formula's value before calibration (what the calibration is fitted on).
    #[inline]
    pub fn formula(&self, classes: &[u16; 3]) -> f64 {
        self.formula_of(&self.rows, classes)
    }

    /// Whether the bounded search applies: the value is monotone, or it has an envelope.
    pub fn bounded(&self) -> bool {
        self.monotone || self.envelope.is_some()
    }

    /// An upper bound of [`TableEv::formula`] at these classes and every weaker ones,
    /// non-decreasing in each row's class: the formula of the envelope rows (every term grows
    /// with `pw` and `w` and falls with `pl` and `l`, its factors all non-negative), or the
    /// formula itself where it is monotone.
    #[inline(never)]
    pub fn order_bound(&self, classes: &[u16; 3]) -> f64 {
        self.formula_of(self.bound_rows(), classes)
    }

    /// [`TableEv::order_bound`] at `[front, class, class]`, up to rounding far inside the
    /// search's 1e-9 margin (see [`TableEv::front_line`]).
    #[inline]
    pub(crate) fn order_bound_diagonal(&self, front: u16, class: u16) -> f64 {
        match self.diagonal_line(class) {
            Some(line) => line.at(front),
            None => self.order_bound(&[front, class, class]),
        }
    }

    /// [`TableEv::front_line`] where the middle's class is the back's, made once.
    #[inline]
    fn diagonal_line(&self, class: u16) -> Option<FrontLine<'_>> {
        self.diagonal.get(class as usize).map(|line| FrontLine {
            fronts: &self.front_numbers,
            c: line.0.map(f64::from),
        })
    }

    /// The rows [`TableEv::order_bound`] values: the envelope's where there is one.
    fn bound_rows(&self) -> &[Vec<[f64; 5]>; 3] {
        self.envelope.as_ref().unwrap_or(&self.rows)
    }

    /// [`TableEv::order_bound`] with the middle and back classes fixed, as a function of the
    /// front's class (`None` where the overall point is walked over the 27 outcomes).
    ///
    /// With the other two rows fixed every term of the formula is linear in a handful of the
    /// front row's numbers: `pw`, `pt`, `pl` (the majority odds are linear in each row's
    /// outcome odds, the scoops in its `pw` or `pl`), `pw·w` and `pl·l` (the rows and the
    /// scoops' points), and `pw^(players−1)` and `pw^(players−1)·w` (the sweep). So the bound
    /// costs a dot product of those with coefficients worked out here once. The sums run in
    /// another order than the formula's, so the two differ by rounding only.
    pub(crate) fn front_line(&self, middle: u16, back: u16) -> Option<FrontLine<'_>> {
        if self.shape / 6 == 2 {
            return None;
        }
        let rows = self.bound_rows();
        let [a1, t1, b1, w1, l1] = rows[1][middle as usize];
        let [a2, t2, b2, w2, l2] = rows[2][back as usize];
        let (k, model) = (&self.k, &self.tables.model);
        let per_row = k.opp * k.plays;
        // coefficients of 1, pw, pt, pl, pw·w, pl·l, pw^(n−1), pw^(n−1)·w
        let mut c = [0f64; 8];
        c[0] = k.opp * (k.plays * (a1 * w1 - b1 * l1 + a2 * w2 - b2 * l2) + k.fixed);
        c[4] = per_row;
        c[5] = -per_row;
        if self.shape / 6 == 1 {
            // majority_odds with the front's (pw, pt, pl) left free
            let points = per_row * self.points;
            let (all, up, down, net) = (a2 + t2 + b2, a2 + t2, t2 + b2, a2 - b2);
            c[1] += points * (a1 * all + t1 * up + b1 * net);
            c[2] += points * (a1 * up - b1 * down + t1 * net);
            c[3] += points * (a1 * net - b1 * all - t1 * down);
        }
        // scooping and being scooped: ps = scoop_for · pw · (the others' pw), pc likewise
        let (ps, pc) = (model.scoop_for * a1 * a2, model.scoop_against * b1 * b2);
        let (won, lost) = (w1 + w2 + k.sweep_all, l1 + l2 + k.sweep_all);
        // the scoop's points as (times the rows' points) + (added)
        let (times, added) = match self.scoop {
            Scoop::Multiply(m) => {
                let extra = per_row * (m as f64 - 1.0);
                c[1] += extra * ps * won;
                c[4] += extra * ps;
                c[3] -= extra * pc * lost;
                c[5] -= extra * pc;
                (m as f64, 0.0)
            }
            Scoop::Add(n) => {
                let n = n as f64;
                c[1] += per_row * n * ps;
                c[3] -= per_row * n * pc;
                (1.0, n)
            }
            Scoop::None => (1.0, 0.0),
        };
        if let Some((scale, q)) = k.sweep {
            let all = ps.powi(self.players as i32 - 1);
            c[6] += scale * all * (times * won + added);
            c[7] += scale * all * times;
            c[3] -= scale * pc * q * (times * lost + added);
            c[5] -= scale * pc * q * times;
        }
        Some(FrontLine {
            fronts: &self.front_numbers,
            c,
        })
    }

    /// The formula, through the body compiled for this objective's terms (see `shape`).
    #[inline]
    fn formula_of(&self, rows: &[Vec<[f64; 5]>; 3], classes: &[u16; 3]) -> f64 {
        macro_rules! shapes {
            ($($i:literal => ($p:literal, $k:literal, $w:literal)),*) => {
                match self.shape {
                    $($i => self.terms::<$p, $k, $w>(rows, classes),)*
                    _ => unreachable!("shape {} is made by TableEv::new", self.shape),
                }
            };
        }
        shapes!(0 => ( 0, 0, false),
            1 => ( 0, 0, true),
            2 => ( 0, 1, false),
            3 => ( 0, 1, true),
            4 => ( 0, 2, false),
            5 => ( 0, 2, true),
            6 => ( 1, 0, false),
            7 => ( 1, 0, true),
            8 => ( 1, 1, false),
            9 => ( 1, 1, true),
            10 => ( 1, 2, false),
            11 => ( 1, 2, true),
            12 => ( 2, 0, false),
            13 => ( 2, 0, true),
            14 => ( 2, 1, false),
            15 => ( 2, 1, true),
            16 => ( 2, 2, false),
            17 => ( 2, 2, true))
    }

    /// The formula with the terms `POINTS` (0 none, 1 in closed form, 2 the 27 outcomes),
    /// `SCOOP` (0 none, 1 multiply, 2 add) and `SWEEP`; the same operations in the same order
    /// as with every term, less those that add nothing.
    #[inline(always)]
    fn terms<const POINTS: u8, const SCOOP: u8, const SWEEP: bool>(
        &self,
        rows: &[Vec<[f64; 5]>; 3],
        classes: &[u16; 3],
    ) -> f64 {
        let model = &self.tables.model;
        let mut pw = [0f64; 3];
        let mut pt = [0f64; 3];
        let mut pl = [0f64; 3];
        let mut w = [0f64; 3];
        let mut l = [0f64; 3];
        for r in 0..3 {
            let i = classes[r] as usize;
            [pw[r], pt[r], pl[r], w[r], l[r]] = rows[r][i];
        }
        let mut m: f64 = (0..3).map(|r| pw[r] * w[r] - pl[r] * l[r]).sum();
        match POINTS {
            0 => {}
            1 => m += self.points * majority_odds(&pw, &pt, &pl),
            _ => m += self.majority_and_overall(&pw, &pt, &pl, &w, &l),
        }
        let k = &self.k;
        let ps = model.scoop_for * pw[0] * pw[1] * pw[2];
        let pc = model.scoop_against * pl[0] * pl[1] * pl[2];
        let won_all = w[0] + w[1] + w[2] + k.sweep_all;
        let lost_all = l[0] + l[1] + l[2] + k.sweep_all;
        let (s_pts, c_pts) = match (SCOOP, self.scoop) {
            (1, Scoop::Multiply(k)) => {
                let k = k as f64;
                m += (k - 1.0) * (ps * won_all - pc * lost_all);
                (k * won_all, k * lost_all)
            }
            (2, Scoop::Add(n)) => {
                let n = n as f64;
                m += n * (ps - pc);
                (won_all + n, lost_all + n)
            }
            _ => (won_all, lost_all),
        };
        let mut total = k.opp * (k.plays * m + k.fixed);
        if SWEEP {
            let (scale, q) = k.sweep.unwrap_or_default();
            // scooping every opponent: ps^(players − 1)
            let all = match self.players {
                2 => ps,
                3 => ps * ps,
                _ => ps * ps * ps,
            };
            total += scale * (all * s_pts - pc * q * c_pts);
        }
        total
    }

    /// The majority and overall points' expected value over the 27 outcomes of the three rows,
    /// where the overall point weighs the rows' values (out of line: no preset takes it). The
    /// outcomes are walked without branches, in the order and with the sums of the plain loop
    /// (adding 0 and multiplying by 1 are exact), so the value is the plain loop's to the bit:
    /// a loop with a `match` per row compiled to about 1,750 instructions a call.
    #[inline(never)]
    fn majority_and_overall(
        &self,
        pw: &[f64; 3],
        pt: &[f64; 3],
        pl: &[f64; 3],
        w: &[f64; 3],
        l: &[f64; 3],
    ) -> f64 {
        // per row and outcome (won, tied, lost): its probability, what it adds to our total
        // and to theirs, and to the count of rows won minus rows lost
        let p: [[f64; 3]; 3] = std::array::from_fn(|r| [pw[r], pt[r], pl[r]]);
        let mine: [[f64; 3]; 3] = std::array::from_fn(|r| [w[r], 0.0, 0.0]);
        let theirs: [[f64; 3]; 3] = std::array::from_fn(|r| [0.0, 0.0, l[r]]);
        const COUNT: [i32; 3] = [1, 0, -1];
        let (mut maj, mut ovr) = (0.0, 0.0);
        for c in 0..3 {
            for b in 0..3 {
                for a in 0..3 {
                    let prob = p[0][a] * p[1][b] * p[2][c];
                    let net = COUNT[a] + COUNT[b] + COUNT[c];
                    let ours = mine[0][a] + mine[1][b] + mine[2][c];
                    let their = theirs[0][a] + theirs[1][b] + theirs[2][c];
                    maj += prob * net.signum() as f64;
                    ovr += prob * sign(ours - their);
                }
            }
        }
        self.majority * maj + self.overall * ovr
    }
}

/// `P(more rows won) − P(more rows lost)` against one opponent, rows independent: the
/// distribution of (rows won − rows lost) over the first two rows (five values), then the
/// third row's outcome decides. About 20 operations for the 27 outcomes.
#[inline]
fn majority_odds(pw: &[f64; 3], pt: &[f64; 3], pl: &[f64; 3]) -> f64 {
    let (a0, t0, b0) = (pw[0], pt[0], pl[0]);
    let (a1, t1, b1) = (pw[1], pt[1], pl[1]);
    let (a2, t2, b2) = (pw[2], pt[2], pl[2]);
    // the first two rows: +2, +1, 0, −1, −2
    let up2 = a0 * a1;
    let up1 = a0 * t1 + t0 * a1;
    let even = a0 * b1 + t0 * t1 + b0 * a1;
    let down1 = t0 * b1 + b0 * t1;
    let down2 = b0 * b1;
    // +2 and −2 stand whatever the third row does; ±1 survive its tie or the same way; 0 goes
    // the third row's way
    (up2 - down2) * (a2 + t2 + b2) + up1 * (a2 + t2) - down1 * (t2 + b2) + even * (a2 - b2)
}

/// [`TableEv::order_bound`] along the fronts for one middle and back ([`TableEv::front_line`]).
pub(crate) struct FrontLine<'a> {
    /// [`TableEv::front_numbers`]
    fronts: &'a [[f64; 8]],
    c: [f64; 8],
}

impl FrontLine<'_> {
    /// The bound with this front class: the products summed as a tree of pairs (`numbers`'
    /// first is 1), so that a look waits on three additions rather than seven in a row (the
    /// plans' binary searches wait on each look).
    #[inline]
    pub fn at(&self, front: u16) -> f64 {
        let (x, c) = (&self.fronts[front as usize], &self.c);
        let p: [f64; 8] = std::array::from_fn(|i| c[i] * x[i]);
        ((p[0] + p[2]) + (p[4] + p[6])) + ((p[1] + p[3]) + (p[5] + p[7]))
    }

    /// What the coefficients multiply, from a front's row: 1, `pw`, `pt`, `pl`, `pw·w`,
    /// `pl·l`, `pw^(players−1)` and `pw^(players−1)·w`.
    fn numbers(&[pw, pt, pl, w, l]: &[f64; 5], players: usize) -> [f64; 8] {
        let all = match players {
            2 => pw,
            3 => pw * pw,
            _ => pw * pw * pw,
        };
        [1.0, pw, pt, pl, pw * w, pl * l, all, all * w]
    }
}

/// The table objective's bound for the pruned search ([`Bound`]): [`TableEv::order_bound`] at
/// class triples (the formula itself where it is monotone, else its envelope's), and
/// [`TableEv::front_line`] along the fronts.
pub(crate) struct TableBound<'a>(pub &'a TableEv);

impl Bound for TableBound<'_> {
    #[inline]
    fn at(&self, classes: &[u16; 3]) -> f64 {
        self.0.order_bound(classes)
    }

    #[inline]
    fn at_diagonal(&self, front: u16, class: u16) -> f64 {
        self.0.order_bound_diagonal(front, class)
    }

    fn along_fronts(&self, middle: u16, back: u16) -> impl Fn(u16) -> f64 + '_ {
        let line = match middle == back {
            true => self.0.diagonal_line(back),
            false => self.0.front_line(middle, back),
        };
        move |front| match &line {
            Some(line) => line.at(front),
            None => self.0.order_bound(&[front, middle, back]),
        }
    }
}

/// Whether every row's expected win and loss values (`w`, `l`) are one positive constant up
/// to rounding, so that the overall point's sign of (our total − theirs) in every outcome is
/// that of (rows won − rows lost): the totals then differ by at most 2.5e-13 when as many rows
/// are won as lost (inside the sign's dead zone of 1e-12) and by at least the constant less
/// that otherwise.
fn overall_is_majority(rows: &[Vec<[f64; 5]>; 3]) -> bool {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &[_, _, _, w, l] in rows.iter().flatten() {
        lo = lo.min(w.min(l));
        hi = hi.max(w.max(l));
    }
    hi - lo <= 2.5e-13 && lo >= 1e-9
}

/// The envelope of a row whose formula is a sum of one term per row (`pw·w − pl·l`, no scoop
/// and no sweep): rows whose term is that term's running maximum from the weakest class up, as
/// `[1, 0, 0, max, 0]`, so that the formula of these rows is the sum of the rows' maxima (each
/// at least the term at that class and every weaker one, and summed in the formula's order).
fn row_term_envelope(row: &[[f64; 5]]) -> Vec<[f64; 5]> {
    let mut best = f64::NEG_INFINITY;
    row.iter()
        .map(|&[pw, _, pl, w, l]| {
            best = best.max(pw * w - pl * l);
            [1.0, 0.0, 0.0, best, 0.0]
        })
        .collect()
}

/// The envelope of one row's numbers (see `TableEv::envelope`): running maxima of `pw` and `w`,
/// running minima of `pl` and `l`, from the weakest class up (`pt` is unused without a majority
/// or overall point).
fn envelope(row: &[[f64; 5]]) -> Vec<[f64; 5]> {
    let mut best = [0.0, 0.0, f64::INFINITY, 0.0, f64::INFINITY];
    row.iter()
        .map(|&[pw, _, pl, w, l]| {
            best = [
                best[0].max(pw),
                0.0,
                best[2].min(pl),
                best[3].max(w),
                best[4].min(l),
            ];
            best
        })
        .collect()
}

/// Per-row conditions under which every term of [`TableEv::value_of_classes`] is monotone in
/// the row's class: `pw` and `pw·w` non-decreasing, `pl` and `pl·l` non-increasing (the rows,
/// the majority point's odds, and the scoop and sweep products, whose factors are all
/// non-negative), each within 1e-12 of its extreme over the weaker classes, so that rounding
/// cannot add up along a row; with an overall point also `w` non-decreasing and `l`
/// non-increasing, exactly, since it takes the sign of a difference of those means and a
/// rounding drift there would flip it.
fn rows_monotone(row: &[[f64; 5]], overall: bool) -> bool {
    let near = |x: f64, extreme: f64| (x - extreme).abs() <= 1e-12 * (1.0 + extreme.abs());
    let mut up = [f64::NEG_INFINITY; 3];
    let mut down = [f64::INFINITY; 3];
    row.iter().all(|&[pw, _, pl, w, l]| {
        let (rise, fall) = ([pw, pw * w, w], [pl, pl * l, l]);
        let exact = if overall { 3 } else { 2 };
        let ok = (0..3).all(|k| {
            // `w` and `l` feed the overall point's sign, whose dead zone is 1e-12: a rounding
            // drift far below it (equal row values as ratios of the same masses, three rows at
            // most 6e-13 in all) cannot flip it
            let close = |x: f64, e: f64| {
                if k < 2 {
                    near(x, e)
                } else {
                    (x - e).abs() <= 2e-13
                }
            };
            let ok_up = rise[k] >= up[k] || close(rise[k], up[k]);
            let ok_down = fall[k] <= down[k] || close(fall[k], down[k]);
            k >= exact || (ok_up && ok_down)
        });
        for k in 0..3 {
            up[k] = up[k].max(rise[k]);
            down[k] = down[k].min(fall[k]);
        }
        ok
    })
}

fn sign(x: f64) -> f64 {
    if x > 1e-12 {
        1.0
    } else if x < -1e-12 {
        -1.0
    } else {
        0.0
    }
}

/// Version of [`tables_key`]'s format: bump it when the key's contents change meaning, so that
/// tables trained under an older key are not read as current.
pub const TABLES_KEY_VERSION: &str = "v3";

/// The rule-set fields the tables depend on, as a stable text key: rule sets (and table sizes)
/// with the same key share tables. Built from the data-form names and values of the schema
/// (`wheel=low`, `scoop.kind=multiply`), never from Rust's debug formatting, so that renaming a
/// Rust type cannot orphan shipped tables ([architecture: Strategy tables](https://chinese-poker.github.io/chinese-poker/architecture/#strategy-tables)).
///
/// Contents: the wheel; for each row the value of winning with each category (over a weaker
/// category, and with doubling where the same category is beaten), which is all the objective
/// reads of the bonus table and mode; the majority and overall points; the scoop; the sweep as
/// it applies at `players`; whether ties stand or are broken by a suit order; the table size
/// (the model's rates and calibration are measured at one size, v3 on); the naturals (their
/// values and declaration) and the surrender cost, which the model's rates depend on.
pub fn tables_key(rules: &Rules, players: usize) -> String {
    let sweep = if players >= rules.sweep.min_players && rules.sweep.multiplier > 1 {
        format!("sweep.multiplier={}", rules.sweep.multiplier)
    } else {
        "sweep=off".into()
    };
    let rows: Vec<String> = Row::ALL
        .iter()
        .map(|&row| {
            let r = row as usize;
            let values: Vec<String> = (0..9)
                .map(|c| {
                    let plain = rules.win_value(r, c, usize::MAX).0;
                    let same = rules.win_value(r, c, c).0;
                    if plain == same {
                        plain.to_string()
                    } else {
                        format!("{plain}:{same}")
                    }
                })
                .collect();
            format!("{}={}", row.name(), values.join(","))
        })
        .collect();
    let data = rules.to_data();
    format!(
        "{TABLES_KEY_VERSION};wheel={};{};majority_point={};overall_point={};scoop.kind={};\
         scoop.amount={};{sweep};ties={};naturals={};surrender={};players={players}",
        rules.wheel.name(),
        rows.join(";"),
        rules.majority_point,
        rules.overall_point,
        rules.scoop.kind().name(),
        rules.scoop.amount(),
        if rules.suit_order.is_some() {
            "suit_order"
        } else {
            "stand"
        },
        data["naturals"],
        data["surrender"],
    )
}

/// A tables key as [`tables_key`] writes it now. Keys written before the naturals had a
/// ranking of their own listed them in the order of the rule set's data; this lists them in
/// ranking order, so that tables saved then still serve their rule set. Any other key is
/// returned as it is.
pub fn canonical_tables_key(key: &str) -> String {
    let parts: Vec<String> = key
        .split(';')
        .map(|part| {
            let Some(json) = part.strip_prefix("naturals=") else {
                return part.to_string();
            };
            let Ok(data) = serde_json::from_str::<serde_json::Value>(json) else {
                return part.to_string();
            };
            let mut full = Rules::default().to_data();
            full["naturals"] = data;
            match Rules::from_data(&full).ok() {
                Some(rules) => format!("naturals={}", rules.to_data()["naturals"]),
                None => part.to_string(),
            }
        })
        .collect();
    parts.join(";")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The plain walk over the 27 joint outcomes, one `match` per row: the reference.
    fn plain(te: &TableEv, classes: &[u16; 3]) -> f64 {
        let rows: [[f64; 5]; 3] = std::array::from_fn(|r| te.rows[r][classes[r] as usize]);
        let (mut maj, mut ovr) = (0.0, 0.0);
        for o in 0..27usize {
            let outcome = [o % 3, o / 3 % 3, o / 9];
            let mut p = 1.0;
            let (mut won, mut lost, mut mine, mut theirs) = (0i32, 0i32, 0.0, 0.0);
            for r in 0..3 {
                let [pw, pt, pl, w, l] = rows[r];
                match outcome[r] {
                    0 => {
                        p *= pw;
                        won += 1;
                        mine += w;
                    }
                    1 => p *= pt,
                    _ => {
                        p *= pl;
                        lost += 1;
                        theirs += l;
                    }
                }
            }
            maj += p * (won - lost).signum() as f64;
            ovr += p * sign(mine - theirs);
        }
        te.majority * maj + te.overall * ovr
    }

    fn points(te: &TableEv, c: &[u16; 3]) -> f64 {
        let q: [[f64; 3]; 5] =
            std::array::from_fn(|k| std::array::from_fn(|r| te.rows[r][c[r] as usize][k]));
        match te.shape / 6 == 1 {
            true => te.points * majority_odds(&q[0], &q[1], &q[2]),
            false => te.majority_and_overall(&q[0], &q[1], &q[2], &q[3], &q[4]),
        }
    }

    /// The closed form for one-unit rows and the branch-free walk for weighted rows agree with
    /// the plain walk: the walk to the bit, the closed form to rounding; and the closed form is
    /// taken exactly where the overall point reduces to the majority point.
    #[test]
    fn majority_and_overall_points_match_the_plain_walk() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let weighted = Rules {
            bonus: [
                [0, 1, 2, 0, 0, 1, 3, 4, 5],
                [0; 9],
                [0, 0, 0, 0, 1, 1, 2, 3, 4],
            ],
            ..Rules::two_four()
        };
        let cases = [
            (Rules::two_four(), true),
            (Rules::pokerfever_western(), true),
            (
                Rules {
                    majority_point: 2,
                    ..Rules::two_four()
                },
                true,
            ),
            (weighted.clone(), false),
            (
                Rules {
                    majority_point: 1,
                    ..weighted
                },
                false,
            ),
        ];
        for (rules, by_rows) in cases {
            for split_ties in [false, true] {
                let rules = Rules {
                    suit_order: split_ties.then_some(crate::presets::SHISANSHUI_SUIT_ORDER),
                    ..rules.clone()
                };
                let te = TableEv::new(&rules, 2, OutcomeTables::random_rows(rules.wheel)).unwrap();
                assert_eq!(te.shape / 6 == 1, by_rows, "{rules:?}");
                for _ in 0..20_000 {
                    let c = [
                        rng.random_range(0..FRONT_CLASSES) as u16,
                        rng.random_range(0..FIVE_CLASSES) as u16,
                        rng.random_range(0..FIVE_CLASSES) as u16,
                    ];
                    let (got, want) = (points(&te, &c), plain(&te, &c));
                    if by_rows {
                        assert!((got - want).abs() <= 1e-14, "{c:?}: {got} vs {want}");
                    } else {
                        assert_eq!(got.to_bits(), want.to_bits(), "{c:?}");
                    }
                }
            }
        }
    }

    /// The front line is the bound along the fronts to rounding, for every preset at 2 to 4
    /// players (with the majority point in closed form, both scoops, sweeps and envelopes),
    /// with rows and a model that exercise every coefficient; only the walked overall point
    /// has none.
    #[test]
    fn front_line_is_the_bound_along_the_fronts() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let model = Model {
            scoop_for: 1.3,
            scoop_against: 0.8,
            sweep_rate: Some(0.07),
            natural_rate: 0.02,
            natural_value: 3.0,
            surrender_rate: 0.01,
            ..Model::default()
        };
        let weighted_overall = Rules {
            overall_point: 1,
            ..Rules::maceplay()
        };
        let rule_sets = crate::presets::PRESETS
            .iter()
            .map(|p| p.rules())
            .chain([weighted_overall]);
        let (mut lines, mut envelopes) = (0, 0);
        for rules in rule_sets {
            for players in 2..=4 {
                // random row masses: rows not monotone in class, so envelopes where they apply
                let mut dist = |n: usize| (0..n).map(|_| rng.random_range(0.5..2.0)).collect();
                let dist = [dist(FRONT_CLASSES), dist(FIVE_CLASSES), dist(FIVE_CLASSES)];
                let tables = OutcomeTables::new(rules.wheel, dist, 0.05)
                    .unwrap()
                    .with_model(model.clone())
                    .unwrap();
                let te = TableEv::new(&rules, players, tables).unwrap();
                envelopes += te.envelope.is_some() as usize;
                for _ in 0..200 {
                    let (middle, back) = (
                        rng.random_range(0..FIVE_CLASSES) as u16,
                        rng.random_range(0..FIVE_CLASSES) as u16,
                    );
                    let Some(line) = te.front_line(middle, back) else {
                        assert_eq!(te.shape / 6, 2, "{rules:?}");
                        continue;
                    };
                    lines += 1;
                    // the diagonal's line, made once for the back's class in single
                    // precision, is never below the same line and within rounding of it
                    let diagonal = te.diagonal_line(back).expect("a line for every class");
                    let (bound, same) = (TableBound(&te), te.front_line(back, back).unwrap());
                    let along = bound.along_fronts(back, back);
                    for front in 0..FRONT_CLASSES as u16 {
                        let (got, want) = (line.at(front), te.order_bound(&[front, middle, back]));
                        assert!(
                            (got - want).abs() <= 1e-12 * (1.0 + want.abs()),
                            "{rules:?} at {players}: {front} {middle} {back}: {got} vs {want}"
                        );
                        let (at, stored) = (same.at(front), diagonal.at(front));
                        assert!(
                            stored >= at && stored - at <= 1e-5 * (1.0 + at.abs()),
                            "{rules:?} at {players}: {front} {back}: {stored} vs {at}"
                        );
                        assert_eq!(along(front).to_bits(), stored.to_bits());
                        assert_eq!(bound.at_diagonal(front, back).to_bits(), stored.to_bits());
                    }
                }
            }
        }
        assert_eq!(lines, 8 * 3 * 200, "one line for each preset's trials");
        assert!(envelopes > 0);
    }
}
