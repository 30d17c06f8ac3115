//! The open game in a room: its seats, clock and draw offer, and every action on it. Every action checks the
//! rules with `jungle-rules`, writes to the store, and only then shows the change: what a browser sees has been
//! saved. (Reading a stored game back: `restore`; catching up with other nodes: `remote`.)

use std::time::{Duration, Instant};

use jungle_rules::{BySide, Game, GameError, Move, Outcome, Side, Termination};

use super::{Ending, EndingWriter, Frames, Kind, LoadError, Room};
use crate::clock::Clock;
use crate::cluster::event::{Change, Headcount, MoveEvent};
use crate::presence::Presence;
use crate::protocol::{ServerMessage, SideName, Snapshot};
use crate::side_from_name;
use crate::store::{Correspondence, MoveRecord, Store, StoreError, now_ms};

mod remote;
mod restore;
mod snapshot;
mod takeback;
pub use remote::resume_clock_at;
use remote::side_text;
pub use restore::{Loaded, load, room_state, stored_outcome};
use snapshot::snapshot_json;
pub use snapshot::{Written, pgn_player_name, player_name, snapshot};

/// The open game (every rule of `jungle-rules`, both sides see everything): one state message for everyone.
#[derive(Debug)]
pub struct Open;

impl Kind for Open {
    type State = RoomState;

    fn frames(id: &str, state: &RoomState) -> Frames {
        Frames::Everyone(snapshot_json(id, state, Instant::now()))
    }

    fn at_rest(state: &RoomState) -> bool {
        (state.is_finished() || state.mode == Mode::Import) && !state.thinking
    }

    fn tokens(state: &RoomState) -> &BySide<Option<String>> {
        &state.tokens
    }

    fn attendance(state: &RoomState) -> Headcount {
        state.presence.local()
    }

    fn approx_bytes(state: &RoomState) -> usize {
        // A position and a move per ply.
        state.game.positions().len() * (size_of::<jungle_rules::Position>() + size_of::<Move>())
    }

    fn reread(store: &Store, id: &str, state: &mut RoomState) -> Result<(), LoadError> {
        remote::reread(store, id, state)
    }

    const STORE_ENDING: EndingWriter = Store::finish;
}

/// Who plays in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A person against the engine, which plays `side` at `level` (1–8).
    Engine { level: u8, side: Side },
    /// Two people: the creator and whoever opens the link first.
    Friend,
    /// A finished game brought in as PGN, for replay and analysis.
    Import,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Engine { .. } => "engine",
            Mode::Friend => "friend",
            Mode::Import => "import",
        }
    }
}

/// Why an action was refused. The room is unchanged after any of these.
#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    #[error("you are watching this game: only its players may do that")]
    Spectator,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("the game is over: {0}")]
    Over(Outcome),
    #[error("the game was aborted")]
    Aborted,
    #[error(
        "too late to abort: both sides have made {ABORT_BEFORE_MOVES} moves (resign or offer a draw)"
    )]
    TooLateToAbort,
    #[error("nothing to claim: {0}")]
    NothingToClaim(&'static str),
    #[error("{0}")]
    Illegal(GameError),
    #[error("takeback refused: {0}")]
    Takeback(&'static str),
    #[error("there is no draw offer to decline")]
    NoDrawOffer,
    #[error("there is no takeback request to decline")]
    NoTakebackRequest,
    #[error("the engine declines the draw: it thinks it is not worse")]
    EngineDeclinesDraw(Side),
    #[error("the game was not saved, try again: {0}")]
    Store(#[from] StoreError),
    /// Another server node changed the game first: the room was read again and its state sent.
    #[error(
        "your game was out of date (it changed on another server): here is where it stands now"
    )]
    OutOfDate,
    #[error("the game could not be read again: {0}")]
    Reload(String),
}

