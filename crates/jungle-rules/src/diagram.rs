//! `Diagram`: a position drawn as a text board, the one board drawing of every text interface (`jungle show`,
//! the protocol's `d`, the line mode of `jungle play`).

use std::fmt;

use crate::terrain::DENS;
use crate::{Move, Position, Rules, Side, Square};

/// A position as a text board, for `{}` formatting: file letters above and below, rank numbers on both sides,
/// rank 9 on top (rank 1 and file `g` on the left when flipped). Pieces are their FEN letters (Blue upper case,
/// Red lower case); an empty square shows its terrain: `~` water, `#` trap, `*` den, `.` land. The squares of a
/// highlighted move are bracketed, `[E]`. With colour, ANSI escapes paint the terrain behind each square and
/// the pieces in their side's colour. Every line ends with a newline.
///
/// ```
/// use jungle_rules::{Diagram, Position, Rules};
/// let rules = Rules::default();
/// let start = Position::start(&rules);
/// let text = Diagram::new(&start, &rules).to_string();
/// assert_eq!(text.lines().next(), Some("    a  b  c  d  e  f  g"));
/// assert_eq!(text.lines().nth(1), Some(" 9  l  .  #  *  #  .  t  9"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Diagram<'a> {
    position: &'a Position,
    rules: &'a Rules,
    flipped: bool,
    colour: bool,
    highlight: Option<Move>,
}

impl<'a> Diagram<'a> {
    /// The board of `position` under `rules` (which say where water and traps are), as Blue sees it, plain.
    pub fn new(position: &'a Position, rules: &'a Rules) -> Diagram<'a> {
        Diagram {
            position,
            rules,
            flipped: false,
            colour: false,
            highlight: None,
        }
    }

    /// Seen from Red's side when `flipped`: rank 1 on top, file `g` on the left.
    #[must_use]
    pub fn flipped(self, flipped: bool) -> Diagram<'a> {
        Diagram { flipped, ..self }
    }

    /// ANSI colours when `colour` (only for a terminal that shows them).
    #[must_use]
    pub fn coloured(self, colour: bool) -> Diagram<'a> {
        Diagram { colour, ..self }
    }

    /// Brackets the origin and destination of `highlight` (the last move, say).
    #[must_use]
    pub fn highlight(self, highlight: Option<Move>) -> Diagram<'a> {
        Diagram { highlight, ..self }
    }

    fn files(&self) -> Vec<u8> {
        if self.flipped {
            (0..7).rev().collect()
        } else {
            (0..7).collect()
        }
    }

    fn ranks(&self) -> Vec<u8> {
        if self.flipped {
            (0..9).collect()
        } else {
            (0..9).rev().collect()
        }
    }

    /// The mark of an empty square and the ANSI background of its terrain.
    fn terrain(&self, sq: Square) -> (char, &'static str) {
        if self.rules.water().contains(sq) {
            ('~', "46")
        } else if self.rules.traps().contains(sq) {
            ('#', "43")
        } else if sq == DENS.blue || sq == DENS.red {
            ('*', "45")
        } else {
            ('.', "42")
        }
    }

    fn write_square(&self, f: &mut fmt::Formatter<'_>, sq: Square) -> fmt::Result {
        let (terrain, background) = self.terrain(sq);
        let piece = self.position.piece_at(sq);
        let mark = piece.map_or(terrain, |p| p.fen_char());
        let (open, close) = if self.highlight.is_some_and(|m| m.from == sq || m.to == sq) {
            ('[', ']')
        } else {
            (' ', ' ')
        };
        if !self.colour {
            return write!(f, "{open}{mark}{close}");
        }
        write!(f, "\x1b[{background}m{open}")?;
        match piece {
            Some(p) => {
                let foreground = if p.side == Side::Blue { "1;34" } else { "1;31" };
                write!(f, "\x1b[{foreground}m{mark}\x1b[39;22m")?;
            }
            None => write!(f, "{mark}")?,
        }
        write!(f, "{close}\x1b[0m")
    }

    fn write_file_letters(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters: Vec<String> = self
            .files()
            .iter()
            .map(|&file| char::from(b'a' + file).to_string())
            .collect();
        writeln!(f, "    {}", letters.join("  "))
    }
}

