//! What a better first threshold could save the table objective's search, per preset
//! (docs/performance.md, "What bounds it"): each hand's best value is worked out beforehand
//! and handed to the search, everywhere (the cut of the backs ranked and the walk) or to the
//! walk alone, and the passes over the hands are timed against the search as shipped, in
//! turn. Also: how often the shipped first threshold (the strongest back's best split) is
//! already the best, and how often the best split's back ranks with the strongest back.
//! Needs the `search-stats` feature (whose counters every pass pays alike):
//!
//! ```text
//! cargo run --release -p chinese-poker --features search-stats --example threshold_ceiling -- two_four 2
//! cargo run --release -p chinese-poker --features search-stats --example threshold_ceiling -- all 4 --hands 3000
//! ```
//!
//! Run from the repository root: it reads the shipped tables in `python/chinese_poker/data`.
//! The hands are those `solve_profile` deals; every pass must pick the shipped settings.

use chinese_poker::solve::search_stats::GivenThreshold;
use chinese_poker::solve::{best_table_ev, Scratch, Split};

mod common;
use common::{in_turn, median, median_ratio, presets_and_hands};

/// What the search is given from a hand's best value.
type Give = fn(f64) -> Option<GivenThreshold>;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (presets, players, dealt) = presets_and_hands(&args);
    for (name, _, te) in presets {
        let mut scratch = Scratch::default();
        let shipped: Vec<Split> = dealt
            .iter()
            .map(|h| best_table_ev(&te, h, &mut scratch).0)
            .collect();
        let s = scratch.stats;
        assert_eq!(
            s.searches as usize,
            dealt.len(),
            "{name}: the search is bounded"
        );
        // the search's own order of settings (the formula), as its threshold is kept
        let best: Vec<f64> = shipped.iter().map(|s| te.order_value(&s.classes)).collect();
        // shipped, the best value to the walk, the best value everywhere
        let given: [Give; 3] = [
            |_| None,
            |v| Some(GivenThreshold::WalkOnly(v)),
            |v| Some(GivenThreshold::Everywhere(v)),
        ];
        let times = in_turn(given.len(), dealt.len(), |way| {
            for ((hand, &v), want) in dealt.iter().zip(&best).zip(&shipped) {
                scratch.given_threshold = given[way](v);
                let got = best_table_ev(&te, hand, &mut scratch).0;
                assert_eq!(got, *want, "{name}: a given threshold changed the setting");
            }
        });
        let ratio = |way: usize| median_ratio(&times, way);
        println!(
            "{name} at {players}, {} hands: first threshold the best in {:.1}% of hands, best \
             back of the strongest rank in {:.1}%; µs a hand: shipped {:.2}, given to the walk \
             {:.2} ({:.3}x), given everywhere {:.2} ({:.3}x)",
            dealt.len(),
            100.0 * s.first_was_best as f64 / s.searches as f64,
            100.0 * s.best_on_strongest as f64 / s.searches as f64,
            median(times[0].clone()),
            median(times[1].clone()),
            ratio(1),
            median(times[2].clone()),
            ratio(2),
        );
    }
}
