//! Moving the cursor and typing a move on the board, the same in the open and the hidden terminal game.

use jungle_rules::Square;

/// What one typed character did to the move being typed.
#[derive(Debug, PartialEq, Eq)]
pub enum Typed {
    /// Not a square yet (one character, or two that name no square).
    Partial,
    /// The first square is complete.
    From(Square),
    /// Both squares are typed: the move's text (the buffer is emptied).
    Move(String),
    /// The character does not fit where it was typed (the buffer is emptied).
    Rejected(String),
}

/// Adds `c` to the move being typed in `typed` (file, rank, file, rank, like `c3c4`).
pub fn type_char(typed: &mut String, c: char) -> Typed {
    let c = c.to_ascii_lowercase();
    let expects_file = typed.len().is_multiple_of(2);
    if c.is_ascii_digit() == expects_file || typed.len() >= 4 {
        typed.clear();
        return Typed::Rejected(format!(
            "type a move as two squares, file then rank, like c3c4 (\"{c}\" is not a {})",
            if expects_file { "file a-g" } else { "rank 1-9" }
        ));
    }
    typed.push(c);
    match typed.len() {
        2 => typed.parse().map_or(Typed::Partial, Typed::From),
        4 => Typed::Move(std::mem::take(typed)),
        _ => Typed::Partial,
    }
}

/// The cursor moved by an arrow key: up the screen is up the board as the player sees it (a turned board
/// turns the steps round); off the board it stays where it is.
pub fn steer(cursor: Square, flipped: bool, df: i8, dr: i8) -> Square {
    let (df, dr) = if flipped { (-df, -dr) } else { (df, dr) };
    cursor.offset(df, dr).unwrap_or(cursor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_typed_square_by_square_and_a_misplaced_character_is_refused() {
        let mut typed = String::new();
        assert_eq!(type_char(&mut typed, 'C'), Typed::Partial);
        assert_eq!(
            type_char(&mut typed, '3'),
            Typed::From("c3".parse().unwrap())
        );
        assert_eq!(type_char(&mut typed, 'c'), Typed::Partial);
        assert_eq!(type_char(&mut typed, '4'), Typed::Move("c3c4".into()));
        assert!(typed.is_empty());
        assert!(matches!(type_char(&mut typed, '3'), Typed::Rejected(e) if e.contains("file a-g")));
        assert!(typed.is_empty());
    }

    #[test]
    fn a_turned_board_turns_the_cursor_steps_round() {
        let c3: Square = "c3".parse().unwrap();
        assert_eq!(steer(c3, false, 0, 1), "c4".parse().unwrap());
        assert_eq!(steer(c3, true, 0, 1), "c2".parse().unwrap());
        let a1: Square = "a1".parse().unwrap();
        assert_eq!(steer(a1, false, -1, 0), a1);
    }
}
