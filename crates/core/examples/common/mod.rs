//! What the profiling examples share: their arguments and the hands they deal.

use chinese_poker::sim::deal::deal;

/// The preset given as the first argument (default `two_four`; `all` where an example takes it).
pub fn preset(args: &[String]) -> &str {
    args.first().map_or("two_four", String::as_str)
}

/// [`preset`] and the players given as the second argument (default 2).
#[allow(dead_code)] // (each example compiles this module on its own; mc_profile uses `preset`)
pub fn preset_and_players(args: &[String]) -> (&str, usize) {
    let preset = preset(args);
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
