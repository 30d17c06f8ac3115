//! The board as plain text, for the line mode (no colours, no wide characters): pieces by letter
//! (uppercase Blue, lowercase Red), empty squares by terrain (`~` water, `#` trap, `*` den, `.` land),
//! the last move's squares in brackets.

use jungle_rules::terrain::DENS;
use jungle_rules::{Game, Square};

/// The board with its coordinates, rank 9 on top unless `flipped`.
pub fn board_text(game: &Game, flipped: bool) -> String {
    let files: Vec<u8> = if flipped {
        (0..7).rev().collect()
    } else {
        (0..7).collect()
    };
    let ranks: Vec<u8> = if flipped {
        (0..9).collect()
    } else {
        (0..9).rev().collect()
    };
    let letters: String = files
        .iter()
        .map(|&f| format!(" {} ", char::from(b'a' + f)))
        .collect();
    let mut out = format!("   {letters}\n");
    let last = game.moves().last();
    let rules = game.rules();
    for &rank in &ranks {
        out.push_str(&format!(" {} ", rank + 1));
        for &file in &files {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let mark = match game.position().piece_at(sq) {
                Some(p) => p.fen_char(),
                None if rules.water().contains(sq) => '~',
                None if rules.traps().contains(sq) => '#',
                None if sq == DENS.blue || sq == DENS.red => '*',
                None => '.',
            };
            if last.is_some_and(|m| m.from == sq || m.to == sq) {
                out.push_str(&format!("[{mark}]"));
            } else {
                out.push_str(&format!(" {mark} "));
            }
        }
        out.push_str(&format!(" {}\n", rank + 1));
    }
    out.push_str(&format!("   {letters}\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::Rules;

    #[test]
    fn the_start_board_shows_pieces_terrain_and_the_last_move() {
        let mut game = Game::new(Rules::default());
        let board = board_text(&game, false);
        assert_eq!(board.lines().nth(1).unwrap(), " 9  l  .  #  *  #  .  t  9");
        assert_eq!(board.lines().nth(5).unwrap(), " 5  .  ~  ~  .  ~  ~  .  5");
        assert_eq!(board.lines().nth(9).unwrap(), " 1  T  .  #  *  #  .  L  1");
        game.play_text("a3a4").unwrap();
        let board = board_text(&game, false);
        assert_eq!(board.lines().nth(6).unwrap(), " 4 [E] ~  ~  .  ~  ~  .  4");
        let flipped = board_text(&game, true);
        assert_eq!(flipped.lines().next().unwrap(), "    g  f  e  d  c  b  a ");
        assert_eq!(
            flipped.lines().nth(1).unwrap(),
            " 1  L  .  #  *  #  .  T  1"
        );
    }
}
