//! The record of a Swiss event: each round's games with their results and its bye. Scores, the pairing
//! input for the next round ([`swiss::Player`]) and the tie-breaks are all derived from it, so they cannot
//! disagree with each other.

use std::ops::Add;

use jungle_rules::Side;

use super::{PlayerId, Score, swiss};

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Won(Side),
    Draw,
}

impl Outcome {
    /// What the player on `side` scored.
    pub const fn score_for(self, side: Side) -> Score {
        match self {
            Outcome::Won(winner) if winner as usize == side as usize => Score::WIN,
            Outcome::Won(_) => Score::ZERO,
            Outcome::Draw => Score::DRAW,
        }
    }
}

/// One game of a round: who had which side, and its outcome (`None` while it is being played).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    pub blue: PlayerId,
    pub red: PlayerId,
    pub outcome: Option<Outcome>,
}

/// One round: its games and the player who sat out with the bye, if the number was odd.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub games: Vec<Game>,
    pub bye: Option<PlayerId>,
}

/// Every round so far, and what a bye is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosstable {
    pub rounds: Vec<Round>,
    /// What a bye scores: a win (1 point) unless the event says otherwise.
    pub bye: Score,
}

impl Default for Crosstable {
    fn default() -> Self {
        Crosstable {
            rounds: Vec::new(),
            bye: Score::WIN,
        }
    }
}

/// A game seen from one player: the opponent, the side played, and what the player scored (`None` while the
/// game is being played).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encounter {
    pub opponent: PlayerId,
    pub side: Side,
    pub scored: Option<Score>,
}

impl Crosstable {
    /// The games `player` played, round by round, from the player's side.
    pub fn encounters(&self, player: PlayerId) -> impl Iterator<Item = Encounter> + '_ {
        self.rounds
            .iter()
            .flat_map(|round| &round.games)
            .filter_map(move |game| {
                let (opponent, side) = if game.blue == player {
                    (game.red, Side::Blue)
                } else if game.red == player {
                    (game.blue, Side::Red)
                } else {
                    return None;
                };
                Some(Encounter {
                    opponent,
                    side,
                    scored: game.outcome.map(|outcome| outcome.score_for(side)),
                })
            })
    }

    /// How many byes `player` has had.
    pub fn byes(&self, player: PlayerId) -> usize {
        self.rounds
            .iter()
            .filter(|round| round.bye == Some(player))
            .count()
    }

    /// The player's score: finished games plus byes.
    pub fn score(&self, player: PlayerId) -> Score {
        let games = self
            .encounters(player)
            .filter_map(|e| e.scored)
            .fold(Score::ZERO, Add::add);
        games + Score(self.bye.0 * self.byes(player) as u32)
    }

    /// The pairing input for the next round, one entry per `(id, rating)` entrant, in the entrants' order.
    pub fn players(&self, entrants: &[(PlayerId, u32)]) -> Vec<swiss::Player> {
        entrants
            .iter()
            .map(|&(id, rating)| {
                let encounters: Vec<Encounter> = self.encounters(id).collect();
                swiss::Player {
                    id,
                    rating,
                    score: self.score(id),
                    colours: encounters.iter().map(|e| e.side).collect(),
                    opponents: encounters.iter().map(|e| e.opponent).collect(),
                    had_bye: self.byes(id) > 0,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_count_wins_draws_and_byes() {
        let table = Crosstable {
            rounds: vec![
                Round {
                    games: vec![Game {
                        blue: 1,
                        red: 2,
                        outcome: Some(Outcome::Won(Side::Red)),
                    }],
                    bye: Some(3),
                },
                Round {
                    games: vec![Game {
                        blue: 3,
                        red: 1,
                        outcome: Some(Outcome::Draw),
                    }],
                    bye: Some(2),
                },
            ],
            ..Crosstable::default()
        };
        assert_eq!(table.score(1), Score(1));
        assert_eq!(table.score(2), Score(4));
        assert_eq!(table.score(3), Score(3));
        let players = table.players(&[(1, 1500)]);
        assert_eq!(players[0].colours, vec![Side::Blue, Side::Red]);
        assert_eq!(players[0].opponents, vec![2, 3]);
        assert!(!players[0].had_bye);
    }
}
