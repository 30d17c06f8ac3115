//! Which pieces of the side to move the opponent could capture if it were its turn: shown on the board so
//! a player sees a hanging piece before moving.

use jungle_rules::{Bitboard, Game, Position};

/// The squares of the side to move's pieces that the other side attacks (empty once the game is over).
pub fn threatened(game: &Game) -> Bitboard {
    if game.is_over() {
        return Bitboard::EMPTY;
    }
    let position = game.position();
    let us = position.side_to_move();
    let mut setup = position.to_setup();
    setup.side_to_move = !us;
    // The same placement with the other side to move; a placement the rules refuse has no threats to show.
    let Ok(theirs) = Position::from_setup(&setup, game.rules()) else {
        return Bitboard::EMPTY;
    };
    let ours = position.side(us);
    theirs
        .legal_moves(game.rules())
        .iter()
        .map(|m| m.to)
        .filter(|to| ours.contains(*to))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::{Rules, Square};

    fn game(fen: &str) -> Game {
        let rules = Rules::default();
        Game::from_position(rules.clone(), Position::from_fen(fen, &rules).unwrap())
    }

    #[test]
    fn a_piece_next_to_a_stronger_enemy_is_threatened() {
        // Blue's Cat on d5 beside Red's Dog on d6; Blue's Elephant on a1 beside Red's Rat on a2.
        let g = game("6t/7/7/3d3/3C3/7/7/r6/E5L w 0 1");
        let threats = threatened(&g);
        assert!(threats.contains(Square::D5));
        assert!(threats.contains(Square::A1), "the Rat takes the Elephant");
        assert!(!threats.contains(Square::G1));
        assert_eq!(threats.count(), 2);
    }

    #[test]
    fn nothing_is_threatened_at_the_start_or_after_the_end() {
        assert!(threatened(&Game::new(Rules::default())).is_empty());
        let over = game("3L3/7/7/7/7/7/7/7/6l b 0 1");
        assert!(threatened(&over).is_empty());
    }
}
