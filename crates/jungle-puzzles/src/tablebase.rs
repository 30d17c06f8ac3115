//! Puzzles from the tablebases: positions where exactly one move keeps the win, exact, with the distance.
//!
//! The line follows the tables: at the solver's first turn exactly one move keeps the win (else the position
//! is refused), each reply is the defender's longest resistance (the slowest loss; ties go to the first move
//! in text order, as [`Tablebases::probe_moves`] sorts), and the line goes on while the solver's move is the
//! only winning one: to the end of the game, or to the last such move before a turn where several moves win
//! (the solver is then still winning, by the tables). A later turn where several moves win but one wins at
//! once (a den entry, the last capture) ends the line with that move: the solver plays the finish, and any
//! move that wins at once is taken as right ([`crate::judge_attempt`]).

use jungle_rules::terrain::{DENS, Direction};
use jungle_rules::{Move, Position, Rules, Side};
use jungle_tb::{Material, Probe, Tablebases, Wdl, value};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::{Line, Puzzle, Source, Verification};

/// What the tables say about one of the solver's turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Exactly one move keeps the win.
    Only(Move, Probe),
    /// This many moves keep the win.
    Several(usize),
    /// The side to move does not win.
    NoWin,
    /// A successor is not in the tables.
    NotCovered,
}

/// The solver's choice at `pos` by the tables.
pub fn only_winning_move(tables: &Tablebases, pos: &Position) -> Choice {
    let Some(moves) = tables.probe_moves(pos) else {
        return Choice::NotCovered;
    };
    let mut winners = moves.iter().filter(|(_, p)| p.wdl == Wdl::Win);
    match (winners.next(), winners.count()) {
        (None, _) => Choice::NoWin,
        (Some(&(m, p)), 0) => Choice::Only(m, p),
        (Some(_), more) => Choice::Several(more + 1),
    }
}

/// The defender's longest resistance at `pos` (a lost position): the slowest loss.
pub fn longest_resistance(tables: &Tablebases, pos: &Position) -> Option<(Move, Probe)> {
    tables.best_move(pos).filter(|(_, p)| p.wdl == Wdl::Loss)
}

/// A move that wins the game at once (the first in text order), if there is one.
pub fn winning_at_once(pos: &Position, rules: &Rules) -> Option<Move> {
    let mut moves: Vec<Move> = pos.legal_moves(rules).as_slice().to_vec();
    moves.sort_by_key(Move::to_string);
    moves.into_iter().find(|&m| {
        pos.after(m)
            .outcome(rules)
            .is_some_and(|o| o.winner == Some(pos.side_to_move()))
    })
}

/// Why a position makes no tablebase puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The side to move does not win within the wanted distance.
    Distance,
    /// At some turn of the solver `n` moves keep the win.
    SeveralWins(usize),
    /// A position of the line is missing from the tables.
    NotCovered,
}

/// The line of a won position by the tables (see the module's description), with the solver's distance to the
/// win from the start.
///
/// # Errors
/// The [`Refusal`].
pub fn tablebase_line(
    tables: &Tablebases,
    rules: &Rules,
    start: &Position,
) -> Result<(Line, u32), Refusal> {
    let plies = match tables.probe(start) {
        Some(Probe {
            wdl: Wdl::Win,
            plies: Some(n),
        }) => n,
        Some(_) => return Err(Refusal::Distance),
        None => return Err(Refusal::NotCovered),
    };
    let solver = start.side_to_move();
    let mut positions = vec![*start];
    let mut moves = Vec::new();
    loop {
        let pos = *positions.last().expect("at least the start");
        if pos.outcome(rules).is_some() {
            break;
        }
        let m = if pos.side_to_move() == solver {
            match only_winning_move(tables, &pos) {
                Choice::Only(m, _) => m,
                Choice::Several(n) if moves.is_empty() => return Err(Refusal::SeveralWins(n)),
                Choice::Several(_) if winning_at_once(&pos, rules).is_some() => {
                    let finish = winning_at_once(&pos, rules).expect("just found");
                    moves.push(finish);
                    positions.push(pos.after(finish));
                    break;
                }
                Choice::Several(_) => {
                    // End on the solver's last only move: take the reply back.
                    moves.pop();
                    positions.pop();
                    break;
                }
                Choice::NoWin => return Err(Refusal::Distance),
                Choice::NotCovered => return Err(Refusal::NotCovered),
            }
        } else {
            longest_resistance(tables, &pos)
                .ok_or(Refusal::NotCovered)?
                .0
        };
        moves.push(m);
        positions.push(pos.after(m));
    }
    Ok((
        Line {
            rules: rules.clone(),
            solver,
            moves,
            positions,
        },
        plies,
    ))
}

