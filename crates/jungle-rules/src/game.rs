//! `Game`: a position with its history — the draw rules (repetition, quiet-ply limit), endings from outside
//! the board (resignation, time), and undo.

use crate::{IllegalMoveError, Move, Outcome, ParseMoveError, Position, Rules, Side, Termination};

/// A game under fixed rules, from a start position.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    /// `positions[0]` is the start; `positions[i]` follows `moves[i - 1]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// An ending decided off the board (resignation, time, agreement, adjudication).
    declared: Option<Outcome>,
}

/// Why a move could not be added to a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("the game is over: {0}")]
    Over(Outcome),
    #[error(transparent)]
    Illegal(#[from] IllegalMoveError),
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    #[error(transparent)]
    Notation(#[from] crate::NotationError),
}

impl Game {
    /// A new game from the start position of the rules' board.
    pub fn new(rules: Rules) -> Game {
        let start = Position::start(&rules);
        Game::from_position(rules, start)
    }

    /// A new game from a position valid under `rules`.
    pub fn from_position(rules: Rules, start: Position) -> Game {
        Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
            declared: None,
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    pub fn start_position(&self) -> &Position {
        &self.positions[0]
    }

    /// Every position of the game, the start first and the current last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn side_to_move(&self) -> Side {
        self.position().side_to_move()
    }

    /// How many times the current position (placement and side to move) has occurred, this time included.
    /// Only positions since the last capture can repeat it.
    pub fn repetitions(&self) -> usize {
        repetitions(&self.positions)
    }

    /// The end of the game, if it has ended: a declared ending, then the board's endings, then the draw rules.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.declared.is_some() {
            return self.declared;
        }
        if let Some(outcome) = self.position().outcome(&self.rules) {
            return Some(outcome);
        }
        draw_by_history(&self.rules, &self.positions)
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The legal moves now: none once the game is over.
    pub fn legal_moves(&self) -> crate::MoveList {
        if self.is_over() {
            crate::MoveList::new()
        } else {
            self.position().legal_moves(&self.rules)
        }
    }

    /// Plays a move after checking it; on error the game is unchanged.
    ///
    /// # Errors
    /// [`GameError::Over`] after the end, [`GameError::Illegal`] for an illegal move.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        let mut next = *self.position();
        next.play(&self.rules, m)?;
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Reads move text (syntax, then legality here) and plays it.
    ///
    /// # Errors
    /// As [`Game::play`], or [`GameError::Parse`] for text that is not a move, [`GameError::Notation`] for
    /// animal-notation text (`Ea3-a4`) that does not match the board.
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::Over(outcome));
        }
        let written: crate::WrittenMove = text.trim().parse()?;
        let m = written.resolve(self.position())?;
        self.play(m)?;
        Ok(m)
    }

    /// Takes back the last move (and any declared ending); `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        self.declared = None;
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// Ends the game off the board (resignation, time forfeit, agreement, adjudication). Ignored if the game
    /// is already over.
    pub fn declare(&mut self, outcome: Outcome) {
        if !self.is_over() {
            self.declared = Some(outcome);
        }
    }
}

/// How many times the last of `positions` (placement and side to move) has occurred in them, that time included.
/// Only positions since the last capture can repeat it.
fn repetitions(positions: &[Position]) -> usize {
    let Some(current) = positions.last() else {
        return 0;
    };
    let reachable = current.quiet_plies() as usize;
    positions
        .iter()
        .rev()
        .take(reachable + 1)
        .step_by(2)
        .filter(|p| p.same_placement(current))
        .count()
}

/// The draw the rules' history options declare after `positions` (a game's positions, start first): repetition,
/// then the quiet-ply limit. Shared with the games built on these rules elsewhere (Hidden Jungle).
pub fn draw_by_history(rules: &Rules, positions: &[Position]) -> Option<Outcome> {
    let options = rules.options();
    let current = positions.last()?;
    if options.repetition_draw != 0 && repetitions(positions) >= options.repetition_draw as usize {
        return Some(Outcome::draw(Termination::Repetition));
    }
    if options.quiet_ply_limit != 0 && current.quiet_plies() >= options.quiet_ply_limit {
        return Some(Outcome::draw(Termination::QuietPlyLimit));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(game: &mut Game, moves: &str) {
        for m in moves.split_whitespace() {
            game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    #[test]
    fn third_occurrence_is_a_draw_by_default() {
        let mut game = Game::new(Rules::default());
        play_all(&mut game, "a1a2 g9g8 a2a1 g8g9 a1a2 g9g8 a2a1");
        assert_eq!(game.repetitions(), 2);
        assert!(!game.is_over());
        play_all(&mut game, "g8g9");
        assert_eq!(game.repetitions(), 3);
        assert_eq!(game.outcome(), Some(Outcome::draw(Termination::Repetition)));
        assert!(matches!(
            game.play("a1a2".parse().unwrap()),
            Err(GameError::Over(_))
        ));
        game.undo();
        assert!(!game.is_over());
    }

    #[test]
    fn repetition_count_follows_the_option() {
        let mut game = Game::new("repetition-draw=2".parse().unwrap());
        play_all(&mut game, "a1a2 g9g8 a2a1");
        assert!(!game.is_over());
        play_all(&mut game, "g8g9");
        assert_eq!(game.outcome(), Some(Outcome::draw(Termination::Repetition)));

        let mut endless = Game::new("repetition-draw=0".parse().unwrap());
        for _ in 0..5 {
            play_all(&mut endless, "a1a2 g9g8 a2a1 g8g9");
        }
        assert!(!endless.is_over());
    }

    #[test]
    fn quiet_ply_limit_follows_the_option() {
        let rules: Rules = "quiet-ply-limit=10,repetition-draw=0".parse().unwrap();
        let mut game = Game::new(rules);
        play_all(&mut game, "a1a2 g9g8 a2a1 g8g9 a1a2 g9g8 a2a1 g8g9 a1a2");
        assert!(!game.is_over());
        play_all(&mut game, "g9g8");
        assert_eq!(
            game.outcome(),
            Some(Outcome::draw(Termination::QuietPlyLimit))
        );

        let start = Position::from_fen(
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 199 1",
            &Rules::default(),
        )
        .unwrap();
        let mut game = Game::from_position(Rules::default(), start);
        assert!(!game.is_over());
        play_all(&mut game, "a1a2");
        assert_eq!(
            game.outcome(),
            Some(Outcome::draw(Termination::QuietPlyLimit))
        );

        let unlimited = Game::from_position(
            "quiet-ply-limit=0".parse().unwrap(),
            start.after("a1a2".parse().unwrap()),
        );
        assert!(!unlimited.is_over());
    }

    #[test]
    fn illegal_moves_leave_the_game_unchanged() {
        let mut game = Game::new(Rules::default());
        assert!(matches!(game.play_text("a1a3"), Err(GameError::Illegal(_))));
        assert!(matches!(game.play_text("zz"), Err(GameError::Parse(_))));
        assert_eq!(game.moves().len(), 0);
        assert_eq!(game.undo(), None);
    }

    #[test]
    fn declared_endings_stand_until_undone() {
        let mut game = Game::new(Rules::default());
        play_all(&mut game, "a1a2");
        game.declare(Outcome::win(Side::Blue, Termination::Resignation));
        assert_eq!(
            game.outcome().unwrap().termination,
            Termination::Resignation
        );
        assert!(game.legal_moves().is_empty());
        game.undo();
        assert!(!game.is_over());
    }
}
