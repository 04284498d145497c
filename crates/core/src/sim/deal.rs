//! Seeded deals: round `r` of a run with seed `s` is a shuffle seeded by `mix(s, r)`.

use crate::error::{Error, Result};
use crate::solve::monte_carlo::mix;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The most rounds one run plays (`simulate`'s rounds, `duel`'s deals): a run is played in
/// chunks, so this bounds its time, not its memory.
pub const MAX_ROUNDS: u64 = 1 << 40;

/// The most rounds one call deals, plays or decides into arrays it returns at once (`deal`, a
/// chunk of a run): 2^22 rounds of 4 hands are 218 MB of card codes. Larger counts are refused
/// before anything is allocated (use `first` to take a longer run in pages).
pub const MAX_DEALT_ROUNDS: usize = 1 << 22;

/// The largest seed of a run (every `u64`).
pub const MAX_SEED: u64 = u64::MAX;

/// Refuses a count of rounds (argument `name`) that one call could not hold in memory, and a
/// range `first..first + count` past the last round index, before anything is allocated.
pub fn check_round_range(name: &str, first: u64, count: usize) -> Result<()> {
    if count > MAX_DEALT_ROUNDS {
        return Err(Error::InvalidArgument {
            name: name.into(),
            reason: format!(
                "expected an int from 0 to {MAX_DEALT_ROUNDS} per call, got {count} (take a \
                 longer run in pages with `first`)"
            ),
        });
    }
    if first.checked_add(count as u64).is_none() {
        return Err(Error::InvalidArgument {
            name: name.into(),
            reason: "round indices past 2^64".into(),
        });
    }
    Ok(())
}

/// Salt that keeps a seat's policy randomness apart from the deal's own stream.
const SEAT_SALT: u64 = 0x5EA7_0000_0000_0000;

/// The seed of the random choices a policy makes for `seat` in the round seeded `round_seed`.
pub fn seat_seed(round_seed: u64, seat: usize) -> u64 {
    mix(round_seed ^ SEAT_SALT, seat as u64)
}

/// The hands of round `round` of a run seeded `seed`: `players` hands of 13 distinct codes, each
/// sorted ascending, and the round's seed (for the policies' own randomness).
pub fn deal_round(seed: u64, round: u64, players: usize) -> ([[u8; 13]; 4], u64) {
    let round_seed = mix(seed, round);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(round_seed);
    let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
    let need = 13 * players;
    for k in 0..need {
        let j = rng.random_range(k..52);
        deck.swap(k, j);
    }
    let mut hands = [[0u8; 13]; 4];
    for (p, hand) in hands.iter_mut().enumerate().take(players) {
        hand.copy_from_slice(&deck[13 * p..13 * p + 13]);
        hand.sort_unstable();
    }
    (hands, round_seed)
}

/// Rounds `first..first + count` of a run: a flat `count × players × 13` array of codes.
pub fn deal(seed: u64, first: u64, count: usize, players: usize) -> Result<Vec<u8>> {
    deal_until(seed, first, count, players, &crate::parallel::never)
}

/// Rounds dealt between two checks of [`deal_until`]'s `stop` (about a millisecond).
const DEAL_CHECK_ROUNDS: u64 = 4096;

/// [`deal`] that checks `stop` every few thousand rounds and returns `Error::Interrupted` once
/// it says so: the largest deal (2^22 rounds, about a second) stops within milliseconds.
pub fn deal_until(
    seed: u64,
    first: u64,
    count: usize,
    players: usize,
    stop: crate::parallel::Stop,
) -> Result<Vec<u8>> {
    crate::solve::check_players(players)?;
    check_round_range("rounds", first, count)?;
    let mut out = Vec::with_capacity(count * players * 13);
    for r in 0..count as u64 {
        if r % DEAL_CHECK_ROUNDS == 0 && r > 0 && stop() {
            return Err(Error::Interrupted);
        }
        let (hands, _) = deal_round(seed, first + r, players);
        for hand in &hands[..players] {
            out.extend_from_slice(hand);
        }
    }
    Ok(out)
}