/// What to look for in one material.
#[derive(Clone, Debug)]
pub struct Search {
    /// The solver wins in `min_plies..=max_plies` plies.
    pub min_plies: u32,
    pub max_plies: u32,
    /// The solver has at least this many legal moves at the start.
    pub min_choices: usize,
    /// The line has at least this many moves of the solver.
    pub min_solver_moves: usize,
    /// Keep only lines that show a theme ([`crate::Theme`]): a den entry, a capture, a river jump.
    pub require_theme: bool,
    /// Stop after this many puzzles of the material.
    pub wanted: usize,
    /// Look at most this many random positions of the material.
    pub samples: u64,
    pub seed: u64,
}

/// Whether a won position is worth a puzzle before its line is looked at: not a step from the end (the
/// solver's piece already next to the den), not a forced capture (an enemy piece next to the solver's den),
/// and with a real choice of moves.
fn worth_a_look(pos: &Position, rules: &Rules, search: &Search) -> bool {
    let me = pos.side_to_move();
    let next_to_den = |side: Side| {
        let den = DENS[!side];
        Direction::ALL.into_iter().any(|d| {
            let (df, dr) = d.delta();
            den.offset(df, dr)
                .is_some_and(|sq| pos.side(side).contains(sq))
        })
    };
    !next_to_den(me) && !next_to_den(!me) && pos.count_moves(rules) >= search.min_choices
}

/// Puzzles from random positions of one material's table (both sides to move), ids `{prefix}-{n}`.
pub fn puzzles_of_material(
    tables: &Tablebases,
    material: Material,
    search: &Search,
    prefix: &str,
) -> Vec<Puzzle> {
    let rules = tables.rules().clone();
    let Some(table) = tables.table(material) else {
        return Vec::new();
    };
    let indexer = table.indexer();
    let mut rng = StdRng::seed_from_u64(search.seed);
    let mut found = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..search.samples {
        if found.len() >= search.wanted {
            break;
        }
        let index = rng.random_range(0..indexer.size());
        if !seen.insert(index) {
            continue;
        }
        let code = table.codes()[index as usize];
        if code == value::INVALID {
            continue;
        }
        let probe = value::decode(code);
        let in_range = probe.wdl == Wdl::Win
            && probe
                .plies
                .is_some_and(|n| (search.min_plies..=search.max_plies).contains(&n));
        if !in_range {
            continue;
        }
        let Some(pos) = indexer.position_at(index) else {
            continue;
        };
        if !worth_a_look(&pos, &rules, search) {
            continue;
        }
        let Ok((line, plies)) = tablebase_line(tables, &rules, &pos) else {
            continue;
        };
        if line.moves.len().div_ceil(2) < search.min_solver_moves
            || (search.require_theme && crate::themes_of(&line).is_empty())
        {
            continue;
        }
        let id = format!("{prefix}-{}", found.len() + 1);
        found.push(Puzzle::new(
            id,
            &line,
            Source::Tablebase {
                material: material.to_string(),
            },
            Verification::Tablebase { plies },
        ));
    }
    found
}
