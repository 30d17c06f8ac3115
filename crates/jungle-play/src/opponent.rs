//! Opponents: what chooses a move when it is not a person's turn, and the background thread that runs it so
//! the screen stays responsive while the engine thinks.

use std::fmt;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

use jungle_rules::{Game, Move};
use jungle_search::{Engine, EngineOptions, Limits, Score};

/// Something that picks a move for the side to move of a game.
pub trait MoveChooser: Send + Sync {
    /// A legal move at a skill level (1–8) within about `movetime`; `None` only when there is no legal move.
    fn choose(&self, game: &Game, level: u8, movetime: Duration) -> Option<Move>;
    /// As [`MoveChooser::choose`], with a few words about the search for the screen (depth, score).
    fn choose_explained(
        &self,
        game: &Game,
        level: u8,
        movetime: Duration,
    ) -> (Option<Move>, Option<String>) {
        (self.choose(game, level, movetime), None)
    }
    /// The name shown on screen and written to the record.
    fn name(&self) -> String;
}

/// What a search was started for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's own move.
    Play,
    /// A suggestion for a person.
    Hint,
}

/// A finished search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub ticket: u64,
    pub purpose: Purpose,
    pub best: Option<Move>,
    /// What the chooser said about its search, if anything.
    pub note: Option<String>,
    /// How long the search took.
    pub elapsed: Duration,
}

/// Runs a [`MoveChooser`] on background threads, one search at a time as far as the caller is concerned:
/// each request gets a ticket, and only the answer to the latest ticket counts (an undo or a new game
/// makes an answer still being computed stale).
pub struct Thinker {
    chooser: Arc<dyn MoveChooser>,
    answers_tx: Sender<Answer>,
    answers: Receiver<Answer>,
    last_ticket: u64,
    pending: Option<(u64, Purpose)>,
}

impl fmt::Debug for Thinker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Thinker")
            .field("chooser", &self.chooser.name())
            .field("pending", &self.pending)
            .finish()
    }
}

impl Thinker {
    pub fn new(chooser: Arc<dyn MoveChooser>) -> Thinker {
        let (answers_tx, answers) = mpsc::channel();
        Thinker {
            chooser,
            answers_tx,
            answers,
            last_ticket: 0,
            pending: None,
        }
    }

    pub fn name(&self) -> String {
        self.chooser.name()
    }

    /// Starts a search of `game` (a copy) on a new thread; any earlier pending search is forgotten.
    pub fn start(&mut self, game: &Game, purpose: Purpose, level: u8, movetime: Duration) {
        self.last_ticket += 1;
        let ticket = self.last_ticket;
        self.pending = Some((ticket, purpose));
        let game = game.clone();
        let chooser = Arc::clone(&self.chooser);
        let tx = self.answers_tx.clone();
        std::thread::spawn(move || {
            let started = std::time::Instant::now();
            let (best, note) = chooser.choose_explained(&game, level, movetime);
            let elapsed = started.elapsed();
            // The receiver is gone only when the app has quit: nothing left to tell.
            let _ = tx.send(Answer {
                ticket,
                purpose,
                best,
                note,
                elapsed,
            });
        });
    }

    /// The purpose of the search still running, if any.
    pub fn pending(&self) -> Option<Purpose> {
        self.pending.map(|(_, purpose)| purpose)
    }

    /// Forgets the running search: its answer will be ignored.
    pub fn cancel(&mut self) {
        self.pending = None;
    }

    /// The answer to the latest search if it has arrived (never blocks).
    pub fn poll(&mut self) -> Option<Answer> {
        while let Ok(answer) = self.answers.try_recv() {
            if let Some(answer) = self.accept(answer) {
                return Some(answer);
            }
        }
        None
    }

    /// Waits up to `timeout` for the answer to the latest search.
    pub fn wait(&mut self, timeout: Duration) -> Option<Answer> {
        let deadline = std::time::Instant::now() + timeout;
        while self.pending.is_some() {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.answers.recv_timeout(left) {
                Ok(answer) => {
                    if let Some(answer) = self.accept(answer) {
                        return Some(answer);
                    }
                }
                Err(_) => return None,
            }
        }
        None
    }

    fn accept(&mut self, answer: Answer) -> Option<Answer> {
        match self.pending {
            Some((ticket, _)) if ticket == answer.ticket => {
                self.pending = None;
                Some(answer)
            }
            _ => None,
        }
    }
}

/// The Jungle engine (`jungle-search`) at the requested skill level and move time.
#[derive(Clone, Copy, Debug, Default)]
pub struct JungleEngine;

impl MoveChooser for JungleEngine {
    fn choose(&self, game: &Game, level: u8, movetime: Duration) -> Option<Move> {
        self.choose_explained(game, level, movetime).0
    }

    fn choose_explained(
        &self,
        game: &Game,
        level: u8,
        movetime: Duration,
    ) -> (Option<Move>, Option<String>) {
        let mut engine = Engine::new(EngineOptions {
            skill_level: level,
            move_overhead_ms: 0,
            ..EngineOptions::default()
        });
        engine.set_game(game);
        let result = engine.go(&Limits::movetime(movetime), &mut |_| {});
        let note = result
            .best_move
            .map(|_| format!("depth {}, {}", result.depth, describe_score(result.score)));
        (result.best_move, note)
    }

    fn name(&self) -> String {
        "jungle engine".into()
    }
}

/// A score for people: `+1.35` (in units of a hundred, about half a Cat), `wins in 3`, `loses in 2`.
pub fn describe_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(plies) if plies > 0 => format!(
            "wins in {} moves",
            score.mate_in_moves().unwrap_or(0).max(1)
        ),
        Score::Mate(_) => format!("loses in {} moves", -score.mate_in_moves().unwrap_or(0)),
    }
}

/// A chooser that plays the first legal move in sorted order: predictable, for tests and demos.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstLegalMove;

impl MoveChooser for FirstLegalMove {
    fn choose(&self, game: &Game, _level: u8, _movetime: Duration) -> Option<Move> {
        let mut moves = game.legal_moves();
        moves.sort();
        moves.first().copied()
    }

    fn name(&self) -> String {
        "first legal move".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::Rules;

    #[test]
    fn the_engine_plays_a_legal_move_for_either_side() {
        let mut game = Game::new(Rules::default());
        for _ in 0..2 {
            let m = JungleEngine
                .choose(&game, 1, Duration::from_millis(20))
                .expect("a move from the start");
            game.play(m).expect("the engine's move is legal");
        }
    }

    #[test]
    fn only_the_latest_search_is_answered() {
        let mut thinker = Thinker::new(Arc::new(FirstLegalMove));
        let mut game = Game::new(Rules::default());
        thinker.start(&game, Purpose::Hint, 1, Duration::ZERO);
        game.play_text("a1a2").unwrap();
        thinker.start(&game, Purpose::Play, 1, Duration::ZERO);
        let answer = thinker.wait(Duration::from_secs(10)).expect("an answer");
        assert_eq!(answer.purpose, Purpose::Play);
        assert_eq!(answer.best, Some("a7a6".parse().unwrap()));
        assert_eq!(thinker.pending(), None);
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(thinker.poll(), None, "the stale hint is dropped");
    }

    #[test]
    fn scores_read_as_words() {
        assert_eq!(describe_score(Score::Cp(135)), "+1.35");
        assert_eq!(describe_score(Score::Cp(-40)), "-0.40");
        assert_eq!(describe_score(Score::Mate(5)), "wins in 3 moves");
        assert_eq!(describe_score(Score::Mate(-4)), "loses in 2 moves");
    }
}