/// Everything a room holds behind its lock.
#[derive(Debug)]
pub struct RoomState {
    pub game: Game,
    pub mode: Mode,
    pub tokens: BySide<Option<String>>,
    pub names: BySide<Option<String>>,
    pub clock: Option<Clock>,
    /// The clocks after each ply, so a takeback can restore them (`clock_history[i]` follows move `i`).
    pub clock_history: Vec<BySide<u64>>,
    pub initial_ms: Option<u64>,
    pub draw_offer: Option<Side>,
    /// The player who asked to take moves back, until the opponent answers or a move is made (between
    /// people; kept in memory only, as the draw offer).
    pub takeback_request: Option<Side>,
    /// The engine is working on a move for this room.
    pub thinking: bool,
    /// Counts changes, so a late engine reply or clock timer can tell the position moved on without it.
    pub generation: u64,
    /// The outcome already written to the store (so it is written once).
    pub recorded_outcome: Option<Outcome>,
    /// The game was called off before it really began: nobody won or lost, and nothing changes it any more.
    pub aborted: bool,
    /// When the game last moved on (created, loaded, a seat taken, a move made): the start of the wait
    /// after which a game that has not begun is aborted.
    pub waiting_since: Instant,
    /// The connections of each seat and the spectators.
    pub presence: Presence,
    /// How long a player must have been gone before the opponent may claim the game.
    pub claim_after: Duration,
    /// The rematch, once a player asked for one (kept in memory only).
    pub rematch: Option<Rematch>,
    /// Days per move and the stored deadline, instead of a clock (a correspondence game).
    pub correspondence: Option<Correspondence>,
    /// The texts of the state message kept between changes.
    pub written: Written,
}

/// A finished game's rematch: its id, and the token of each of its seats kept for the players.
#[derive(Clone, Debug)]
pub struct Rematch {
    pub id: String,
    /// By side in the new game.
    pub tokens: BySide<Option<String>>,
}

/// While fewer plies than this are played, each side has not moved yet and the game may be aborted (by
/// either player, or by the server when the wait runs out); the clocks start only after them.
pub const OPENING_PLIES: usize = 2;

/// A player may abort until both sides have made this many moves.
pub const ABORT_BEFORE_MOVES: usize = 2;

impl RoomState {
    /// Whether nothing can change the game any more: it has a result, or it was aborted.
    pub fn is_finished(&self) -> bool {
        self.aborted || self.game.is_over()
    }

    /// Refuses any action on a finished game.
    fn check_playable(&self) -> Result<(), ActionError> {
        if self.aborted {
            return Err(ActionError::Aborted);
        }
        match self.game.outcome() {
            Some(outcome) => Err(ActionError::Over(outcome)),
            None => Ok(()),
        }
    }

    /// When the game is aborted if nothing happens: it has not begun (a side has not moved yet) and the wait
    /// for the friend to join (`join_wait`) or for the side to move (`first_move_wait`) runs out.
    pub fn abort_deadline(
        &self,
        join_wait: Duration,
        first_move_wait: Duration,
    ) -> Option<Instant> {
        // A correspondence game waits days, not minutes: its deadline decides (see `Room::flag_check`).
        if self.is_finished()
            || self.mode == Mode::Import
            || self.correspondence.is_some()
            || self.game.moves().len() >= OPENING_PLIES
        {
            return None;
        }
        let seat_free =
            self.mode == Mode::Friend && Side::ALL.iter().any(|&s| self.tokens.get(s).is_none());
        Some(
            self.waiting_since
                + if seat_free {
                    join_wait
                } else {
                    first_move_wait
                },
        )
    }
}

impl Room<Open> {
    /// The current state.
    pub fn snapshot(&self) -> Snapshot {
        snapshot(&self.id, &self.lock(), Instant::now())
    }

    /// Whether the room is an unfinished engine game.
    pub fn is_live_engine_game(&self) -> bool {
        let state = self.lock();
        matches!(state.mode, Mode::Engine { .. }) && !state.is_finished()
    }

    /// Plays a player's move, received just now, after every check: seat, turn, clock, legality.
    ///
    /// # Errors
    /// See [`ActionError`]; the room is unchanged on error (except a flag fall, which ends the game).
    pub fn play(&self, store: &Store, seat: Option<Side>, text: &str) -> Result<(), ActionError> {
        self.play_received(store, seat, text, now_ms())
    }

