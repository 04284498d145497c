//! What the bounded search does for a hand, counted: built only with the `search-stats`
//! feature, for `examples/search_stats.rs` and the figures of docs/performance.md ("What a hand
//! costs"). Shipped builds have no counters, so the search pays nothing for them.

/// Sums over every search run on one [`super::Scratch`] (the frontier's and the bounded one's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Searches run.
    pub searches: u64,
    /// Backs (fives) at least as strong as the cut, so bucketed.
    pub backs_past_cut: u64,
    /// Non-empty buckets (category and leading rank) of those backs.
    pub buckets: u64,
    /// Buckets the search reached and sorted.
    pub buckets_sorted: u64,
    /// Backs in those buckets.
    pub backs_sorted: u64,
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
}

impl SearchStats {
    /// The counters in the order of the fields, with their names.
    pub fn named(&self) -> [(&'static str, u64); 12] {
        [
            ("searches", self.searches),
            ("backs_past_cut", self.backs_past_cut),
            ("buckets", self.buckets),
            ("buckets_sorted", self.buckets_sorted),
            ("backs_sorted", self.backs_sorted),
            ("backs_walked", self.backs_walked),
            ("plans", self.plans),
            ("backs_with_fronts", self.backs_with_fronts),
            ("fronts_scanned", self.fronts_scanned),
            ("rests_split", self.rests_split),
            ("candidates", self.candidates),
            ("valued", self.valued),
        ]
    }
}