impl fmt::Display for Diagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_file_letters(f)?;
        for rank in self.ranks() {
            write!(f, " {} ", rank + 1)?;
            for file in self.files() {
                let sq = Square::from_coords(file, rank).expect("on the board");
                self.write_square(f, sq)?;
            }
            writeln!(f, " {}", rank + 1)?;
        }
        self.write_file_letters(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    const START: &str = concat!(
        "    a  b  c  d  e  f  g\n",
        " 9  l  .  #  *  #  .  t  9\n",
        " 8  .  d  .  #  .  c  .  8\n",
        " 7  r  .  p  .  w  .  e  7\n",
        " 6  .  ~  ~  .  ~  ~  .  6\n",
        " 5  .  ~  ~  .  ~  ~  .  5\n",
        " 4  .  ~  ~  .  ~  ~  .  4\n",
        " 3  E  .  W  .  P  .  R  3\n",
        " 2  .  C  .  #  .  D  .  2\n",
        " 1  T  .  #  *  #  .  L  1\n",
        "    a  b  c  d  e  f  g\n",
    );

    #[test]
    fn the_start_position_with_its_terrain() {
        let rules = Rules::default();
        let start = Position::start(&rules);
        assert_eq!(Diagram::new(&start, &rules).to_string(), START);
    }

    #[test]
    fn flipped_and_highlighted() {
        let mut game = Game::new(Rules::default());
        game.play_text("a3a4").unwrap();
        let diagram = Diagram::new(game.position(), game.rules())
            .highlight(game.moves().last().copied())
            .flipped(true)
            .to_string();
        let lines: Vec<&str> = diagram.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "    g  f  e  d  c  b  a");
        assert_eq!(lines[1], " 1  L  .  #  *  #  .  T  1");
        assert_eq!(lines[3], " 3  R  .  P  .  W  . [.] 3");
        assert_eq!(lines[4], " 4  .  ~  ~  .  ~  ~ [E] 4");
        assert_eq!(lines[9], " 9  t  .  #  *  #  .  l  9");
        assert_eq!(lines[10], lines[0]);
    }

    #[test]
    fn animal_checkers_has_no_water_or_traps() {
        let rules = Rules::preset(crate::Preset::AnimalCheckers);
        let start = Position::start(&rules);
        let diagram = Diagram::new(&start, &rules).to_string();
        assert_eq!(diagram.lines().nth(1), Some(" 9  .  .  .  *  .  .  t  9"));
        assert_eq!(diagram.lines().nth(5), Some(" 5  .  .  .  .  .  .  .  5"));
    }

    #[test]
    fn colour_paints_terrain_and_sides_and_keeps_the_layout() {
        let rules = Rules::default();
        let start = Position::start(&rules);
        let coloured = Diagram::new(&start, &rules).coloured(true).to_string();
        let row9 = coloured.lines().nth(1).unwrap();
        assert!(
            row9.starts_with(" 9 \x1b[42m \x1b[1;31ml\x1b[39;22m \x1b[0m"),
            "{row9:?}"
        );
        assert!(
            row9.contains("\x1b[43m # \x1b[0m\x1b[45m * \x1b[0m"),
            "{row9:?}"
        );
        let row1 = coloured.lines().nth(9).unwrap();
        assert!(row1.contains("\x1b[1;34mT\x1b[39;22m"), "{row1:?}");
        assert!(coloured.contains("\x1b[46m ~ \x1b[0m"));
        // Without the escapes, the coloured board is the plain one.
        let mut stripped = String::new();
        let mut escape = false;
        for c in coloured.chars() {
            match c {
                '\x1b' => escape = true,
                'm' if escape => escape = false,
                c if !escape => stripped.push(c),
                _ => {}
            }
        }
        assert_eq!(stripped, START);
    }
}
