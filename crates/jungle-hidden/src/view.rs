//! What one player — or a spectator — knows of a hidden game: where every piece stands and whose it is, the
//! viewer's own animals, the animals that have been revealed, and the public moves. A view is built from the
//! viewer's own arrangement and the public moves only ([`View::start`], [`View::apply`]), so it cannot hold a
//! secret of the other side; once the game is over, [`View::finish`] shows everything.

use jungle_rules::{
    Animal, Bitboard, BySide, Move, MoveList, Outcome, Position, Rules, Side, Square,
};

use crate::Arrangement;
use crate::moves::{self, Effect, PublicMove};

/// A piece as a view sees it: its side, its animal when the viewer knows it, and the start square it came
/// from (public: every move is seen, so each piece can be followed from its start square).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seen {
    pub side: Side,
    pub animal: Option<Animal>,
    /// Whether both players know the animal (it was revealed); a viewer's own unrevealed pieces have their
    /// `animal` but not this.
    pub revealed: bool,
    pub origin: Square,
}

/// One side's or a spectator's knowledge of a hidden game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    rules: Rules,
    /// `None` for a spectator.
    viewer: Option<Side>,
    board: [Option<Seen>; 63],
    /// The board at the start as this viewer knew it (its own animals only), for replaying what it knew then.
    start_board: [Option<Seen>; 63],
    side_to_move: Side,
    quiet_plies: u32,
    move_number: u32,
    history: Vec<PublicMove>,
    outcome: Option<Outcome>,
}

/// Why a public move or an ending does not fit a view.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    #[error("the setup is for {found}, the view is {expected}'s")]
    WrongSide { expected: String, found: Side },
    #[error("the game is already over ({0})")]
    Over(Outcome),
    #[error("{mv}: it is {expected}'s move")]
    NotToMove { mv: Move, expected: Side },
    #[error("{mv}: no piece of the side to move on {}", mv.from)]
    NoPiece { mv: Move },
    #[error("{mv}: the moving piece is known to be the {known}, the move says the {said}")]
    WrongMover {
        mv: Move,
        known: Animal,
        said: Animal,
    },
    #[error("{mv}: the defender is known to be the {known}, the move says the {said}")]
    WrongDefender {
        mv: Move,
        known: Animal,
        said: Animal,
    },
    #[error("{mv}: not a move this piece can make")]
    Illegal { mv: Move },
    #[error(
        "{mv}: the effect does not fit the board (an attack needs an enemy piece on the destination, a quiet move an empty square)"
    )]
    WrongEffect { mv: Move },
    #[error("{mv}: by the capture rules the attack ends the other way")]
    WrongResolution { mv: Move },
    #[error(
        "{mv}: an attack, a jump or a move into water reveals the mover; its animal is missing"
    )]
    MissingReveal { mv: Move },
    #[error(
        "{mv}: the moving piece was revealed before, so the move names it; its animal is missing"
    )]
    MissingKnownMover { mv: Move },
    #[error(
        "{mv}: names the mover's animal, but nothing reveals it (it was not revealed before, and the move neither attacks, jumps nor enters water)"
    )]
    NoReveal { mv: Move },
    #[error("the setups do not match the pieces' animals revealed during the game")]
    WrongSetups,
}

impl View {
    /// The view at the start: every piece on its start square, the viewer's own animals known (from `own`),
    /// every other animal unknown.
    ///
    /// # Errors
    /// [`ViewError::WrongSide`] when `own` is not the viewer's side's arrangement (or given to a spectator).
    pub fn start(
        rules: &Rules,
        viewer: Option<Side>,
        own: Option<&Arrangement>,
    ) -> Result<View, ViewError> {
        let start = Position::start(rules);
        let mut board = [None; 63];
        for sq in start.occupied() {
            let side = start.piece_at(sq).expect("occupied").side;
            board[sq.index()] = Some(Seen {
                side,
                animal: None,
                revealed: false,
                origin: sq,
            });
        }
        if let Some(own) = own {
            if Some(own.side()) != viewer {
                return Err(ViewError::WrongSide {
                    expected: viewer.map_or("a spectator".to_string(), |s| s.to_string()),
                    found: own.side(),
                });
            }
            for &(sq, animal) in own.placement() {
                if let Some(seen) = &mut board[sq.index()] {
                    seen.animal = Some(animal);
                }
            }
        }
        Ok(View {
            rules: rules.clone(),
            viewer,
            board,
            start_board: board,
            side_to_move: start.side_to_move(),
            quiet_plies: start.quiet_plies(),
            move_number: start.move_number(),
            history: Vec::new(),
            outcome: None,
        })
    }