    /// Plays a player's move that its connection received at `received_at_ms` (milliseconds since the epoch):
    /// as [`Room::play`], but a move that reaches the database too long after that is refused
    /// ([`crate::store::MOVE_MAX_AGE`]; the server was stopped or starved meanwhile, and its player may have
    /// given up on the move).
    ///
    /// # Errors
    /// See [`ActionError`]; a late move is [`ActionError::Store`] with [`StoreError::Late`].
    pub fn play_received(
        &self,
        store: &Store,
        seat: Option<Side>,
        text: &str,
        received_at_ms: i64,
    ) -> Result<(), ActionError> {
        let mut state = self.lock();
        let m = self.players_move(store, &mut state, seat, text)?;
        self.commit_move(store, &mut state, m, Some(received_at_ms))
    }

    /// [`Room::play_received`], with the move's commit awaited where the store allows it (PostgreSQL on the
    /// server's runtime): the room is not locked, nor the thread held, while the database commits. A change
    /// to the room meanwhile (an ending, a takeback, another node's news) makes it read the game again, with
    /// or without this move as the database decided. A correspondence move is stored the blocking way.
    ///
    /// # Errors
    /// As [`Room::play_received`].
    pub async fn play_received_awaited(
        &self,
        store: &Store,
        seat: Option<Side>,
        text: &str,
        received_at_ms: i64,
    ) -> Result<(), ActionError> {
        let prepared = {
            let mut state = self.lock();
            let m = self.players_move(store, &mut state, seat, text)?;
            if state.correspondence.is_some() {
                return self.commit_move(store, &mut state, m, Some(received_at_ms));
            }
            prepare_move(&mut state, m)?
        };
        let saved = store
            .insert_players_move_awaited(&self.id, &prepared.record, received_at_ms)
            .await;
        let mut state = self.lock();
        if state.generation != prepared.generation {
            self.catch_up_locked(store, &mut state)?;
            return match saved {
                // Stored: the room read again has the move. An ending it made is stored now, and the other
                // nodes read the game from the database (there is no plain move of theirs to play).
                Ok(()) => {
                    self.finish_if_over(store, &mut state, Instant::now())?;
                    self.announce(&mut state, Change::Stored);
                    Ok(())
                }
                Err(e) if e.is_conflict() => Err(ActionError::OutOfDate),
                Err(e) => Err(e.into()),
            };
        }
        self.finish_move(store, &mut state, prepared, saved)
    }

    /// The move `text` of the player in `seat`, if it is theirs to make now (a flag that fell first ends the
    /// game instead).
    fn players_move(
        &self,
        store: &Store,
        state: &mut RoomState,
        seat: Option<Side>,
        text: &str,
    ) -> Result<Move, ActionError> {
        let seat = seat.ok_or(ActionError::Spectator)?;
        state.check_playable()?;
        if seat != state.game.side_to_move() || is_engine_seat(state.mode, seat) {
            return Err(ActionError::NotYourTurn);
        }
        let m: Move = text
            .trim()
            .parse()
            .map_err(|e| ActionError::Illegal(GameError::Parse(e)))?;
        self.flag_check(store, state)?;
        Ok(m)
    }

    /// Plays the engine's move if the room is still where the engine was asked to think (`generation`).
    /// `started` is when the engine got a thread: the time its job waited in line is not charged to its clock.
    pub fn play_engine_move(
        &self,
        store: &Store,
        generation: u64,
        m: Move,
        started: Instant,
    ) -> Result<(), ActionError> {
        let mut state = self.lock();
        state.thinking = false;
        if state.generation != generation || state.is_finished() {
            self.show(&state);
            return Ok(());
        }
        let engine = state.game.side_to_move();
        if let Some(clock) = state.clock.as_mut() {
            clock.excuse_until(engine, started);
        }
        let played = self
            .flag_check(store, &mut state)
            .and_then(|()| self.commit_move(store, &mut state, m, None));
        if matches!(played, Err(ActionError::Store(StoreError::Unavailable(_)))) {
            // Not stored (the database is away): the engine's job goes on, its caller stores the move again.
            state.thinking = true;
        }
        played
    }

