//! `jungle play --hidden`: Hidden Jungle against the AI, in lines. The program holds the true game as referee;
//! the player is shown only their own view (their animals, the revealed ones, `X`/`x` for an unknown enemy piece),
//! and the AI is given only its own view.
//!
//! Commands: a move (`a3a4`), `moves` (your legal moves), `board`, `resign`, `quit`.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use jungle_hidden::ai::HiddenAi;
use jungle_hidden::record::Record;
use jungle_hidden::{Arrangement, HiddenGame, PublicMove, View};
use jungle_rules::{Outcome, Side, Square, Termination};

/// A hidden game against the AI.
#[derive(Debug)]
pub struct HiddenMatch {
    pub game: HiddenGame,
    pub human: Side,
    pub ai: HiddenAi,
    pub movetime: Duration,
}

/// The view drawn as text: ranks 9 to 1, your pieces and revealed ones by letter (Blue upper case, Red lower
/// case), `X` / `x` an unknown Blue / Red piece; terrain `~` water, `#` trap, `@` den.
pub fn draw(view: &View) -> String {
    let rules = view.rules();
    let mut text = String::new();
    for rank in (0..9u8).rev() {
        text.push_str(&format!("{} ", rank + 1));
        for file in 0..7u8 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let c = match view.piece_at(sq) {
                Some(seen) => {
                    let letter = seen.animal.map_or('X', |a| a.letter());
                    match seen.side {
                        Side::Blue => letter,
                        Side::Red => letter.to_ascii_lowercase(),
                    }
                }
                None if rules.water().contains(sq) => '~',
                None if rules.traps().contains(sq) => '#',
                None if jungle_rules::terrain::DENS.blue == sq
                    || jungle_rules::terrain::DENS.red == sq =>
                {
                    '@'
                }
                None => '.',
            };
            text.push(' ');
            text.push(c);
        }
        text.push('\n');
    }
    text.push_str("   a b c d e f g\n");
    text
}

fn describe(public: &PublicMove) -> String {
    format!("{} plays {public}", public.side)
}

impl HiddenMatch {
    /// Plays the game in lines until it ends or the player quits; returns the record (as the player may hold it).
    ///
    /// # Errors
    /// Only when reading or writing fails.
    pub fn run(&mut self, input: impl BufRead, output: &mut impl Write) -> io::Result<Record> {
        let mut lines = input.lines();
        writeln!(
            output,
            "Hidden Jungle: you play {} with the setup {} ({}); enemy pieces show as X/x until revealed.",
            self.human,
            self.game.arrangement(self.human),
            Arrangement::start_squares(self.game.rules(), self.human)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        )?;
        writeln!(output, "{}", draw(&self.game.view(Some(self.human))))?;
        while !self.game.is_over() {
            let side = self.game.side_to_move();
            if side != self.human {
                let view = self.game.view(Some(side));
                let Some(m) = self.ai.choose(&view, Some(self.movetime)) else {
                    break;
                };
                let public = self.game.play(m).expect("the AI chooses legal moves");
                writeln!(output, "{}", describe(&public))?;
                writeln!(output, "{}", draw(&self.game.view(Some(self.human))))?;
                continue;
            }
            write!(output, "your move> ")?;
            output.flush()?;
            let Some(line) = lines.next().transpose()? else {
                break;
            };
            match line.trim() {
                "" => {}
                "quit" => break,
                "resign" => self
                    .game
                    .declare(Outcome::win(!self.human, Termination::Resignation)),
                "board" => writeln!(output, "{}", draw(&self.game.view(Some(self.human))))?,
                "moves" => {
                    let moves: Vec<String> = self
                        .game
                        .legal_moves()
                        .as_slice()
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    writeln!(output, "{}", moves.join(" "))?;
                }
                text => match text.parse() {
                    Err(e) => writeln!(output, "error: {e}")?,
                    Ok(m) => match self.game.play(m) {
                        Err(e) => writeln!(output, "error: {e}")?,
                        Ok(public) => writeln!(output, "{}", describe(&public))?,
                    },
                },
            }
        }
        if let Some(outcome) = self.game.outcome() {
            writeln!(output, "game over: {outcome}")?;
            writeln!(output, "{}", draw(&self.game.view(Some(self.human))))?;
            writeln!(
                output,
                "setups: Blue {}, Red {}",
                self.game.arrangement(Side::Blue),
                self.game.arrangement(Side::Red)
            )?;
        }
        Ok(Record::of(&self.game, Some(self.human), &[]))
    }
}
