//! The standings of a tournament, recomputed from its games whenever asked: a Swiss event's by score,
//! Buchholz and Sonneborn-Berger (the library's order), an arena's by points (streaks doubled), then rating.
//! The top three of a finished tournament are its podium.

use std::cmp::Reverse;

use serde::Serialize;

use super::record::{Record, player_id};
use crate::store::TournamentKind;
use crate::tournaments::tiebreaks;

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    /// 1 for the first.
    pub rank: u32,
    pub user_id: i64,
    pub name: String,
    pub rating: u32,
    /// Still playing: an arena player who has not left, a Swiss player who has not withdrawn.
    pub active: bool,
    /// The score as shown: Swiss points (`2½`) or arena points.
    pub score: String,
    /// Swiss: Buchholz and Sonneborn-Berger, as shown (`4½`, `3¼`).
    pub buchholz: Option<String>,
    pub sonneborn_berger: Option<String>,
    /// Arena: what each game earned, in order, and whether the next win counts double.
    pub per_game: Option<Vec<u32>>,
    pub on_fire: bool,
    /// Games finished (byes are not games).
    pub games: u32,
}

/// The standings, first place first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Standings {
    pub lines: Vec<Line>,
}

impl Standings {
    /// The first three, for the podium of a finished tournament.
    pub fn podium(&self) -> &[Line] {
        &self.lines[..self.lines.len().min(3)]
    }
}

/// Quarter points written as a crosstable writes them (`3¼`).
fn quarters(q: u32) -> String {
    let whole = q / 4;
    let part = match q % 4 {
        1 => "¼",
        2 => "½",
        3 => "¾",
        _ => "",
    };
    match (whole, part) {
        (0, "") => "0".into(),
        (0, part) => part.into(),
        (whole, part) => format!("{whole}{part}"),
    }
}

/// The standings of the record's tournament.
pub fn standings(record: &Record) -> Standings {
    let finished_games = |account: i64| {
        record
            .games
            .iter()
            .filter(|g| g.finished_at.is_some() && !g.aborted())
            .filter(|g| g.players.blue == account || g.players.red == account)
            .count() as u32
    };
    let mut lines: Vec<Line> = match record.tournament.kind {
        TournamentKind::Swiss { .. } => {
            let table = record.crosstable();
            let entrants: Vec<(u64, u32)> = record
                .players
                .iter()
                .map(|p| (player_id(p.user_id), record.rating(p.user_id)))
                .collect();
            tiebreaks::standings(&table, &entrants)
                .into_iter()
                .filter_map(|s| {
                    let player = record
                        .players
                        .iter()
                        .find(|p| player_id(p.user_id) == s.id)?;
                    Some(Line {
                        rank: 0,
                        user_id: player.user_id,
                        name: player.name.clone(),
                        rating: s.rating,
                        active: player.active,
                        score: s.score.to_string(),
                        buchholz: Some(s.buchholz.to_string()),
                        sonneborn_berger: Some(quarters(s.sonneborn_berger)),
                        per_game: None,
                        on_fire: false,
                        games: finished_games(player.user_id),
                    })
                })
                .collect()
        }
        TournamentKind::Arena { .. } => {
            let mut scored: Vec<(u32, Line)> = record
                .players
                .iter()
                .map(|p| {
                    let points = record.arena_points(p.user_id);
                    (
                        points.total,
                        Line {
                            rank: 0,
                            user_id: p.user_id,
                            name: p.name.clone(),
                            rating: record.rating(p.user_id),
                            active: p.active,
                            score: points.total.to_string(),
                            buchholz: None,
                            sonneborn_berger: None,
                            per_game: Some(points.per_game),
                            on_fire: points.on_fire,
                            games: finished_games(p.user_id),
                        },
                    )
                })
                .collect();
            scored.sort_by_key(|(points, line)| {
                (Reverse(*points), Reverse(line.rating), line.user_id)
            });
            scored.into_iter().map(|(_, line)| line).collect()
        }
    };
    for (i, line) in lines.iter_mut().enumerate() {
        line.rank = i as u32 + 1;
    }
    Standings { lines }
}
