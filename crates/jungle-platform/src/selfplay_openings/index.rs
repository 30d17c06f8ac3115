//! A self-play collection as the explorer reads it: for each position of the games' first
//! [`EXPLORER_PLIES`](crate::store::EXPLORER_PLIES) plies, the moves played from it with their games and
//! results. Held in memory (a few megabytes for tens of thousands of games) and counted exactly as the store
//! counts the server's games ([`opening_plies`]: each position and move once a game), so the two sources of
//! the explorer agree on what a count means.

use std::collections::HashMap;

use jungle_rules::{Rules, Side};

use super::collection::Collection;
use crate::store::{OpeningMove, opening_plies, position_key};

/// The moves played from each position of a collection's openings.
#[derive(Debug)]
pub struct OpeningIndex {
    rules: Rules,
    games: usize,
    /// By [`position_key`], the most played move first.
    moves: HashMap<i64, Vec<OpeningMove>>,
}

impl OpeningIndex {
    pub fn new(collection: &Collection) -> OpeningIndex {
        let mut counts: HashMap<(i64, String), OpeningMove> = HashMap::new();
        for game in &collection.games {
            let moves: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
            for (key, mv) in opening_plies(&collection.rules, &moves) {
                let count = counts.entry((key, mv.clone())).or_insert(OpeningMove {
                    mv,
                    games: 0,
                    blue_wins: 0,
                    draws: 0,
                    red_wins: 0,
                    rating_sum: 0,
                    rated_games: 0,
                });
                count.games += 1;
                match game.winner {
                    Some(Side::Blue) => count.blue_wins += 1,
                    Some(Side::Red) => count.red_wins += 1,
                    None => count.draws += 1,
                }
            }
        }
        let mut moves: HashMap<i64, Vec<OpeningMove>> = HashMap::new();
        for ((key, _), count) in counts {
            moves.entry(key).or_default().push(count);
        }
        for list in moves.values_mut() {
            // The store's order: the most played first, then by the move's text.
            list.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.mv.cmp(&b.mv)));
        }
        OpeningIndex {
            rules: collection.rules.clone(),
            games: collection.games.len(),
            moves,
        }
    }

    /// The rules of the collection's games.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The games of the collection.
    pub fn games(&self) -> usize {
        self.games
    }

    /// The moves played from the position with this hash, the most played first (none for a position the
    /// games never reached in their openings).
    pub fn moves_at(&self, hash: u64) -> &[OpeningMove] {
        self.moves
            .get(&position_key(hash))
            .map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use jungle_rules::{Game, Position};

    use super::*;
    use crate::selfplay_openings::collection::read;

    fn index_of(lines: &[&str]) -> OpeningIndex {
        let mut text = super::super::collection::header(&Rules::default(), "test");
        for line in lines {
            text.push_str(line);
            text.push('\n');
        }
        OpeningIndex::new(&read(&text).unwrap())
    }

    fn after(moves: &[&str]) -> u64 {
        let mut game = Game::new(Rules::default());
        for m in moves {
            game.play_text(m).unwrap();
        }
        game.position().hash()
    }

    fn counts(index: &OpeningIndex, hash: u64) -> Vec<(String, u64, u64, u64, u64)> {
        index
            .moves_at(hash)
            .iter()
            .map(|m| (m.mv.clone(), m.games, m.blue_wins, m.draws, m.red_wins))
            .collect()
    }

    #[test]
    fn each_position_lists_its_moves_with_their_games_and_results_most_played_first() {
        let index = index_of(&[
            "blue a3a4 g7g6 a4a5",
            "red a3a4 a7a6",
            "draw a3a4 g7g6",
            "blue g3g4 a7a6",
        ]);
        assert_eq!(index.games(), 4);
        let start = Position::start(&Rules::default()).hash();
        assert_eq!(
            counts(&index, start),
            vec![
                ("a3a4".to_string(), 3, 1, 1, 1),
                ("g3g4".to_string(), 1, 1, 0, 0)
            ]
        );
        assert_eq!(
            counts(&index, after(&["a3a4"])),
            vec![
                ("g7g6".to_string(), 2, 1, 1, 0),
                ("a7a6".to_string(), 1, 0, 0, 1)
            ]
        );
        assert_eq!(
            counts(&index, after(&["a3a4", "g7g6"])),
            vec![("a4a5".to_string(), 1, 1, 0, 0)]
        );
        // The last position of a game has no move from it, nor has a position never reached.
        assert!(index.moves_at(after(&["a3a4", "g7g6", "a4a5"])).is_empty());
        assert!(index.moves_at(after(&["g3g4", "g7g6"])).is_empty());
    }

    #[test]
    fn a_position_repeated_in_a_game_counts_the_game_once() {
        // Back and forth: the start position and the move a3a4 come twice in the one game.
        let shuffle = "draw a3a4 a7a6 a4a3 a6a7 a3a4 a7a6";
        let index = index_of(&[shuffle]);
        let start = Position::start(&Rules::default()).hash();
        assert_eq!(
            counts(&index, start),
            vec![("a3a4".to_string(), 1, 0, 1, 0)]
        );
    }
}
