//! Batch settlement over arrays of decisions, for pipelines whose policies live elsewhere: each
//! round's settings (front/middle/back codes), decision codes and naturals in, each seat's
//! points out, rounds settled in parallel.

use super::policy::Decided;
use super::run::{record_round, RoundColumns};
use crate::card::validate_rows;
use crate::error::{Error, Result};
use crate::rules::Rules;
use crate::solve::Choice;
use rayon::prelude::*;

/// Settles `rounds` rounds of `players` seats. `settings` holds `rounds × players × 13` codes
/// (front, middle, back), `choices` one [`crate::solve::Choice::code`] per seat (0 play, 1
/// declare, 2 surrender), `naturals` the declared natural's [`NaturalKind::ALL`](crate::rules::NaturalKind::ALL) index per seat
/// (read only where the choice is 1). `dealt`, where given (`rounds × players × 13` codes),
/// is each seat's dealt hand: it is the `hand` column, and a surrender's `setting` as in a
/// simulation; without it the `hand` column is the setting's cards sorted (zeros for a
/// surrender). Returns the same columns as a simulation. Errors name the round and the seat;
/// nothing is returned unless every round settles.
pub fn settle_rounds(
    rules: &Rules,
    players: usize,
    settings: &[u8],
    choices: &[u8],
    naturals: &[u8],
    dealt: Option<&[u8]>,
) -> Result<RoundColumns> {
    crate::solve::check_players(players)?;
    let rounds = settings.len() / (13 * players);
    if settings.len() != rounds * players * 13
        || choices.len() != rounds * players
        || naturals.len() != rounds * players
        || dealt.is_some_and(|d| d.len() != settings.len())
    {
        return Err(Error::InvalidShape {
            what: "settle_rounds".into(),
            expected: format!(
                "settings (R, {players}, 13), choices and naturals (R, {players}){}",
                if dealt.is_some() {
                    ", hands as settings"
                } else {
                    ""
                }
            ),
            got: format!(
                "{} setting codes, {} choices, {} naturals{}",
                settings.len(),
                choices.len(),
                naturals.len(),
                dealt.map_or(String::new(), |d| format!(", {} hand codes", d.len()))
            ),
        });
    }
    if let Some(d) = dealt {
        validate_rows(d, 13, "hands")?;
    }
    let per_round = (0..rounds)
        .into_par_iter()
        .with_min_len(64)
        .map(|r| {
            // the error `settle` gives for the same round, with the round named
            let at = |e: Error| match e {
                Error::InvalidDecision { player, reason } => Error::InvalidDecision {
                    player,
                    reason: format!("round {r}: {reason}"),
                },
                Error::DuplicateCardPlayers {
                    card,
                    first,
                    second,
                } => Error::DuplicateCardPlayers {
                    card: format!("{card} in round {r}"),
                    first,
                    second,
                },
                Error::DuplicateCard {
                    card,
                    first,
                    second,
                } => Error::DuplicateCard {
                    card: format!("{card} in round {r}"),
                    first,
                    second,
                },
                other => Error::InvalidArgument {
                    name: format!("round {r}"),
                    reason: other.to_string(),
                },
            };
            let mut decided = Vec::with_capacity(players);
            let mut hands = Vec::with_capacity(players);
            for seat in 0..players {
                let i = r * players + seat;
                let codes: [u8; 13] = settings[13 * i..13 * i + 13].try_into().expect("13");
                let seat_err = |reason: String| {
                    at(Error::InvalidDecision {
                        player: seat,
                        reason,
                    })
                };
                let choice = Choice::from_codes(choices[i], naturals[i]).map_err(seat_err)?;
                let mut hand = [0u8; 13];
                if choice != Choice::Surrender {
                    // the card errors `settle` gives, with the round and the seat named
                    validate_rows(&codes, 13, "setting").map_err(|e| match e {
                        Error::DuplicateCard {
                            card,
                            first,
                            second,
                        } => at(Error::DuplicateCard {
                            card: format!("{card} of seat {seat}"),
                            first,
                            second,
                        }),
                        Error::InvalidCard {
                            token,
                            position,
                            reason,
                        } => Error::InvalidCard {
                            token,
                            position,
                            reason: format!("round {r}, seat {seat}: {reason}"),
                        },
                        other => seat_err(other.to_string()),
                    })?;
                    hand = codes;
                    hand.sort_unstable();
                }
                if let Some(d) = dealt {
                    hand = d[13 * i..13 * i + 13].try_into().expect("13");
                }
                decided.push(Decided {
                    choice,
                    codes,
                    value: f64::NAN,
                });
                hands.push(hand);
            }
            record_round(rules, &hands, &decided).map_err(at)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(RoundColumns::from_rounds(players, 0, per_round))
}
