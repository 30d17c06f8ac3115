//! The hidden-game AI on its own thread, so the screen stays live while it thinks: it is handed the AI's view
//! (never the true game) and gives back its move.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use jungle_hidden::View;
use jungle_hidden::ai::{Budget, HiddenAi};
use jungle_rules::Move;

/// The AI, idle or thinking.
#[derive(Debug)]
pub struct AiSeat {
    state: State,
}

#[derive(Debug)]
enum State {
    Idle(Box<HiddenAi>),
    Thinking(JoinHandle<(Box<HiddenAi>, Option<Move>)>),
    /// Only while switching between the two.
    Empty,
}

impl AiSeat {
    pub fn new(ai: HiddenAi) -> AiSeat {
        AiSeat {
            state: State::Idle(Box::new(ai)),
        }
    }

    pub fn is_thinking(&self) -> bool {
        matches!(self.state, State::Thinking(_))
    }

    /// Starts choosing a move in `view` (the AI's own) within `budget`; ignored while it already thinks.
    pub fn start(&mut self, view: View, budget: Budget) {
        let State::Idle(mut ai) = std::mem::replace(&mut self.state, State::Empty) else {
            return;
        };
        self.state = State::Thinking(std::thread::spawn(move || {
            let m = ai.choose_within(&view, budget);
            (ai, m)
        }));
    }

    /// The move chosen, once the thinking is over (`Some(None)`: the AI had no move).
    pub fn poll(&mut self) -> Option<Option<Move>> {
        match &self.state {
            State::Thinking(handle) if handle.is_finished() => {}
            _ => return None,
        }
        let State::Thinking(handle) = std::mem::replace(&mut self.state, State::Empty) else {
            unreachable!("checked above");
        };
        // A panic in the AI's thread is a bug; it ends the game loop with the same message.
        let (ai, m) = handle
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        self.state = State::Idle(ai);
        Some(m)
    }

    /// Waits up to `timeout` for the move being chosen.
    pub fn wait(&mut self, timeout: Duration) -> Option<Option<Move>> {
        let end = Instant::now() + timeout;
        loop {
            if let Some(answer) = self.poll() {
                return Some(answer);
            }
            if !self.is_thinking() || Instant::now() >= end {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}