    /// The engine's job for an earlier position ended without a move (the game moved on, maybe on another
    /// node): once the game is over, nothing thinks for it any more.
    pub fn engine_stood_down(&self) {
        let mut state = self.lock();
        if state.thinking && state.is_finished() {
            state.thinking = false;
            self.show(&state);
        }
    }

    /// Marks the engine as no longer thinking (it found no move, or failed).
    pub fn engine_gave_up(&self) {
        let mut state = self.lock();
        state.thinking = false;
        self.show(&state);
    }

    /// Stores and shows move `m`: a player's, received at `received_at_ms`, or the engine's (`None`).
    fn commit_move(
        &self,
        store: &Store,
        state: &mut RoomState,
        m: Move,
        received_at_ms: Option<i64>,
    ) -> Result<(), ActionError> {
        let prepared = prepare_move(state, m)?;
        let saved = match (prepared.correspondence, received_at_ms) {
            (Some(c), _) => store.insert_move_with_deadline(
                &self.id,
                &prepared.record,
                c.deadline_ms,
                received_at_ms,
            ),
            (None, Some(received_at_ms)) => {
                store.insert_players_move(&self.id, &prepared.record, received_at_ms)
            }
            (None, None) => store.insert_move(&self.id, &prepared.record),
        };
        self.finish_move(store, state, prepared, saved)
    }

    /// Shows a prepared move that the store `saved`; one it did not is not played, and the player is told
    /// (and may send it again).
    fn finish_move(
        &self,
        store: &Store,
        state: &mut RoomState,
        prepared: PreparedMove,
        saved: Result<(), StoreError>,
    ) -> Result<(), ActionError> {
        if let Err(e) = saved {
            if e.is_conflict() {
                // Another node stored this ply first: this room was behind. Read it again and say so.
                self.catch_up_locked(store, state)?;
                return Err(ActionError::OutOfDate);
            }
            return Err(e.into());
        }
        let PreparedMove {
            m,
            mover,
            record,
            after,
            clock,
            millis,
            correspondence,
            now,
            played_at,
            generation: _,
        } = prepared;
        state.game.play(m).map_err(ActionError::Illegal)?;
        state.clock = clock;
        if let Some(t) = millis {
            state.clock_history.push(t);
        }
        if correspondence.is_some() {
            state.correspondence = correspondence;
        }
        if state.draw_offer == Some(mover.opponent()) {
            state.draw_offer = None;
        }
        // The request was for the position before this move: the moves it would undo are not the same now.
        state.takeback_request = None;
        state.waiting_since = now;
        self.finish_if_over(store, state, now)?;
        // The other nodes play a plain move from the event; an ending or a correspondence deadline they
        // read from the database.
        let change = if state.is_finished() || correspondence.is_some() {
            Change::Stored
        } else {
            Change::Moved(MoveEvent {
                ply: record.ply,
                mv: record.mv,
                after,
                blue_ms: record.blue_ms,
                red_ms: record.red_ms,
                played_at,
            })
        };
        self.announce(state, change);
        Ok(())
    }

    /// A change made and stored: the room's generation moves on, and every connection here and every other
    /// node hears of it.
    fn announce(&self, state: &mut RoomState, change: Change) {
        state.generation += 1;
        self.show(state);
        self.publish(state, change);
    }

    /// Ends the game on time if the side to move has run out: its clock, or its correspondence deadline (a
    /// correspondence game where a side never made its first move is aborted instead).
    fn flag_check(&self, store: &Store, state: &mut RoomState) -> Result<(), ActionError> {
        let now = Instant::now();
        let mover = state.game.side_to_move();
        let overdue = state.correspondence.is_some_and(|c| c.overdue(now_ms()));
        if overdue && state.game.moves().len() < OPENING_PLIES {
            self.abort_now(store, state)?;
            return Err(ActionError::Aborted);
        }
        if overdue || state.clock.as_ref().is_some_and(|c| c.flagged(mover, now)) {
            let outcome = Outcome::win(mover.opponent(), Termination::TimeForfeit);
            state.game.declare(outcome);
            self.finish_if_over(store, state, now)?;
            self.announce(state, Change::Stored);
            return Err(ActionError::Over(outcome));
        }
        Ok(())
    }

