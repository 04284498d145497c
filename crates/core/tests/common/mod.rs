//! What several integration tests share: random deals of card codes.
#![allow(dead_code)] // each test file uses its own part

use rand::Rng;

/// `n` hands of 13 distinct card codes, dealt from one shuffled deck.
pub fn deal(rng: &mut impl Rng, n: usize) -> Vec<[u8; 13]> {
    let mut deck: Vec<u8> = (0..52).collect();
    for i in 0..13 * n {
        let j = rng.random_range(i..52);
        deck.swap(i, j);
    }
    (0..n)
        .map(|p| deck[13 * p..13 * p + 13].try_into().unwrap())
        .collect()
}

/// One random hand of 13 distinct card codes.
pub fn random_hand(rng: &mut impl Rng) -> [u8; 13] {
    deal(rng, 1)[0]
}
