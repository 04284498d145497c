//! What the profiling examples share: their arguments and the hands they deal.

use chinese_poker::sim::deal::deal;

/// The preset (default `two_four`; `all` where an example takes it) and the players (default 2)
/// given as the first two arguments.
pub fn preset_and_players(args: &[String]) -> (&str, usize) {
    let preset = args.first().map_or("two_four", String::as_str);
    let players = args
        .get(1)
        .map_or(2, |p| p.parse().expect("players: 2 to 4"));
    (preset, players)
}

/// The first `n` hands of the simulator's 4-player rounds for `seed`.
pub fn hands(n: usize, seed: u64) -> Vec<[u8; 13]> {
    deal(seed, 0, n.div_ceil(4), 4)
        .expect("4 players")
        .chunks_exact(13)
        .take(n)
        .map(|h| h.try_into().expect("13 cards"))
        .collect()
}
