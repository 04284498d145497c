//! What making the table objective's backs some other way could save, per preset
//! (docs/performance.md, "Tried and dropped"): each hand's backs past the cut, bucketed, are
//! recorded from one search and handed to later ones, which then rank the fives without the
//! list of backs and do not bucket them; those passes are timed against the search as shipped,
//! in turn. No way of making the backs can be cheaper than getting them for nothing, so this
//! bounds, for example, backs generated bucket by bucket from the hand's ranks. Needs the
//! `search-stats` feature (whose counters every pass pays alike):
//!
//! ```text
//! cargo run --release -p chinese-poker --features search-stats --example backs_ceiling -- two_four 2
//! cargo run --release -p chinese-poker --features search-stats --example backs_ceiling -- all 4 --hands 3000
//! ```
//!
//! Run from the repository root: it reads the shipped tables in `python/chinese_poker/data`.
//! The hands are those `solve_profile` deals; every pass must pick the shipped settings.

use chinese_poker::solve::search_stats::BucketedBacks;
use chinese_poker::solve::{best_table_ev, Scratch, Split};

mod common;
use common::{in_turn, median, median_ratio, presets_and_hands};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (presets, players, dealt) = presets_and_hands(&args);
    for (name, _, te) in presets {
        let mut scratch = Scratch::default();
        scratch.record_backs = true;
        let (shipped, backs): (Vec<Split>, Vec<BucketedBacks>) = dealt
            .iter()
            .map(|h| {
                let split = best_table_ev(&te, h, &mut scratch).0;
                (split, scratch.last_backs.clone())
            })
            .unzip();
        scratch.record_backs = false;
        // as shipped, then with each hand's backs given
        let times = in_turn(2, dealt.len(), |way| {
            for ((hand, backs), want) in dealt.iter().zip(&backs).zip(&shipped) {
                if way == 1 {
                    scratch.give_backs(backs);
                }
                let got = best_table_ev(&te, hand, &mut scratch).0;
                assert_eq!(got, *want, "{name}: given backs changed the setting");
            }
        });
        let ratio = median_ratio(&times, 1);
        let mean_backs =
            backs.iter().map(|b| b.sorted.len()).sum::<usize>() as f64 / dealt.len() as f64;
        println!(
            "{name} at {players}, {} hands, {mean_backs:.1} backs past the cut a hand; µs a hand: \
             shipped {:.2}, backs given {:.2} ({ratio:.3}x)",
            dealt.len(),
            median(times[0].clone()),
            median(times[1].clone()),
        );
    }
}
