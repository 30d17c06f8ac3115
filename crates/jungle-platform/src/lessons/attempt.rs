//! Playing a stage: the learner's moves so far, checked one by one under the stage's rules (or Hidden Jungle's
//! attacks), each followed by the opponent's scripted reply, and what that makes of the stage: still going, the
//! goal reached (with stars), or failed. Nothing is kept between requests: the moves come every time and the
//! replies follow from them.

use jungle_hidden::moves::{legal_moves as hidden_legal_moves, resolve};
use jungle_rules::{Bitboard, Move, MoveList, Outcome, Position, draw_by_history};

use super::stage::{MAX_LEARNER_MOVES, Stage, Target};

/// Where a stage stands after the learner's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The goal is not reached yet; the learner is to move.
    Continue,
    /// The goal is reached, with 1 to 3 stars for the number of moves used.
    Done { stars: u8 },
    /// The game ended (or the moves ran out) without the goal: start the stage again.
    Failed(Failure),
}

/// Why a stage failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The game ended without the goal: how.
    GameOver(Outcome),
    /// [`MAX_LEARNER_MOVES`] moves were used.
    TooManyMoves,
}

/// The stage after the learner's moves: every position (start first), the opponent's replies, the status.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub positions: Vec<Position>,
    pub replies: Vec<Move>,
    pub status: Status,
    /// Squares of the opponent's animals the learner has seen (Hidden Jungle; every enemy square otherwise).
    pub revealed: Bitboard,
}

/// Why the learner's moves cannot be played; the stage is unchanged.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AttemptError {
    #[error("move {number} \"{text}\" is not a move")]
    Unreadable { number: usize, text: String },
    #[error("move {number} {text} is not legal here")]
    Illegal { number: usize, text: String },
    #[error("the stage was over before move {number}")]
    Over { number: usize },
}

/// Stars for reaching the goal in `used` learner moves when the best way takes `best`: three at best, two
/// within two moves more, one otherwise.
pub fn stars(used: usize, best: usize) -> u8 {
    if used <= best {
        3
    } else if used <= best + 2 {
        2
    } else {
        1
    }
}

impl Attempt {
    pub fn position(&self) -> &Position {
        self.positions.last().expect("the start is always there")
    }

    /// The moves the learner may make now (none once the stage is over), sorted as text.
    pub fn legal(&self, stage: &Stage) -> Vec<String> {
        if self.status != Status::Continue {
            return Vec::new();
        }
        let mut list: Vec<String> = legal_moves(stage, self.position())
            .as_slice()
            .iter()
            .map(ToString::to_string)
            .collect();
        list.sort();
        list
    }

    /// The position as the learner sees it: in Hidden Jungle the opponent's unrevealed animals are `x`/`X`.
    pub fn view_fen(&self, stage: &Stage) -> String {
        let fen = jungle_rules::fen::to_fen(self.position());
        if !stage.data.hidden {
            return fen;
        }
        let position = self.position();
        let hidden_side = !stage.learner;
        let (placement, rest) = fen.split_once(' ').unwrap_or((&fen, ""));
        let mut out = String::new();
        let mut rank = 9u8;
        let mut file = 0u8;
        for ch in placement.chars() {
            match ch {
                '/' => {
                    rank -= 1;
                    file = 0;
                    out.push(ch);
                }
                '1'..='7' => {
                    file += ch as u8 - b'0';
                    out.push(ch);
                }
                _ => {
                    let square: jungle_rules::Square = format!("{}{}", (b'a' + file) as char, rank)
                        .parse()
                        .expect("a FEN square is a square");
                    let unknown = position
                        .piece_at(square)
                        .is_some_and(|p| p.side == hidden_side)
                        && !self.revealed.contains(square);
                    out.push(match (unknown, ch.is_ascii_uppercase()) {
                        (false, _) => ch,
                        (true, true) => 'X',
                        (true, false) => 'x',
                    });
                    file += 1;
                }
            }
        }
        format!("{out} {rest}")
    }
}

/// The legal moves of the side to move: the rules' own, or Hidden Jungle's (any step or jump, attacks onto any
/// enemy piece included).
fn legal_moves(stage: &Stage, position: &Position) -> MoveList {
    if !stage.data.hidden {
        return position.legal_moves(&stage.rules);
    }
    if position.is_decided(&stage.rules) {
        return MoveList::new();
    }
    let side = position.side_to_move();
    let pieces = jungle_rules::Animal::ALL.into_iter().flat_map(|animal| {
        position
            .pieces(jungle_rules::Piece::new(side, animal))
            .map(move |sq| (animal, sq))
    });
    hidden_legal_moves(
        &stage.rules,
        side,
        pieces,
        position.side(side),
        position.occupied(),
    )
}

