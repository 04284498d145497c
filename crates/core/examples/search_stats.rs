//! What the table objective's search does for a hand, per preset: the means of
//! `solve::search_stats::SearchStats` over dealt hands, and the shares of hands where the first
//! threshold was the best value and where the best back ranks with the strongest
//! (docs/performance.md, "What a hand costs"). Needs the `search-stats` feature:
//!
//! ```text
//! cargo run --release -p chinese-poker --features search-stats --example search_stats -- two_four 2
//! cargo run --release -p chinese-poker --features search-stats --example search_stats -- all 2 --hands 3000
//! ```
//!
//! Run from the repository root: it reads the shipped tables in `python/chinese_poker/data`.
//! The hands are those `solve_profile` deals (the 4-player rounds of a run, seed 7).

use chinese_poker::solve::{best_table_ev, Scratch};

mod common;
use common::presets_and_hands;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (presets, players, dealt) = presets_and_hands(&args);
    for (name, _, te) in presets {
        let mut scratch = Scratch::default();
        for hand in &dealt {
            best_table_ev(&te, hand, &mut scratch);
        }
        let s = scratch.stats;
        // what the search's order implies, so that a counter that stops counting shows
        assert_eq!(s.searches as usize, dealt.len());
        assert!(s.backs_sorted <= s.backs_past_cut && s.backs_reached <= s.backs_sorted);
        assert!(s.backs_walked <= s.backs_reached);
        assert!(s.backs_with_fronts <= s.backs_walked && s.valued <= s.candidates);
        let per_hand: Vec<String> = s.named()[1..]
            .iter()
            .map(|&(k, v, share)| {
                let mean = v as f64 / s.searches as f64;
                match share {
                    true => format!("{k} {:.1}%", 100.0 * mean),
                    false => format!("{k} {mean:.1}"),
                }
            })
            .collect();
        println!(
            "{name} at {players}, {} hands, a hand: {}",
            s.searches,
            per_hand.join(", ")
        );
    }
}