    /// The clock timer fired: ends the game if the side to move has really run out.
    /// An engine that is thinking (or waiting for a thread) is not flagged here: its clock is settled when its
    /// move arrives, without the time it waited.
    pub fn check_flag(&self, store: &Store) -> Result<(), ActionError> {
        let mut state = self.lock();
        if state.is_finished() || state.thinking {
            return Ok(());
        }
        match self.flag_check(store, &mut state) {
            Err(ActionError::Over(_) | ActionError::Aborted | ActionError::OutOfDate) => Ok(()),
            other => other,
        }
    }

    /// Writes a new ending to the store and stops the clock.
    fn finish_if_over(
        &self,
        store: &Store,
        state: &mut RoomState,
        now: Instant,
    ) -> Result<(), ActionError> {
        let Some(outcome) = state.game.outcome() else {
            return Ok(());
        };
        if state.recorded_outcome == Some(outcome) {
            return Ok(());
        }
        if let Some(clock) = state.clock.as_mut() {
            clock.stop(now);
        }
        state.draw_offer = None;
        let plies = state.game.moves().len() as u32;
        if !self.store_ending(store, state, plies, Ending::of(outcome))? {
            // Another node wrote this game's ending first, or a move after this position (a flag at the
            // moment the move came): the room was read again.
            return Err(ActionError::OutOfDate);
        }
        state.recorded_outcome = Some(outcome);
        Ok(())
    }

    /// The player in `seat` resigns.
    pub fn resign(&self, store: &Store, seat: Option<Side>) -> Result<(), ActionError> {
        let seat = seat.ok_or(ActionError::Spectator)?;
        self.declare(
            store,
            Outcome::win(seat.opponent(), Termination::Resignation),
        )
    }

    fn declare(&self, store: &Store, outcome: Outcome) -> Result<(), ActionError> {
        let mut state = self.lock();
        state.check_playable()?;
        let before = (state.game.clone(), state.clock.clone(), state.draw_offer);
        state.game.declare(outcome);
        if let Err(e) = self.finish_if_over(store, &mut state, Instant::now()) {
            if !matches!(e, ActionError::OutOfDate) {
                (state.game, state.clock, state.draw_offer) = before;
            }
            return Err(e);
        }
        self.announce(&mut state, Change::Stored);
        Ok(())
    }

    /// The player in `seat` offers a draw, or accepts the opponent's offer. Against the engine, `accept` says
    /// whether the engine takes it.
    pub fn offer_draw(
        &self,
        store: &Store,
        seat: Option<Side>,
        engine_accepts: impl FnOnce(&Game) -> bool,
    ) -> Result<(), ActionError> {
        let seat = seat.ok_or(ActionError::Spectator)?;
        let accepted = {
            let mut state = self.lock();
            state.check_playable()?;
            match state.mode {
                Mode::Engine { .. } if engine_accepts(&state.game) => true,
                Mode::Engine { side, .. } => return Err(ActionError::EngineDeclinesDraw(side)),
                _ if state.draw_offer == Some(seat.opponent()) => true,
                _ => {
                    state.draw_offer = Some(seat);
                    self.announce(&mut state, Change::DrawOffered(side_text(seat)));
                    false
                }
            }
        };
        if accepted {
            self.declare(store, Outcome::draw(Termination::DrawAgreed))
        } else {
            Ok(())
        }
    }

    /// The player in `seat` declines the opponent's draw offer.
    pub fn decline_draw(&self, seat: Option<Side>) -> Result<(), ActionError> {
        let seat = seat.ok_or(ActionError::Spectator)?;
        let mut state = self.lock();
        state.check_playable()?;
        if state.draw_offer != Some(seat.opponent()) {
            return Err(ActionError::NoDrawOffer);
        }
        state.draw_offer = None;
        state.generation += 1;
        self.show(&state);
        // The offerer hears of it (the state alone only shows the offer gone).
        let text = format!("{} declines the draw.", side_title(seat));
        self.tell_everyone(draw_declined(seat, text));
        self.publish(&state, Change::DrawDeclined(side_text(seat)));
        Ok(())
    }

