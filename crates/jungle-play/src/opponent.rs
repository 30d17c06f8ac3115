//! Opponents: what chooses a move when it is not a person's turn, and the background thread that runs it so
//! the screen stays responsive while the engine thinks (and can show how deep it has looked).

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use jungle_rules::{Game, Move};
use jungle_search::{Engine, EngineOptions, Limits, Score};

/// What a chooser is asked, and how it reports while it works.
pub struct SearchRequest<'a> {
    pub game: &'a Game,
    /// Skill level, 1 (weakest) to 8 (full strength).
    pub level: u8,
    pub movetime: Duration,
    /// Set when the answer is no longer wanted (an undo, a new game): the chooser may stop early.
    pub cancelled: &'a AtomicBool,
    /// Takes a few words of progress (`depth 7, +0.35`) as the search deepens.
    pub progress: &'a mut dyn FnMut(String),
}

impl fmt::Debug for SearchRequest<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchRequest")
            .field("level", &self.level)
            .field("movetime", &self.movetime)
            .finish_non_exhaustive()
    }
}

/// Something that picks a move for the side to move of a game.
pub trait MoveChooser: Send + Sync {
    /// A legal move at a skill level (1–8) within about `movetime`; `None` only when there is no legal move.
    fn choose(&self, game: &Game, level: u8, movetime: Duration) -> Option<Move>;
    /// As [`MoveChooser::choose`], reporting progress, stopping early when cancelled, and ending with a few
    /// words about the search for the screen (depth, score).
    fn search(&self, request: SearchRequest<'_>) -> (Option<Move>, Option<String>) {
        (
            self.choose(request.game, request.level, request.movetime),
            None,
        )
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

/// What a search thread sends back.
enum Message {
    Progress { ticket: u64, text: String },
    Done(Answer),
}

/// The search whose answer is awaited.
#[derive(Debug)]
struct Pending {
    ticket: u64,
    purpose: Purpose,
    cancelled: Arc<AtomicBool>,
}

/// Runs a [`MoveChooser`] on background threads, one search at a time as far as the caller is concerned:
/// each request gets a ticket, and only the answer to the latest ticket counts (an undo or a new game
/// cancels the search and makes any late answer stale).
pub struct Thinker {
    chooser: Arc<dyn MoveChooser>,
    messages_tx: Sender<Message>,
    messages: Receiver<Message>,
    last_ticket: u64,
    pending: Option<Pending>,
    progress: Option<String>,
    /// Answers of cancelled or superseded searches that arrived and were dropped.
    stale_answers: u64,
}

impl fmt::Debug for Thinker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Thinker")
            .field("chooser", &self.chooser.name())
            .field("pending", &self.pending)
            .field("progress", &self.progress)
            .finish()
    }
}

impl Thinker {
    pub fn new(chooser: Arc<dyn MoveChooser>) -> Thinker {
        let (messages_tx, messages) = mpsc::channel();
        Thinker {
            chooser,
            messages_tx,
            messages,
            last_ticket: 0,
            pending: None,
            progress: None,
            stale_answers: 0,
        }
    }

    pub fn name(&self) -> String {
        self.chooser.name()
    }