    /// Adds a public move, after checking it fits what the view knows (so a view fed by another program — the
    /// engine protocol — stays consistent).
    ///
    /// # Errors
    /// [`ViewError`] naming the mismatch; the view is unchanged.
    pub fn apply(&mut self, public: &PublicMove) -> Result<(), ViewError> {
        let mv = public.mv;
        if let Some(outcome) = self.outcome {
            return Err(ViewError::Over(outcome));
        }
        if public.side != self.side_to_move {
            return Err(ViewError::NotToMove {
                mv,
                expected: self.side_to_move,
            });
        }
        let mover = self
            .piece_at(mv.from)
            .filter(|p| p.side == public.side)
            .ok_or(ViewError::NoPiece { mv })?;
        let animal = match (mover.animal, public.mover) {
            (Some(known), Some(said)) if known != said => {
                return Err(ViewError::WrongMover { mv, known, said });
            }
            (known, said) => said.or(known),
        };
        // The mover is named exactly when both players know it: revealed before, or by this move.
        let attack = public.effect != Effect::Quiet;
        let reveals = attack || moves::reveals_mover(&self.rules, mv);
        match (public.mover, reveals, mover.revealed) {
            (None, true, _) => return Err(ViewError::MissingReveal { mv }),
            (None, false, true) => return Err(ViewError::MissingKnownMover { mv }),
            (Some(_), false, false) => return Err(ViewError::NoReveal { mv }),
            _ => {}
        }
        let own = self.squares_of(public.side);
        let legal = match animal {
            Some(animal) => moves::legal_moves(
                &self.rules,
                public.side,
                [(animal, mv.from)],
                own,
                self.occupied(),
            )
            .contains(mv),
            // An unknown piece's move is a step on land that any animal could make: anything else reveals it.
            None => {
                !moves::is_jump(mv) && !own.contains(mv.to) && !self.rules.water().contains(mv.to)
            }
        };
        if !legal {
            return Err(ViewError::Illegal { mv });
        }
        let defender = self.piece_at(mv.to);
        match (public.effect, defender) {
            (Effect::Quiet, None) => {}
            (Effect::Captured(said) | Effect::Repelled(said), Some(seen))
                if seen.side != public.side =>
            {
                if let Some(known) = seen.animal.filter(|&known| known != said) {
                    return Err(ViewError::WrongDefender { mv, known, said });
                }
                let attacker = animal.expect("an attack names its attacker (checked above)");
                let wins = self
                    .rules
                    .can_capture(public.side, attacker, mv.from, said, mv.to);
                if wins != matches!(public.effect, Effect::Captured(_)) {
                    return Err(ViewError::WrongResolution { mv });
                }
            }
            _ => return Err(ViewError::WrongEffect { mv }),
        }

        let moved = Seen {
            animal,
            revealed: public.mover.is_some(),
            ..mover
        };
        self.board[mv.from.index()] = None;
        match public.effect {
            Effect::Quiet => self.board[mv.to.index()] = Some(moved),
            Effect::Captured(_) => self.board[mv.to.index()] = Some(moved),
            Effect::Repelled(defender) => {
                if let Some(seen) = &mut self.board[mv.to.index()] {
                    seen.animal = Some(defender);
                    seen.revealed = true;
                }
            }
        }
        self.quiet_plies = if attack { 0 } else { self.quiet_plies + 1 };
        if self.side_to_move == Side::Red {
            self.move_number += 1;
        }
        self.side_to_move = !self.side_to_move;
        self.history.push(*public);
        Ok(())
    }

    /// Ends the view's game: the outcome, and every animal shown (each piece's animal is the one its
    /// arrangement put on the piece's start square).
    ///
    /// # Errors
    /// [`ViewError::WrongSetups`] when the arrangements contradict an animal the view already knows.
    pub fn finish(
        &mut self,
        outcome: Outcome,
        arrangements: &BySide<Arrangement>,
    ) -> Result<(), ViewError> {
        self.show_everything(arrangements)?;
        self.outcome = Some(outcome);
        Ok(())
    }

    /// Every animal shown from the arrangements (checked against what the view knows).
    pub(crate) fn show_everything(
        &mut self,
        arrangements: &BySide<Arrangement>,
    ) -> Result<(), ViewError> {
        let mut board = self.board;
        for seen in board.iter_mut().flatten() {
            let animal = arrangements[seen.side]
                .animal_on(seen.origin)
                .ok_or(ViewError::WrongSetups)?;
            if seen.animal.is_some_and(|known| known != animal) {
                return Err(ViewError::WrongSetups);
            }
            seen.animal = Some(animal);
            seen.revealed = true;
        }
        self.board = board;
        Ok(())
    }