    /// The player in `seat` calls the game off before it has really begun (each side has made fewer than
    /// [`ABORT_BEFORE_MOVES`] moves): nobody wins or loses.
    pub fn abort(&self, store: &Store, seat: Option<Side>) -> Result<(), ActionError> {
        seat.ok_or(ActionError::Spectator)?;
        let mut state = self.lock();
        state.check_playable()?;
        if state.game.moves().len() >= 2 * ABORT_BEFORE_MOVES {
            return Err(ActionError::TooLateToAbort);
        }
        self.abort_now(store, &mut state)
    }

    /// The wait for a game to begin ran out: aborts it if it still has not begun and nothing happened since
    /// the timer was set (`generation`). An engine still thinking on its first move is waited for.
    pub fn abort_if_not_begun(
        &self,
        store: &Store,
        generation: u64,
        join_wait: Duration,
        first_move_wait: Duration,
    ) -> Result<(), ActionError> {
        let mut state = self.lock();
        let due = state
            .abort_deadline(join_wait, first_move_wait)
            .is_some_and(|deadline| deadline <= Instant::now());
        if state.generation != generation || state.thinking || !due {
            return Ok(());
        }
        self.abort_now(store, &mut state)
    }

    fn abort_now(&self, store: &Store, state: &mut RoomState) -> Result<(), ActionError> {
        let plies = state.game.moves().len() as u32;
        let aborted = Ending {
            result: "*",
            winner: None,
            termination: ABORTED,
        };
        if !self.store_ending(store, state, plies, aborted)? {
            // Another node wrote this game's ending first, or a move: the room was read again.
            return Err(ActionError::OutOfDate);
        }
        state.aborted = true;
        if let Some(clock) = state.clock.as_mut() {
            clock.stop(Instant::now());
        }
        state.draw_offer = None;
        self.announce(state, Change::Stored);
        Ok(())
    }
}

/// A move checked against the room and ready to store, with what the room becomes once it is stored.
#[derive(Debug)]
struct PreparedMove {
    m: Move,
    mover: Side,
    record: MoveRecord,
    /// The move before it, in the event the other nodes play it from.
    after: Option<String>,
    /// The clock once the move is made, and its times then.
    clock: Option<Clock>,
    millis: Option<BySide<u64>>,
    correspondence: Option<Correspondence>,
    now: Instant,
    played_at: i64,
    /// The room's generation it was prepared in.
    generation: u64,
}

/// Checks move `m` in the room (the room itself is left as it was) and works out what storing it writes.
fn prepare_move(state: &mut RoomState, m: Move) -> Result<PreparedMove, ActionError> {
    let mover = state.game.side_to_move();
    let after = state.game.moves().last().map(ToString::to_string);
    // Played to check it and to count it, then taken back: the room shows it only once it is stored.
    state.game.play(m).map_err(ActionError::Illegal)?;
    let plies = state.game.moves().len();
    state.game.undo();
    let now = Instant::now();
    // The clocks start once each side has made its first move (as on lichess): nobody loses on time
    // before the opponent has even arrived.
    let begun = plies >= OPENING_PLIES;
    let mut clock = state.clock.clone();
    let millis = clock.as_mut().map(|clock| {
        if begun {
            clock.press(mover, now);
        }
        clock.millis(now)
    });
    let record = MoveRecord {
        ply: plies as u32 - 1,
        mv: m.to_string(),
        blue_ms: millis.map(|t| t.blue),
        red_ms: millis.map(|t| t.red),
    };
    Ok(PreparedMove {
        m,
        mover,
        record,
        after,
        clock,
        millis,
        correspondence: state.correspondence.map(|c| c.after_move(now_ms())),
        now,
        played_at: now_ms(),
        generation: state.generation,
    })
}

/// The notice that `by` declined a draw.
pub fn draw_declined(by: Side, text: String) -> String {
    ServerMessage::Notice {
        event: "draw_declined",
        by: Some(SideName(by)),
        text,
    }
    .to_json()
}