    /// Starts a search of `game` (a copy) on a new thread; an earlier pending search is cancelled.
    pub fn start(&mut self, game: &Game, purpose: Purpose, level: u8, movetime: Duration) {
        self.cancel();
        self.last_ticket += 1;
        let ticket = self.last_ticket;
        let cancelled = Arc::new(AtomicBool::new(false));
        self.pending = Some(Pending {
            ticket,
            purpose,
            cancelled: Arc::clone(&cancelled),
        });
        let game = game.clone();
        let chooser = Arc::clone(&self.chooser);
        let tx = self.messages_tx.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            let progress_tx = tx.clone();
            // Send errors mean the app has quit: nobody is left to tell.
            let mut progress = |text: String| {
                let _ = progress_tx.send(Message::Progress { ticket, text });
            };
            let (best, note) = chooser.search(SearchRequest {
                game: &game,
                level,
                movetime,
                cancelled: &cancelled,
                progress: &mut progress,
            });
            let _ = tx.send(Message::Done(Answer {
                ticket,
                purpose,
                best,
                note,
                elapsed: started.elapsed(),
            }));
        });
    }

    /// The purpose of the search still running, if any.
    pub fn pending(&self) -> Option<Purpose> {
        self.pending.as_ref().map(|p| p.purpose)
    }

    /// The latest progress words of the running search.
    pub fn progress(&self) -> Option<&str> {
        self.progress.as_deref()
    }

    /// How many answers of cancelled or superseded searches have arrived and been dropped (so a caller can
    /// tell that a late answer came and was ignored, rather than guessing how long to wait for it).
    pub fn stale_answers(&self) -> u64 {
        self.stale_answers
    }

    /// Stops the running search: its answer, if one still comes, is ignored.
    pub fn cancel(&mut self) {
        if let Some(pending) = self.pending.take() {
            pending.cancelled.store(true, Ordering::Relaxed);
        }
        self.progress = None;
    }

    /// The answer to the latest search if it has arrived (never blocks).
    pub fn poll(&mut self) -> Option<Answer> {
        while let Ok(message) = self.messages.try_recv() {
            if let Some(answer) = self.take(message) {
                return Some(answer);
            }
        }
        None
    }

    /// Waits up to `timeout` for the answer to the latest search.
    pub fn wait(&mut self, timeout: Duration) -> Option<Answer> {
        let deadline = Instant::now() + timeout;
        while self.pending.is_some() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) => {
                    if let Some(answer) = self.take(message) {
                        return Some(answer);
                    }
                }
                Err(_) => return None,
            }
        }
        None
    }

    /// Keeps the latest search's progress and answer; drops what stale searches send.
    fn take(&mut self, message: Message) -> Option<Answer> {
        let current = self.pending.as_ref().map(|p| p.ticket);
        match message {
            Message::Progress { ticket, text } if Some(ticket) == current => {
                self.progress = Some(text);
                None
            }
            Message::Done(answer) if Some(answer.ticket) == current => {
                self.pending = None;
                self.progress = None;
                Some(answer)
            }
            Message::Done(_) => {
                self.stale_answers += 1;
                None
            }
            Message::Progress { .. } => None,
        }
    }
}

/// The Jungle engine (`jungle-search`) at the requested skill level and move time.
#[derive(Clone, Copy, Debug, Default)]
pub struct JungleEngine;

impl MoveChooser for JungleEngine {
    fn choose(&self, game: &Game, level: u8, movetime: Duration) -> Option<Move> {
        jungle_search::best_move(game, level, movetime)
    }

    fn search(&self, request: SearchRequest<'_>) -> (Option<Move>, Option<String>) {
        let mut engine = Engine::new(EngineOptions {
            skill_level: request.level,
            move_overhead_ms: 0,
            ..EngineOptions::default()
        });
        engine.set_game(request.game);
        let stop = engine.stop_handle();
        let result = engine.go(&Limits::movetime(request.movetime), &mut |info| {
            // Checked after each finished depth: a cancelled search ends at the next one.
            if request.cancelled.load(Ordering::Relaxed) {
                stop.stop();
            }
            (request.progress)(format!(
                "depth {}, {}",
                info.depth,
                describe_score(info.score)
            ));
        });
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
        // The hint's search still answers: once that answer has come, it has been dropped.
        while thinker.stale_answers() == 0 {
            assert_eq!(thinker.poll(), None, "the stale hint is dropped");
            std::thread::yield_now();
        }
        assert_eq!(thinker.stale_answers(), 1);
    }

    #[test]
    fn the_engine_reports_progress_and_stops_when_cancelled() {
        let game = Game::new(Rules::default());
        let mut reports = Vec::new();
        let cancelled = AtomicBool::new(false);
        let (best, note) = JungleEngine.search(SearchRequest {
            game: &game,
            level: 8,
            movetime: Duration::from_millis(100),
            cancelled: &cancelled,
            progress: &mut |text| reports.push(text),
        });
        assert!(game.legal_moves().contains(best.unwrap()));
        assert!(note.unwrap().starts_with("depth "));
        assert!(
            reports.first().is_some_and(|r| r.starts_with("depth 1, ")),
            "{reports:?}"
        );

        // Cancelled from the start: the search stops after its first depth instead of using its time.
        let cancelled = AtomicBool::new(true);
        let mut depths = 0;
        let (best, _) = JungleEngine.search(SearchRequest {
            game: &game,
            level: 8,
            movetime: Duration::from_secs(600),
            cancelled: &cancelled,
            progress: &mut |_| depths += 1,
        });
        assert!(best.is_some(), "a stopped search still names a move");
        assert!(depths <= 2, "{depths} depths after the stop");
    }

    #[test]
    fn scores_read_as_words() {
        assert_eq!(describe_score(Score::Cp(135)), "+1.35");
        assert_eq!(describe_score(Score::Cp(-40)), "-0.40");
        assert_eq!(describe_score(Score::Mate(5)), "wins in 3 moves");
        assert_eq!(describe_score(Score::Mate(-4)), "loses in 2 moves");
    }
}