    /// Calls `f(before, move)` for every public move in order, with `before` this viewer's view just before it
    /// (what the viewer — and, for its own revealed pieces, the opponent — knew when the move was made).
    pub fn walk(&self, mut f: impl FnMut(&View, &PublicMove)) {
        let start = Position::start(&self.rules);
        let mut before = View {
            rules: self.rules.clone(),
            viewer: self.viewer,
            board: self.start_board,
            start_board: self.start_board,
            side_to_move: start.side_to_move(),
            quiet_plies: start.quiet_plies(),
            move_number: start.move_number(),
            history: Vec::new(),
            outcome: None,
        };
        for public in &self.history {
            f(&before, public);
            before
                .apply(public)
                .expect("the view's own history fits it");
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The side whose view this is; `None` for a spectator.
    pub fn viewer(&self) -> Option<Side> {
        self.viewer
    }

    pub fn piece_at(&self, sq: Square) -> Option<Seen> {
        self.board[sq.index()]
    }

    /// Every piece with its square, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Seen)> + '_ {
        Square::all().filter_map(|sq| self.piece_at(sq).map(|seen| (sq, seen)))
    }

    /// The squares of a side's pieces.
    pub fn squares_of(&self, side: Side) -> Bitboard {
        self.pieces()
            .filter(|(_, seen)| seen.side == side)
            .fold(Bitboard::EMPTY, |bb, (sq, _)| bb.with(sq))
    }

    pub fn occupied(&self) -> Bitboard {
        self.pieces()
            .fold(Bitboard::EMPTY, |bb, (sq, _)| bb.with(sq))
    }

    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The public moves so far.
    pub fn history(&self) -> &[PublicMove] {
        &self.history
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The animals of `side` this view does not know the place of: the side's animals in play minus those
    /// seen on the board or captured (every captured piece was revealed by the attack that took it).
    pub fn unknown_animals(&self, side: Side) -> Vec<Animal> {
        let mut known = [false; 8];
        for (_, seen) in self.pieces().filter(|(_, s)| s.side == side) {
            if let Some(animal) = seen.animal {
                known[animal.index()] = true;
            }
        }
        for public in &self.history {
            match public.effect {
                Effect::Captured(defender) if public.side != side => known[defender.index()] = true,
                Effect::Repelled(_) if public.side == side => {
                    if let Some(attacker) = public.mover {
                        known[attacker.index()] = true;
                    }
                }
                _ => {}
            }
        }
        Animal::ALL
            .into_iter()
            .filter(|&a| self.rules.in_play(a) && !known[a.index()])
            .collect()
    }

    /// Whether a den is entered or (with `capture-all-wins`) a side has no pieces: the board has decided.
    fn is_decided(&self) -> bool {
        let dens = jungle_rules::terrain::DENS;
        let entered = Side::ALL.into_iter().any(|side| {
            self.piece_at(dens[side])
                .is_some_and(|seen| seen.side != side)
        });
        let wiped_out = self.rules.options().capture_all_wins
            && Side::ALL
                .into_iter()
                .any(|side| self.squares_of(side).is_empty());
        entered || wiped_out
    }

    /// The legal moves of the viewer when it is to move and the game goes on (else none): every step and jump
    /// its animals may make, an attack onto any enemy piece included.
    pub fn legal_moves(&self) -> MoveList {
        match self.viewer {
            Some(side)
                if side == self.side_to_move && self.outcome.is_none() && !self.is_decided() =>
            {
                let pieces = self
                    .pieces()
                    .filter(|(_, seen)| seen.side == side)
                    .filter_map(|(sq, seen)| seen.animal.map(|a| (a, sq)));
                moves::legal_moves(
                    &self.rules,
                    side,
                    pieces,
                    self.squares_of(side),
                    self.occupied(),
                )
            }
            _ => MoveList::new(),
        }
    }

    /// The view FEN: FEN (ranks 9 to 1, side to move, quiet plies, move number) with `X` for a Blue piece and
    /// `x` for a Red piece whose animal this view does not know.
    pub fn fen(&self) -> String {
        let mut text = String::new();
        for rank in (0..9u8).rev() {
            let mut empty = 0;
            for file in 0..7u8 {
                let sq = Square::from_coords(file, rank).expect("on the board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(seen) => {
                        if empty > 0 {
                            text.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        let letter = seen.animal.map_or('X', Animal::letter);
                        text.push(match seen.side {
                            Side::Blue => letter,
                            Side::Red => letter.to_ascii_lowercase(),
                        });
                    }
                }
            }
            if empty > 0 {
                text.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                text.push('/');
            }
        }
        format!(
            "{text} {} {} {}",
            self.side_to_move.fen_char(),
            self.quiet_plies,
            self.move_number
        )
    }
}
