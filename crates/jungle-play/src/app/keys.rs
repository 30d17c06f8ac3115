//! Key events: the cursor, picking and typing moves, and the keys for the commands.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use jungle_rules::{Move, Square};

use super::{App, Prompt};
use crate::config::Mode;
use crate::typing::{Typed, steer, type_char};

impl App {
    /// Reacts to a key press (releases and repeats of the key-up kind are ignored).
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
            KeyCode::Char('?') => self.show_help = !self.show_help,
            KeyCode::Esc => {
                self.typed.clear();
                self.selected = None;
                self.hint = None;
                self.show_help = false;
                self.info("cleared".into());
            }
            KeyCode::Up => self.move_cursor(0, 1),
            KeyCode::Down => self.move_cursor(0, -1),
            KeyCode::Left => self.move_cursor(-1, 0),
            KeyCode::Right => self.move_cursor(1, 0),
            KeyCode::Enter => self.confirm(),
            KeyCode::Char(' ') if self.config.mode == Mode::Watch => self.toggle_pause(),
            KeyCode::Char(' ') => self.confirm(),
            KeyCode::Backspace => {
                self.typed.pop();
            }
            KeyCode::Char(c @ ('a'..='g' | 'A'..='G' | '1'..='9')) => self.type_char(c),
            KeyCode::Char('u') => self.undo_key(),
            KeyCode::Char('h') => self.request_hint(),
            KeyCode::Char('t') => self.flip(),
            KeyCode::Char('r') => self.request_resign(),
            KeyCode::Char('s') => self.save_key(),
            KeyCode::Char('n') => self.request_new_game(),
            KeyCode::Char('p') => self.toggle_pause(),
            KeyCode::Char('+' | '=') => self.change_level(1),
            KeyCode::Char('-') => self.change_level(-1),
            KeyCode::Char(other) => self.error(format!(
                "key \"{other}\" does nothing: type a move like c3c4, or press ? for the keys"
            )),
            _ => {}
        }
        self.update();
    }

    fn answer_prompt(&mut self, prompt: Prompt, code: KeyCode) {
        let yes = matches!(code, KeyCode::Char('y' | 'Y'));
        match prompt {
            Prompt::Resign if yes => {
                if let Err(e) = self.resign() {
                    self.error(e);
                }
            }
            Prompt::NewGame if yes => self.new_game(),
            Prompt::SaveBeforeQuit if yes => match self.save() {
                Ok(_) => self.quit = true,
                Err(e) => self.error(e),
            },
            Prompt::SaveBeforeQuit if matches!(code, KeyCode::Char('n' | 'N')) => self.quit = true,
            _ => self.info("carry on".into()),
        }
    }

    fn move_cursor(&mut self, df: i8, dr: i8) {
        // Steering the cursor abandons a half-typed move.
        self.typed.clear();
        self.cursor = steer(self.cursor, self.flipped, df, dr);
    }

    /// Typing a move: the first square moves the cursor there and picks the piece; the second plays. With a
    /// piece already picked, typing one of its targets plays there.
    fn type_char(&mut self, c: char) {
        match type_char(&mut self.typed, c) {
            Typed::Partial => {}
            Typed::Rejected(e) => self.error(e),
            Typed::From(sq) => {
                self.cursor = sq;
                match self.selected {
                    // With a piece picked, typing one of its targets plays there (a target is never a
                    // piece of the side to move, so it cannot be the start of a typed move).
                    Some(from) if self.targets().contains(sq) => {
                        self.typed.clear();
                        let _ = self.play(Move::new(from, sq));
                    }
                    _ if self.is_human_turn() && self.own_piece(sq) => self.select(sq),
                    _ => {}
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
        self.game
            .position()
            .piece_at(sq)
            .is_some_and(|p| p.side == self.game.side_to_move())
    }

    /// A click on a square: the cursor goes there and it is as if Enter were pressed (pick the piece, or
    /// move the picked piece there). Ignored while a question waits for its answer.
    pub fn click(&mut self, square: Square) {
        if self.prompt.is_some() {
            return;
        }
        self.typed.clear();
        self.cursor = square;
        self.confirm();
        self.update();
    }

    /// `+`/`-`: the engine's skill level, within 1–8.
    fn change_level(&mut self, delta: i8) {
        if self.config.mode == Mode::TwoPlayers {
            self.error(
                "no engine plays in a two-player game (hints are always at full strength)".into(),
            );
            return;
        }
        let level = (self.config.level as i8 + delta).clamp(1, 8) as u8;
        self.config.level = level;
        self.info(format!("engine level {level} (1 weakest, 8 strongest)"));
    }

    /// Enter: play the typed move, or pick the piece under the cursor, or move the picked piece there.
    fn confirm(&mut self) {
        if self.typed.len() == 2 && self.typed.parse::<Square>().is_ok() {
            // A typed square is where the cursor went: carry on as with the cursor.
            self.typed.clear();
        }
        if !self.typed.is_empty() {
            let text = std::mem::take(&mut self.typed);
            if let Err(e) = self.play_text(&text) {
                self.error(e);
            }
            return;
        }
        if let Err(e) = self.check_can_move() {
            self.error(e);
            return;
        }
        let cursor = self.cursor;
        match self.selected {
            Some(from) if from == cursor => {
                self.selected = None;
                self.info("piece put back: pick another".into());
            }
            Some(from) if self.targets().contains(cursor) => {
                let _ = self.play(Move::new(from, cursor));
            }
            _ if self.own_piece(cursor) => self.select(cursor),
            Some(from) => {
                let reason = match self
                    .game
                    .position()
                    .check_move(self.game.rules(), Move::new(from, cursor))
                {
                    Err(e) => e.to_string(),
                    Ok(()) => "that move is not legal now".into(),
                };
                self.error(reason);
            }
            None => {
                let side = self.game.side_to_move();
                let text = match self.game.position().piece_at(cursor) {
                    None => format!("there is no piece on {cursor}: pick one of {side}'s pieces"),
                    Some(p) => format!("the {p} on {cursor} is not {side}'s: it is {side}'s turn"),
                };
                self.error(text);
            }
        }
    }

    fn select(&mut self, sq: Square) {
        let piece = self
            .game
            .position()
            .piece_at(sq)
            .expect("an own piece is there");
        self.selected = Some(sq);
        let count = self.targets().count();
        if count == 0 {
            self.selected = None;
            self.error(format!("the {piece} on {sq} has no legal move"));
        } else {
            self.info(format!(
                "{piece} on {sq}: {count} move{} lit up; pick one with the cursor and Enter, or type it",
                if count == 1 { "" } else { "s" }
            ));
        }
    }

    pub(super) fn check_can_move(&self) -> Result<(), String> {
        if let Some(outcome) = self.game.outcome() {
            return Err(format!(
                "the game is over ({outcome}): u undoes, n starts a new game"
            ));
        }
        if !self.is_human_turn() {
            return Err(format!(
                "wait: the engine is thinking for {}",
                self.game.side_to_move()
            ));
        }
        Ok(())
    }
}
