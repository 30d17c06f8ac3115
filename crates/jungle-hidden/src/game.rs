//! `HiddenGame`: the true state of a hidden game, held by whoever referees it (the server, the match runner, the
//! terminal game). It has no `Display`, its `Debug` shows nothing secret, and nothing returns its positions or
//! arrangements before the game is over: what leaves it is a [`View`] or the [`PublicMove`]s.

use std::fmt;

use jungle_rules::{
    BySide, IllegalMoveError, Move, MoveList, Outcome, Position, Rules, Side, Square, Termination,
    draw_by_history,
};

use crate::moves::{self, Effect, PublicMove};
use crate::{Arrangement, ArrangementError, View};

/// A hidden game: the rules, both arrangements, the true positions and the public moves.
#[derive(Clone)]
pub struct HiddenGame {
    rules: Rules,
    arrangements: BySide<Arrangement>,
    /// `positions[0]` is the start; `positions[i]` follows `history[i - 1]`.
    positions: Vec<Position>,
    history: Vec<PublicMove>,
    /// Which animals of each side both players have seen.
    revealed: BySide<[bool; 8]>,
    /// An ending decided off the board (resignation, time, adjudication).
    declared: Option<Outcome>,
}

/// Why a move cannot be played. The reasons name only what the mover knows: its own piece, the squares, and
/// the game's end — never the animal of an enemy piece.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HiddenMoveError {
    #[error("the game is over: {0}")]
    Over(Outcome),
    #[error("there is no piece on {0}")]
    NoPiece(Square),
    #[error("the piece on {0} belongs to the side not to move")]
    NotYourPiece(Square),
    #[error(transparent)]
    Illegal(IllegalMoveError),
}

/// Shows the public state only, so that logging a game cannot leak it.
impl fmt::Debug for HiddenGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HiddenGame")
            .field("rules", &self.rules.to_string())
            .field("plies", &self.history.len())
            .field("outcome", &self.outcome())
            .finish_non_exhaustive()
    }
}

impl HiddenGame {
    /// A new game from two arrangements, Blue to move.
    ///
    /// # Errors
    /// [`ArrangementError`] when an arrangement is for the wrong side or the two do not make a valid position.
    pub fn new(
        rules: Rules,
        blue: Arrangement,
        red: Arrangement,
    ) -> Result<HiddenGame, ArrangementError> {
        let arrangements = BySide::new(blue, red);
        let start = Arrangement::start_position(&rules, &arrangements)?;
        Ok(HiddenGame {
            rules,
            arrangements,
            positions: vec![start],
            history: Vec::new(),
            revealed: BySide::default(),
            declared: None,
        })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    pub fn side_to_move(&self) -> Side {
        self.position().side_to_move()
    }

    /// The public moves so far.
    pub fn history(&self) -> &[PublicMove] {
        &self.history
    }

    /// The side's own arrangement: for handing to that side's player (and to everyone once the game is over).
    pub fn arrangement(&self, side: Side) -> &Arrangement {
        &self.arrangements[side]
    }

    /// Both arrangements, once the game is over.
    pub fn arrangements_after_end(&self) -> Option<&BySide<Arrangement>> {
        self.is_over().then_some(&self.arrangements)
    }

    /// The legal moves of the side to move (none once the game is over). They depend only on that side's own
    /// animals and on where the pieces stand: a move onto any enemy piece is an attack.
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            MoveList::new()
        } else {
            self.moves_of_side_to_move()
        }
    }

    fn moves_of_side_to_move(&self) -> MoveList {
        let pos = self.position();
        if pos.is_decided(&self.rules) {
            return MoveList::new();
        }
        let us = pos.side_to_move();
        let pieces = pos
            .side(us)
            .map(|sq| (pos.piece_at(sq).expect("own piece").animal, sq));
        moves::legal_moves(&self.rules, us, pieces, pos.side(us), pos.occupied())
    }

    /// The end of the game, if it has ended: a declared ending, the board's endings (den entered, all
    /// captured, no legal move — counting attacks), then the draw rules.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.declared.is_some() {
            return self.declared;
        }
        let pos = self.position();
        if pos.is_decided(&self.rules) {
            return pos.outcome(&self.rules);
        }
        if self.moves_of_side_to_move().is_empty() {
            return Some(Outcome::win(!pos.side_to_move(), Termination::NoLegalMove));
        }
        draw_by_history(&self.rules, &self.positions)
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Ends the game off the board (resignation, time, adjudication). Ignored once the game is over.
    pub fn declare(&mut self, outcome: Outcome) {
        if !self.is_over() {
            self.declared = Some(outcome);
        }
    }

    /// Plays a move of the side to move: a move onto an enemy piece is an attack, won by the attacker if the
    /// capture rules let it capture the defender, else lost (the attacker is captured). Returns what both
    /// players see of it.
    ///
    /// # Errors
    /// [`HiddenMoveError`]; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<PublicMove, HiddenMoveError> {
        if let Some(outcome) = self.outcome() {
            return Err(HiddenMoveError::Over(outcome));
        }
        let pos = *self.position();
        let us = pos.side_to_move();
        let piece = pos
            .piece_at(m.from)
            .ok_or(HiddenMoveError::NoPiece(m.from))?;
        if piece.side != us {
            return Err(HiddenMoveError::NotYourPiece(m.from));
        }
        if !self.moves_of_side_to_move().contains(m) {
            // Not even an attack: the open game's reason concerns only the mover's own piece and the terrain.
            return Err(match pos.check_move(&self.rules, m) {
                Err(illegal) => HiddenMoveError::Illegal(illegal),
                Ok(()) => unreachable!("the open game's moves are hidden moves"),
            });
        }
        let (next, effect) = moves::resolve(&pos, &self.rules, m);
        if let Effect::Captured(defender) | Effect::Repelled(defender) = effect {
            self.revealed[!us][defender.index()] = true;
        }
        if effect != Effect::Quiet || moves::reveals_mover(&self.rules, m) {
            self.revealed[us][piece.animal.index()] = true;
        }
        let public = PublicMove {
            side: us,
            mv: m,
            mover: self.revealed[us][piece.animal.index()].then_some(piece.animal),
            effect,
        };
        self.positions.push(next);
        self.history.push(public);
        Ok(public)
    }

    /// What `viewer` knows (`None`: a spectator): rebuilt from the viewer's own arrangement and the public moves
    /// alone, with everything shown once the game is over.
    pub fn view(&self, viewer: Option<Side>) -> View {
        let own = viewer.map(|side| &self.arrangements[side]);
        let mut view = View::start(&self.rules, viewer, own).expect("the viewer's own arrangement");
        for public in &self.history {
            view.apply(public)
                .expect("the game's own moves fit its views");
        }
        if let Some(outcome) = self.outcome() {
            view.finish(outcome, &self.arrangements)
                .expect("the game's own setups");
        }
        view
    }

    /// A view of `viewer` with every animal shown although the game goes on: only for measuring what the hidden
    /// information is worth (an AI given the truth). Never hand it to a player.
    pub fn view_with_everything_shown(&self, viewer: Side) -> View {
        let mut view = self.view(Some(viewer));
        if view.outcome().is_none() {
            view.show_everything(&self.arrangements)
                .expect("the game's own setups");
        }
        view
    }
}
