//! What the bounded search does for a hand, counted: built only with the `search-stats`
//! feature, for `examples/search_stats.rs` and the figures of [performance](https://chinese-poker.github.io/chinese-poker/performance/) ("What a hand
//! costs"). Shipped builds have no counters, so the search pays nothing for them.

/// Sums over every search run on one [`super::Scratch`] (the frontier's and the bounded one's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Searches run.
    pub searches: u64,
    /// Backs (fives) at least as strong as the cut, listed and bucketed or made bucket by
    /// bucket (only those of the buckets the walk asks for).
    pub backs_past_cut: u64,
    /// Non-empty buckets (category and leading rank) of those backs, listed or made.
    pub buckets: u64,
    /// Buckets the search reached and sorted.
    pub buckets_sorted: u64,
    /// Backs in those buckets.
    pub backs_sorted: u64,
    /// Backs of those the walk reached, one by one, before it ended.
    pub backs_reached: u64,
    /// Backs that passed their bucket's and their rank's checks and were looked at one by one.
    pub backs_walked: u64,
    /// Plans of fronts made (one per distinct best five of a rank's rests).
    pub plans: u64,
    /// Backs whose plan left fronts to try.
    pub backs_with_fronts: u64,
    /// Fronts scanned, in class order, for those inside a back's rest.
    pub fronts_scanned: u64,
    /// Backs whose fronts were tried through the 56 splits of the rest instead.
    pub rests_split: u64,
    /// Splits found legal and not covered: the candidates.
    pub candidates: u64,
    /// Candidates valued (the others were covered by a stronger one of their back rank).
    pub valued: u64,
    /// Searches whose first threshold (the strongest back's best split) was the hand's best
    /// value: no later split beat it.
    pub first_was_best: u64,
    /// Searches whose best split has a back of the strongest back's rank.
    pub best_on_strongest: u64,
}

/// A first threshold given to the next bounded search from outside (the hand's best value,
/// worked out beforehand), to measure what a better one would save
/// (`examples/threshold_ceiling.rs`). The search stays exact: the value must be one that a
/// split of the hand reaches, so that the best is at least it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GivenThreshold {
    /// In place of the strongest back's value: it sets the cut of the backs ranked and the
    /// walk's first threshold.
    Everywhere(f64),
    /// The cut as shipped (from the strongest back's value); this one from the walk's start.
    WalkOnly(f64),
}

impl SearchStats {
    /// The counters in the order of the fields, with their names and whether each counts
    /// searches of a kind (a share of them) rather than things done in them.
    pub fn named(&self) -> [(&'static str, u64, bool); 15] {
        [
            ("searches", self.searches, false),
            ("backs_past_cut", self.backs_past_cut, false),
            ("buckets", self.buckets, false),
            ("buckets_sorted", self.buckets_sorted, false),
            ("backs_sorted", self.backs_sorted, false),
            ("backs_reached", self.backs_reached, false),
            ("backs_walked", self.backs_walked, false),
            ("plans", self.plans, false),
            ("backs_with_fronts", self.backs_with_fronts, false),
            ("fronts_scanned", self.fronts_scanned, false),
            ("rests_split", self.rests_split, false),
            ("candidates", self.candidates, false),
            ("valued", self.valued, false),
            ("first_was_best", self.first_was_best, true),
            ("best_on_strongest", self.best_on_strongest, true),
        ]
    }
}

/// The backs a search bucketed, as it left them before its walk (`rank << 13 | mask` keys,
/// weakest bucket first, and each bucket's range), recorded from one search and handed to a
/// later one of the same hand (`examples/backs_ceiling.rs`): what ranking the fives without a
/// list of backs, and bucketing them for free, would save.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BucketedBacks {
    /// The backs' keys, weakest bucket first.
    pub sorted: Vec<u64>,
    /// Each bucket's range of `sorted`.
    pub buckets: Vec<(usize, usize)>,
}
