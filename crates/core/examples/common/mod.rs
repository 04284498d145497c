//! What the profiling examples share: their arguments and the hands they deal.

use chinese_poker::presets::PRESET_NAMES;
use chinese_poker::sim::deal::deal;
use chinese_poker::solve::{load_shipped, TableEv};
use chinese_poker::Rules;

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

/// A preset's name, rules and shipped tables.
#[allow(dead_code)]
pub type Shipped<'a> = (&'a str, Rules, TableEv);

/// For the examples that go through presets in turn: each preset the first argument names
/// (`all`: every one) with its rules and shipped tables at the players of the second, the
/// players, and the first `--hands` hands (default 1,000) of seed 7. Run from the repository
/// root: the tables are read from `python/chinese_poker/data`.
#[allow(dead_code)]
pub fn presets_and_hands(args: &[String]) -> (Vec<Shipped<'_>>, usize, Vec<[u8; 13]>) {
    let (preset, players) = preset_and_players(args);
    let count: usize = args
        .iter()
        .position(|a| a == "--hands")
        .map_or(1000, |i| args[i + 1].parse().expect("--hands: a count"));
    let names: Vec<&str> = match preset {
        "all" => PRESET_NAMES.to_vec(),
        name => vec![name],
    };
    let presets = names
        .into_iter()
        .map(|name| {
            let rules = Rules::preset(name).expect("a preset name");
            let te =
                load_shipped("python/chinese_poker/data", &rules, players).expect("shipped tables");
            (name, rules, te)
        })
        .collect();
    (presets, players, hands(count, 7))
}

/// Passes timed per way of searching, in turn (the ceiling examples).
#[allow(dead_code)]
pub const ROUNDS: usize = 9;

/// The median of `v`.
#[allow(dead_code)]
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `ways` ways of searching timed in turn, [`ROUNDS`] passes each, `pass(way)` running one
/// pass over `hands` hands: µs a hand of every pass, by way.
#[allow(dead_code)]
pub fn in_turn(ways: usize, hands: usize, mut pass: impl FnMut(usize)) -> Vec<Vec<f64>> {
    let mut times = vec![Vec::new(); ways];
    for _ in 0..ROUNDS {
        for (way, t) in times.iter_mut().enumerate() {
            let start = std::time::Instant::now();
            pass(way);
            t.push(start.elapsed().as_secs_f64() * 1e6 / hands as f64);
        }
    }
    times
}

/// The median over the rounds of the first way's time over `way`'s: how much faster `way` is.
#[allow(dead_code)]
pub fn median_ratio(times: &[Vec<f64>], way: usize) -> f64 {
    median(
        times[0]
            .iter()
            .zip(&times[way])
            .map(|(a, b)| a / b)
            .collect(),
    )
}