/// Plays `m` (legal) and keeps `revealed` following the opponent's revealed animals.
fn apply(stage: &Stage, position: &Position, m: Move, revealed: &mut Bitboard) -> Position {
    let opponent = !stage.learner;
    let mover = position.side_to_move();
    let next = if stage.data.hidden {
        let (next, _) = resolve(position, &stage.rules, m);
        // Both animals of an attack are seen; an opponent's animal entering water or jumping shows itself.
        if mover == opponent {
            let seen = position.piece_at(m.to).is_some()
                || jungle_hidden::moves::reveals_mover(&stage.rules, m);
            let was_seen = revealed.contains(m.from);
            *revealed = revealed.without(m.from);
            if (seen || was_seen) && next.piece_at(m.to).is_some_and(|p| p.side == opponent) {
                *revealed = revealed.with(m.to);
            }
        } else if position.piece_at(m.to).is_some() {
            *revealed = revealed.with(m.to);
        }
        next
    } else {
        position.after(m)
    };
    // Keep only squares still holding an opponent's animal.
    *revealed = revealed.intersect(next.side(opponent));
    if !stage.data.hidden {
        *revealed = next.side(opponent);
    }
    next
}

fn outcome(stage: &Stage, positions: &[Position]) -> Option<Outcome> {
    let position = positions.last()?;
    if let Some((winner, termination)) = decided(stage, position) {
        return Some(Outcome::win(winner, termination));
    }
    if legal_moves(stage, position).is_empty() {
        return Some(Outcome::win(
            !position.side_to_move(),
            jungle_rules::Termination::NoLegalMove,
        ));
    }
    draw_by_history(&stage.rules, positions)
}

fn decided(
    stage: &Stage,
    position: &Position,
) -> Option<(jungle_rules::Side, jungle_rules::Termination)> {
    position
        .outcome(&stage.rules)
        .filter(|o| o.termination != jungle_rules::Termination::NoLegalMove)
        .and_then(|o| o.winner.map(|w| (w, o.termination)))
}

fn goal_reached(stage: &Stage, positions: &[Position], outcome: Option<Outcome>) -> bool {
    let position = positions.last().expect("the start is always there");
    match &stage.target {
        Target::Reach { animal, squares } => squares.iter().any(|&sq| {
            position
                .piece_at(sq)
                .is_some_and(|p| p.side == stage.learner && p.animal == *animal)
        }),
        Target::Capture { animals } => animals.iter().all(|&animal| {
            position
                .pieces(jungle_rules::Piece::new(!stage.learner, animal))
                .is_empty()
        }),
        Target::Win => outcome.is_some_and(|o| o.winner == Some(stage.learner)),
        Target::Draw => outcome.is_some_and(|o| o.winner.is_none()),
    }
}

/// What the position after a move makes of the stage.
fn judge(stage: &Stage, positions: &[Position], used: usize) -> Status {
    let outcome = outcome(stage, positions);
    if goal_reached(stage, positions, outcome) {
        Status::Done {
            stars: stars(used, stage.best()),
        }
    } else if let Some(outcome) = outcome {
        Status::Failed(Failure::GameOver(outcome))
    } else {
        Status::Continue
    }
}

/// The opponent's reply after its `index`-th turn: the scripted one if it is legal, else the first legal move.
fn reply(stage: &Stage, position: &Position, index: usize) -> Option<Move> {
    let legal = legal_moves(stage, position);
    if let Some(&scripted) = stage.replies.get(index)
        && legal.contains(scripted)
    {
        return Some(scripted);
    }
    let mut moves = legal.as_slice().to_vec();
    moves.sort_by_key(ToString::to_string);
    moves.first().copied()
}

/// Plays the learner's `moves` (text) from the stage's start, each followed by the opponent's reply while the
/// stage goes on.
///
/// # Errors
/// A move that does not read, is not legal, or comes after the stage ended.
pub fn play(stage: &Stage, moves: &[String]) -> Result<Attempt, AttemptError> {
    let mut positions = vec![stage.start];
    let mut replies = Vec::new();
    let mut revealed = if stage.data.hidden {
        Bitboard::EMPTY
    } else {
        stage.start.side(!stage.learner)
    };
    let mut status = Status::Continue;
    for (i, text) in moves.iter().enumerate() {
        let number = i + 1;
        if status != Status::Continue {
            return Err(AttemptError::Over { number });
        }
        let m: Move = text.trim().parse().map_err(|_| AttemptError::Unreadable {
            number,
            text: text.chars().take(8).collect(),
        })?;
        let position = *positions.last().expect("the start is always there");
        if !legal_moves(stage, &position).contains(m) {
            return Err(AttemptError::Illegal {
                number,
                text: m.to_string(),
            });
        }
        positions.push(apply(stage, &position, m, &mut revealed));
        status = judge(stage, &positions, number);
        if status == Status::Continue {
            let position = *positions.last().expect("just pushed");
            let answer = reply(stage, &position, i).expect("a game not over has a move");
            replies.push(answer);
            positions.push(apply(stage, &position, answer, &mut revealed));
            status = judge(stage, &positions, number);
        }
        if status == Status::Continue && number >= MAX_LEARNER_MOVES {
            status = Status::Failed(Failure::TooManyMoves);
        }
    }
    Ok(Attempt {
        positions,
        replies,
        status,
        revealed,
    })
}