/// The notice that `by` declined the opponent's takeback request.
pub fn takeback_declined(by: Side) -> String {
    ServerMessage::Notice {
        event: "takeback_declined",
        by: Some(SideName(by)),
        text: format!("{} declines the takeback.", side_title(by)),
    }
    .to_json()
}

fn side_title(side: Side) -> &'static str {
    match side {
        Side::Blue => "Blue",
        Side::Red => "Red",
    }
}

impl Room<Open> {
    /// A connection for `seat` (or a spectator) opened.
    pub fn arrive(&self, seat: Option<Side>) {
        let mut state = self.lock();
        state.presence.arrive(seat);
        self.broadcast_presence(&state, seat);
    }

    /// A connection for `seat` (or a spectator) closed.
    pub fn leave(&self, seat: Option<Side>) {
        let mut state = self.lock();
        state.presence.leave(seat, Instant::now());
        self.broadcast_presence(&state, seat);
    }

    /// Tells the room who is there: always when a player comes or goes, for spectators only while they are
    /// few (a crowd arriving would cost a message to every watcher each; the count catches up on the next
    /// change).
    fn broadcast_presence(&self, state: &RoomState, seat: Option<Side>) {
        if seat.is_some() || state.presence.spectators() <= SPECTATOR_UPDATES_UP_TO {
            self.show(state);
            self.publish(state, Change::Attendance);
        }
    }

    /// The player in `seat` ends a game whose opponent has been gone for [`RoomState::claim_after`]: as a
    /// win (`draw` false) or a draw. Only between people, once the game has begun.
    pub fn claim(&self, store: &Store, seat: Option<Side>, draw: bool) -> Result<(), ActionError> {
        let seat = seat.ok_or(ActionError::Spectator)?;
        {
            let state = self.lock();
            state.check_playable()?;
            if state.mode != Mode::Friend {
                return Err(ActionError::NothingToClaim("only in games between people"));
            }
            if state.game.moves().len() < OPENING_PLIES {
                return Err(ActionError::NothingToClaim(
                    "the game has not begun: abort it instead",
                ));
            }
            match away_ms(&state, seat.opponent(), Instant::now()) {
                Some(0) => {}
                Some(_) => {
                    return Err(ActionError::NothingToClaim(
                        "your opponent has not been gone long enough",
                    ));
                }
                None => return Err(ActionError::NothingToClaim("your opponent is connected")),
            }
        }
        let outcome = if draw {
            Outcome::draw(Termination::Abandoned)
        } else {
            Outcome::win(seat, Termination::Abandoned)
        };
        self.declare(store, outcome)
    }
}

/// Spectators arriving or leaving are announced to the room while there are at most this many.
const SPECTATOR_UPDATES_UP_TO: usize = 50;

/// For a person's seat with no connection in a game under way: the milliseconds until the opponent may claim.
fn away_ms(state: &RoomState, side: Side, now: Instant) -> Option<u64> {
    // Correspondence players come and go for days: their absence is no reason to claim.
    let person = state.mode == Mode::Friend
        && state.correspondence.is_none()
        && state.tokens.get(side).is_some();
    if !person || state.is_finished() {
        return None;
    }
    let gone = state.presence.gone_for(side, now)?;
    Some(state.claim_after.saturating_sub(gone).as_millis() as u64)
}

/// The stored termination of an aborted game (its result is `*`).
pub const ABORTED: &str = "aborted";

fn is_engine_seat(mode: Mode, seat: Side) -> bool {
    matches!(mode, Mode::Engine { side, .. } if side == seat)
}

/// What the engine should do for a room now: `(generation, game, level)` when it is the engine's turn.
pub fn engine_turn(state: &RoomState) -> Option<(u64, u8)> {
    match state.mode {
        Mode::Engine { level, side }
            if !state.thinking && !state.is_finished() && state.game.side_to_move() == side =>
        {
            Some((state.generation, level))
        }
        _ => None,
    }
}

/// Reads a stored side name.
pub fn parse_side(text: Option<&str>) -> Option<Side> {
    text.and_then(side_from_name)
}
