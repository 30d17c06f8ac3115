//! Keys of the hidden game: the cursor, picking (to swap on the setup screen, to move in play), typed moves,
//! and the commands.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use jungle_rules::{Move, Square};

use super::{HiddenApp, HiddenPrompt, Phase};
use crate::typing::{Typed, steer, type_char};

impl HiddenApp {
    /// Reacts to a key press (key releases are ignored).
    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if let Some(prompt) = self.prompt.take() {
            self.answer_prompt(prompt, key.code);
            self.update();
            return;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Char('c') if ctrl => self.request_quit(),
            KeyCode::Char('q') => self.request_quit(),
            KeyCode::Esc => {
                self.typed.clear();
                self.selected = None;
                self.info("cleared".into());
            }
            KeyCode::Up => self.move_cursor(0, 1),
            KeyCode::Down => self.move_cursor(0, -1),
            KeyCode::Left => self.move_cursor(-1, 0),
            KeyCode::Right => self.move_cursor(1, 0),
            KeyCode::Enter | KeyCode::Char(' ') => self.confirm(),
            KeyCode::Backspace => {
                self.typed.pop();
            }
            KeyCode::Char(c @ ('a'..='g' | 'A'..='G' | '1'..='9')) if self.phase == Phase::Play => {
                self.type_char(c);
            }
            KeyCode::Char('t') => self.flip(),
            KeyCode::Char('x') if self.phase == Phase::Setup => self.randomize(),
            KeyCode::Char('g') if self.phase == Phase::Setup => self.begin(),
            KeyCode::Char('r') if self.phase == Phase::Play => match self.check_can_resign() {
                Ok(()) => self.prompt = Some(HiddenPrompt::Resign),
                Err(e) => self.error(e),
            },
            KeyCode::Char('s') if self.phase == Phase::Play => {
                if let Err(e) = self.save() {
                    self.error(e);
                }
            }
            KeyCode::Char(other) => self.error(match self.phase {
                Phase::Setup => format!(
                    "key \"{other}\" does nothing here: Enter swaps, x random setup, g starts, q quits"
                ),
                Phase::Play => format!(
                    "key \"{other}\" does nothing: type a move like c3c4; r resign, s save, t turn, q quit"
                ),
            }),
            _ => {}
        }
        self.update();
    }

    /// A click on a square: as the cursor going there and Enter.
    pub fn click(&mut self, square: Square) {
        if self.prompt.is_some() {
            return;
        }
        self.typed.clear();
        self.cursor = square;
        self.confirm();
        self.update();
    }

    fn answer_prompt(&mut self, prompt: HiddenPrompt, code: KeyCode) {
        let yes = matches!(code, KeyCode::Char('y' | 'Y'));
        match prompt {
            HiddenPrompt::Resign if yes => {
                if let Err(e) = self.resign() {
                    self.error(e);
                }
            }
            HiddenPrompt::Quit if yes => match self.save() {
                Ok(_) => self.quit = true,
                Err(e) => self.error(e),
            },
            _ => self.info("carry on".into()),
        }
    }

    fn check_can_resign(&self) -> Result<(), String> {
        match self.outcome() {
            Some(outcome) => Err(format!("the game is already over ({outcome})")),
            None => Ok(()),
        }
    }

    /// `q`: leaves at once when nothing would be lost; asks first while a game goes on.
    fn request_quit(&mut self) {
        let going_on = self.game.as_ref().is_some_and(|g| !g.is_over());
        if going_on && self.dirty {
            self.prompt = Some(HiddenPrompt::Quit);
        } else {
            self.quit = true;
        }
    }

    fn move_cursor(&mut self, df: i8, dr: i8) {
        self.typed.clear();
        self.cursor = steer(self.cursor, self.flipped, df, dr);
    }

    /// Typing a move: the first square picks the piece there, the second plays.
    fn type_char(&mut self, c: char) {
        match type_char(&mut self.typed, c) {
            Typed::Partial => {}
            Typed::Rejected(e) => self.error(e),
            Typed::From(sq) => {
                self.cursor = sq;
                if self.own_piece(sq) && self.check_can_move().is_ok() {
                    self.select(sq);
                }
            }
            Typed::Move(text) => {
                if let Err(e) = self.play_text(&text) {
                    self.error(e);
                }
            }
        }
    }

    fn own_piece(&self, sq: Square) -> bool {
        self.view
            .piece_at(sq)
            .is_some_and(|p| p.side == self.config.human)
    }

    /// Enter: on the setup screen pick a piece, then swap it with the next one picked; in play pick a piece,
    /// then move it to a lit target.
    fn confirm(&mut self) {
        if self.typed.len() == 2 {
            self.typed.clear();
        }
        if !self.typed.is_empty() {
            let text = std::mem::take(&mut self.typed);
            if let Err(e) = self.play_text(&text) {
                self.error(e);
            }
            return;
        }
        let cursor = self.cursor;
        match (self.phase, self.selected) {
            (_, Some(from)) if from == cursor => {
                self.selected = None;
                self.info("piece put back: pick another".into());
            }
            (Phase::Setup, Some(from)) => {
                self.selected = None;
                if let Err(e) = self.swap(from, cursor) {
                    self.error(e);
                }
            }
            (Phase::Setup, None) if self.own_piece(cursor) => {
                self.selected = Some(cursor);
                self.info(format!(
                    "{cursor} picked: Enter on another of your animals swaps them"
                ));
            }
            (Phase::Setup, None) => {
                self.error(format!("{cursor} is not one of your start squares"));
            }
            (Phase::Play, _) => {
                if let Err(e) = self.check_can_move() {
                    self.error(e);
                    return;
                }
                match self.selected {
                    Some(from) if self.targets().contains(cursor) => {
                        if let Err(e) = self.play_human(Move::new(from, cursor)) {
                            self.error(e);
                        }
                    }
                    _ if self.own_piece(cursor) => self.select(cursor),
                    Some(from) => self.error(format!(
                        "{from}{cursor} is not a legal move: pick one of the lit squares"
                    )),
                    None => self.error(format!(
                        "there is no piece of yours on {cursor}: pick one of your pieces"
                    )),
                }
            }
        }
    }

    fn select(&mut self, sq: Square) {
        self.selected = Some(sq);
        let count = self.targets().count();
        if count == 0 {
            self.selected = None;
            self.error(format!("the piece on {sq} has no legal move"));
        } else {
            self.info(format!(
                "{sq}: {count} move{} lit up; pick one with the cursor and Enter, or type it",
                if count == 1 { "" } else { "s" }
            ));
        }
    }
}
