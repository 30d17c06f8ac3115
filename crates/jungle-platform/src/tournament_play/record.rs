//! What the store holds of one tournament, read at once — the tournament, its entrants with their ratings,
//! its games and byes — and what the pairing library is fed from it: a Swiss crosstable, arena points and the
//! arena's free players. Everything is derived from the games' stored results, never from a score kept
//! apart, so it cannot disagree with the games and no node's death loses any of it.

use std::collections::HashMap;

use jungle_rules::Side;

use crate::ratings::Category;
use crate::store::{Store, StoreError, Tournament, TournamentGame, TournamentPlayer};
use crate::tournaments::{Crosstable, Game, Outcome, PlayerId, Round, arena};

/// One tournament as stored.
#[derive(Clone, Debug)]
pub struct Record {
    pub tournament: Tournament,
    pub players: Vec<TournamentPlayer>,
    /// Each entrant's rating in the tournament's category, rounded.
    pub ratings: HashMap<i64, u32>,
    pub games: Vec<TournamentGame>,
    pub byes: Vec<(u32, i64)>,
}

/// The library's id of an account (account ids are positive).
pub fn player_id(account: i64) -> PlayerId {
    account.unsigned_abs()
}

impl Record {
    /// Reads the tournament's players, ratings, games and byes. The tournament is read first by the caller:
    /// a round paired from this record is created only if the round is still the one read
    /// (`Store::create_round`), so games created meanwhile by another node cannot be missed.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub fn load(store: &Store, tournament: Tournament) -> Result<Record, StoreError> {
        let players = store.tournament_players(&tournament.id)?;
        let category = category_of(&tournament);
        let mut ratings = HashMap::new();
        for player in &players {
            let rating = store.rating_of(player.user_id, category)?.rating().round();
            ratings.insert(player.user_id, rating.max(0.0) as u32);
        }
        let games = store.tournament_games(&tournament.id)?;
        let byes = store.tournament_byes(&tournament.id)?;
        Ok(Record {
            tournament,
            players,
            ratings,
            games,
            byes,
        })
    }

    pub fn rating(&self, account: i64) -> u32 {
        self.ratings.get(&account).copied().unwrap_or(0)
    }

    /// The games still being played.
    pub fn unfinished(&self) -> impl Iterator<Item = &TournamentGame> {
        self.games.iter().filter(|g| g.finished_at.is_none())
    }

    /// The Swiss crosstable of the rounds so far. An aborted game (nobody moved in time) counts for nobody:
    /// it is left out, as if the two had not met.
    pub fn crosstable(&self) -> Crosstable {
        let rounds = (1..=self.tournament.current_round)
            .map(|round| Round {
                games: self
                    .games
                    .iter()
                    .filter(|g| g.round == round && !g.aborted())
                    .map(|g| Game {
                        blue: player_id(g.players.blue),
                        red: player_id(g.players.red),
                        outcome: outcome(g),
                    })
                    .collect(),
                bye: self
                    .byes
                    .iter()
                    .find(|&&(r, _)| r == round)
                    .map(|&(_, account)| player_id(account)),
            })
            .collect();
        Crosstable {
            rounds,
            ..Crosstable::default()
        }
    }

    /// A player's arena games, in the order they ended (aborted ones count for nobody).
    fn arena_games(&self, account: i64) -> Vec<arena::Game> {
        let mut games: Vec<&TournamentGame> = self
            .games
            .iter()
            .filter(|g| g.finished_at.is_some() && !g.aborted())
            .filter(|g| g.players.blue == account || g.players.red == account)
            .collect();
        games.sort_by_key(|g| (g.finished_at, g.created_at));
        games
            .into_iter()
            .filter_map(|g| {
                let side = if g.players.blue == account {
                    Side::Blue
                } else {
                    Side::Red
                };
                let result = match outcome(g)? {
                    Outcome::Draw => arena::GameResult::Draw,
                    Outcome::Won(winner) if winner == side => arena::GameResult::Win,
                    Outcome::Won(_) => arena::GameResult::Loss,
                };
                Some(arena::Game {
                    result,
                    berserk: false,
                })
            })
            .collect()
    }

    /// A player's arena points (with streaks).
    pub fn arena_points(&self, account: i64) -> arena::Points {
        arena::points(&self.arena_games(account))
    }

    /// The arena's free players: entered, not gone, and not in a game of the arena.
    pub fn free_players(&self) -> Vec<arena::Free> {
        self.players
            .iter()
            .filter(|p| p.active)
            .filter(|p| {
                !self
                    .unfinished()
                    .any(|g| g.players.blue == p.user_id || g.players.red == p.user_id)
            })
            .map(|p| arena::Free {
                id: player_id(p.user_id),
                points: self.arena_points(p.user_id).total,
                rating: self.rating(p.user_id),
                last_opponent: self
                    .games
                    .iter()
                    .filter(|g| g.players.blue == p.user_id || g.players.red == p.user_id)
                    .max_by_key(|g| (g.created_at, g.round))
                    .map(|g| {
                        player_id(if g.players.blue == p.user_id {
                            g.players.red
                        } else {
                            g.players.blue
                        })
                    }),
            })
            .collect()
    }

    /// How many games a player played as Blue and as Red (for arena colours).
    pub fn colours(&self, account: i64) -> (usize, usize) {
        let blue = self
            .games
            .iter()
            .filter(|g| g.players.blue == account)
            .count();
        let red = self
            .games
            .iter()
            .filter(|g| g.players.red == account)
            .count();
        (blue, red)
    }
}

/// The rating category of the tournament's clock.
pub fn category_of(tournament: &Tournament) -> Category {
    Category::of_clock(tournament.clock_initial_ms, tournament.clock_increment_ms)
}

/// How a finished game ended, `None` while it is played or when it was aborted.
pub fn outcome(game: &TournamentGame) -> Option<Outcome> {
    if game.finished_at.is_none() || game.aborted() {
        return None;
    }
    Some(match game.winner.as_deref() {
        Some("blue") => Outcome::Won(Side::Blue),
        Some("red") => Outcome::Won(Side::Red),
        _ => Outcome::Draw,
    })
}
