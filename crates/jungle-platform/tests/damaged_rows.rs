//! Issue 29.2: one damaged row stopped the whole server from starting ("unexpected stored value"). Here each
//! column of each table is damaged in turn — a cell of a type no column holds (SQLite only: PostgreSQL's
//! columns are typed), then values of the right type that no game could have (both backends) — and a hub
//! is started on the database as `jungle serve` starts one: the games in progress reopened, then the sweeps.
//! Each time the start succeeds, an undamaged game is served with all its moves, and a damaged game is
//! quarantined: answered as damaged, never served as if it were fine, and not deleted.
//!
//! Each case has a database of its own (a fresh in-memory SQLite file, a fresh PostgreSQL schema with a pool
//! of two connections) and a runtime of its own, dropped at the end of the case with every task it ran: the
//! hub's timers hold it, so nothing of a case (above all its database connections) outlives it.

use std::path::Path;
use std::sync::Arc;

use jungle_platform::store::scratch::{ScratchSchema, test_postgres_url};
use jungle_platform::store::{
    AccountKey, Correspondence, GameList, GameRecord, HiddenRecord, MoveRecord, Seek, TimeControl,
    now_ms,
};
use jungle_platform::{EnginePool, Hub, HubError, Store, correspondence, unattended};
use jungle_rules::START_FEN;

/// Which game a damage must quarantine.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// The open game `id` is answered as damaged.
    Open(&'static str),
    /// The hidden game `id` is answered as damaged.
    Hidden(&'static str),
    /// No game: the damaged row is no game's (an account, a seek, a rating), or no id can name it any more.
    Elsewhere,
}

/// One damage: `UPDATE table SET column = value WHERE key`.
#[derive(Clone, Debug)]
struct Damage {
    table: &'static str,
    column: &'static str,
    value: &'static str,
    expect: Expect,
}

/// The columns of each table, the row of the fixture each damage hits, and the game that must be
/// quarantined for it.
fn columns() -> Vec<(&'static str, &'static str, Expect)> {
    let games = [
        "created_at",
        "mode",
        "rules",
        "start_fen",
        "engine_level",
        "engine_side",
        "blue_token",
        "red_token",
        "blue_name",
        "red_name",
        "clock_initial_ms",
        "clock_increment_ms",
        "result",
        "winner",
        "termination",
        "finished_at",
        "damaged",
        "blue_user_id",
        "red_user_id",
        "rating_category",
        "rematch_of",
    ];
    let mut all: Vec<_> = games
        .into_iter()
        .map(|c| ("games", c, Expect::Open("bad")))
        .collect();
    all.extend([
        ("games", "id", Expect::Elsewhere),
        ("games", "days_per_move", Expect::Open("days")),
        ("games", "deadline_at", Expect::Open("days")),
        ("moves", "game_id", Expect::Elsewhere),
    ]);
    for c in ["ply", "mv", "blue_ms", "red_ms", "played_at"] {
        all.push(("moves", c, Expect::Open("bad")));
    }
    all.push(("hidden_games", "id", Expect::Elsewhere));
    for c in [
        "created_at",
        "mode",
        "rules",
        "engine_level",
        "engine_side",
        "blue_token",
        "red_token",
        "blue_setup",
        "red_setup",
        "result",
        "winner",
        "termination",
        "finished_at",
    ] {
        all.push(("hidden_games", c, Expect::Hidden("hid")));
    }
    all.push(("hidden_moves", "game_id", Expect::Elsewhere));
    for c in ["ply", "mv", "played_at"] {
        all.push(("hidden_moves", c, Expect::Hidden("hid")));
    }
    let elsewhere: &[(&str, &[&str])] = &[
        (
            "users",
            &["id", "name", "name_key", "password_hash", "created_at"],
        ),
        (
            "sessions",
            &["token_hash", "user_id", "created_at", "expires_at"],
        ),
        (
            "ratings",
            &[
                "user_id",
                "category",
                "rating",
                "deviation",
                "volatility",
                "games",
                "wins",
                "draws",
                "losses",
                "updated_at",
            ],
        ),
        (
            "rating_history",
            &[
                "game_id",
                "user_id",
                "category",
                "opponent_id",
                "outcome",
                "rating_before",
                "deviation_before",
                "opponent_rating",
                "opponent_deviation",
                "rating_after",
                "deviation_after",
                "volatility_after",
                "at",
            ],
        ),
        (
            "puzzle_ratings",
            &[
                "puzzle_id",
                "rating",
                "deviation",
                "volatility",
                "attempts",
                "solved",
            ],
        ),
        (
            "puzzle_solvers",
            &[
                "user_id",
                "rating",
                "deviation",
                "volatility",
                "attempts",
                "solved",
            ],
        ),
        (
            "puzzle_attempts",
            &["user_id", "puzzle_id", "solved", "played_at"],
        ),
        (
            "seeks",
            &[
                "id",
                "created_at",
                "creator_id",
                "creator_name",
                "rules",
                "clock_initial_ms",
                "clock_increment_ms",
                "days_per_move",
                "rated",
                "colour",
                "rating_min",
                "rating_max",
                "target_id",
                "target_name",
                "declined",
                "seen_at",
            ],
        ),
        ("pairings", &["game_id", "seek_id", "created_at"]),
        ("engine_jobs", &["game_id", "ply", "node", "lease_until"]),
    ];
    for (table, cs) in elsewhere {
        all.extend(cs.iter().map(|c| {
            // The rating `won` is settled with at start (a value of Ann's that does not read).
            let settles_won = *table == "ratings"
                && ["rating", "deviation", "volatility", "updated_at"].contains(c);
            let expect = if settles_won {
                Expect::Open("won")
            } else {
                Expect::Elsewhere
            };
            (*table, *c, expect)
        }));
    }
    all
}

/// Cells of a type no column holds, in every column (SQLite only).
fn wrong_types() -> Vec<Damage> {
    let mut damages = Vec::new();
    for (table, column, expect) in columns() {
        for value in ["X'FFFE'", "CAST(X'C328' AS TEXT)"] {
            damages.push(Damage {
                table,
                column,
                value,
                expect,
            });
        }
    }
    // Text in whole-number columns (the attack run's `created_at='yesterday'`, text in `moves.blue_ms`).
    for (table, column, expect) in [
        ("games", "created_at", Expect::Open("bad")),
        ("games", "engine_level", Expect::Open("bad")),
        ("games", "clock_initial_ms", Expect::Open("bad")),
        ("games", "deadline_at", Expect::Open("days")),
        ("moves", "blue_ms", Expect::Open("bad")),
        ("moves", "ply", Expect::Open("bad")),
        ("hidden_moves", "ply", Expect::Hidden("hid")),
    ] {
        damages.push(Damage {
            table,
            column,
            value: "'yesterday'",
            expect,
        });
    }
    damages
}

/// Values of the right type that no game could have (both backends).
fn impossible_values() -> Vec<Damage> {
    let bad = Expect::Open("bad");
    let days = Expect::Open("days");
    let hid = Expect::Hidden("hid");
    [
        ("games", "created_at", "-5", bad),
        ("games", "rules", "'nonsense'", bad),
        ("games", "start_fen", "'nonsense'", bad),
        ("games", "engine_level", "999", bad),
        ("games", "engine_level", "9", bad),
        ("games", "engine_level", "0", bad),
        ("games", "engine_level", "NULL", bad),
        ("games", "clock_initial_ms", "-5", bad),
        ("games", "clock_initial_ms", "0", bad),
        ("games", "clock_initial_ms", "999999999999", bad),
        ("games", "clock_increment_ms", "-5", bad),
        ("games", "clock_increment_ms", "61000", bad),
        ("games", "result", "'2-0'", bad),
        ("games", "winner", "'purple'", bad),
        ("games", "termination", "'boredom'", bad),
        ("games", "finished_at", "5", bad),
        ("games", "damaged", "'found by hand'", bad),
        ("games", "days_per_move", "-5", days),
        ("games", "days_per_move", "0", days),
        ("games", "days_per_move", "99", days),
        ("games", "deadline_at", "-5", days),
        ("moves", "ply", "7", bad),
        ("moves", "ply", "-5", bad),
        ("moves", "mv", "'a3a9'", bad),
        ("moves", "mv", "'zz'", bad),
        ("moves", "blue_ms", "-5", bad),
        ("moves", "blue_ms", "999999999999", bad),
        ("moves", "red_ms", "NULL", bad),
        ("hidden_games", "created_at", "-5", hid),
        ("hidden_games", "rules", "'nonsense'", hid),
        ("hidden_games", "engine_level", "3", hid),
        ("hidden_games", "blue_setup", "'TTTTTTTT'", hid),
        ("hidden_games", "result", "'1-0'", hid),
        ("hidden_games", "termination", "'boredom'", hid),
        ("hidden_games", "finished_at", "5", hid),
        ("hidden_moves", "ply", "7", hid),
        ("hidden_moves", "mv", "'a3a9'", hid),
        ("ratings", "deviation", "-5", Expect::Open("won")),
    ]
    .into_iter()
    .map(|(table, column, value, expect)| Damage {
        table,
        column,
        value,
        expect,
    })
    .collect()
}

/// The row of the fixture a damage of `table` hits.
fn key_of(table: &str, column: &str) -> &'static str {
    match (table, column) {
        ("games", "id") => "id = 'lone'",
        ("games", "days_per_move" | "deadline_at") => "id = 'days'",
        ("games", _) => "id = 'bad'",
        ("moves", _) => "game_id = 'bad' AND ply = 1",
        ("hidden_games", _) => "id = 'hid'",
        ("hidden_moves", _) => "game_id = 'hid' AND ply = 1",
        ("users", _) => "name_key = 'ann'",
        // Every other table holds one row.
        _ => "1 = 1",
    }
}

/// A backend's fresh database for one case.
trait Backend {
    fn name(&self) -> &'static str;
    /// A store on an empty database, and what must outlive it (a scratch schema).
    fn open(&self) -> (Store, Option<ScratchSchema>);
    /// The statements that damage one cell (foreign keys are set aside where the backend allows).
    fn damage_sql(&self, update: &str) -> String;
}

struct Sqlite;
struct Postgres;

impl Backend for Sqlite {
    fn name(&self) -> &'static str {
        "sqlite"
    }

    fn open(&self) -> (Store, Option<ScratchSchema>) {
        (Store::in_memory().expect("an in-memory store"), None)
    }

    fn damage_sql(&self, update: &str) -> String {
        format!("PRAGMA foreign_keys = OFF; {update}; PRAGMA foreign_keys = ON")
    }
}

impl Backend for Postgres {
    fn name(&self) -> &'static str {
        "postgres"
    }

    fn open(&self) -> (Store, Option<ScratchSchema>) {
        let schema = ScratchSchema::new(&test_postgres_url()).unwrap_or_else(|e| panic!("{e}"));
        let url = format!("{}&pool_max=2", schema.url());
        let store = Store::open(Path::new(&url)).expect("a PostgreSQL store");
        (store, Some(schema))
    }

    fn damage_sql(&self, update: &str) -> String {
        update.to_string()
    }
}

const MINUTES_10: u64 = 600_000;

/// Blue walks its Leopard up the d-file into Red's den while Red moves its Lion to and fro: a den win in 13
/// plies.
const DEN_RUN: [&str; 13] = [
    "e3d3", "a9a8", "d3d4", "a8a9", "d4d5", "a9a8", "d5d6", "a8a9", "d6d7", "a9a8", "d7d8", "a8a9",
    "d8d9",
];

fn game(id: &str, mode: &str) -> GameRecord {
    GameRecord {
        id: id.into(),
        created_at: now_ms(),
        mode: mode.into(),
        rules: "standard".into(),
        start_fen: START_FEN.into(),
        engine_level: None,
        engine_side: None,
        blue_token: Some(format!("{id}-blue")),
        red_token: Some(format!("{id}-red")),
        blue_name: None,
        red_name: None,
        clock_initial_ms: None,
        clock_increment_ms: None,
        result: None,
        winner: None,
        termination: None,
        finished_at: None,
    }
}

fn moves(store: &Store, id: &str, played: &[&str], clock: Option<u64>) {
    for (ply, mv) in played.iter().enumerate() {
        let m = MoveRecord {
            ply: ply as u32,
            mv: mv.to_string(),
            blue_ms: clock,
            red_ms: clock,
        };
        store.insert_move(id, &m).unwrap();
    }
}

/// The database every case starts from: a row in every table.
/// - `good`: a friend game of 10 minutes, three moves, never damaged;
/// - `bad`: an engine game (level 3, Red) of 10 minutes + 2 s, two moves, Blue an account;
/// - `days`: a correspondence game between two accounts, one move, paired by the lobby;
/// - `lone`: a friend game without moves;
/// - `won`: a rated game between the accounts whose last move (Blue into Red's den) ended it, its ending not
///   stored yet (the process died between the two writes): the start stores it, settling the ratings;
/// - `hid`: a hidden friend game with both setups and two moves;
/// - two accounts, a session, a seek, a rating with its history, a puzzle's and a solver's rating and an
///   attempt, and an engine job.
fn fixture(store: &Store) {
    let ann = store.insert_account("ann", "hash").unwrap().unwrap();
    let bob = store.insert_account("bob", "hash").unwrap().unwrap();
    let now = now_ms();
    store
        .insert_session("sess", ann.id, now + 86_400_000)
        .unwrap();

    let timed = |mut g: GameRecord, increment| {
        g.clock_initial_ms = Some(MINUTES_10);
        g.clock_increment_ms = Some(increment);
        g
    };
    store
        .insert_game(&timed(game("good", "friend"), 0))
        .unwrap();
    moves(store, "good", &["a3a4", "g7g6", "a4a5"], Some(MINUTES_10));
    let mut bad = timed(game("bad", "engine"), 2_000);
    (bad.engine_level, bad.engine_side, bad.red_token) = (Some(3), Some("red".into()), None);
    store.insert_game(&bad).unwrap();
    moves(store, "bad", &["a3a4", "g7g6"], Some(MINUTES_10));
    store.bind_seat("bad", "blue", &ann).unwrap();
    store.insert_game(&game("days", "friend")).unwrap();
    moves(store, "days", &["a3a4"], None);
    store
        .set_correspondence("days", Correspondence::starting(3, now))
        .unwrap();
    store.bind_seat("days", "blue", &ann).unwrap();
    store.bind_seat("days", "red", &bob).unwrap();
    store.insert_game(&game("lone", "friend")).unwrap();
    store.insert_game(&game("won", "friend")).unwrap();
    let players = jungle_rules::BySide::new(ann.id, bob.id);
    store
        .mark_rated("won", players, jungle_platform::store::Category::Blitz)
        .unwrap();
    moves(store, "won", &DEN_RUN, None);

    store
        .insert_hidden_game(&HiddenRecord {
            id: "hid".into(),
            created_at: now,
            mode: "friend".into(),
            rules: "standard".into(),
            engine_level: None,
            engine_side: None,
            blue_token: Some("hid-blue".into()),
            red_token: Some("hid-red".into()),
            blue_setup: Some("TLCDEWPR".into()),
            red_setup: Some("RPWEDCLT".into()),
            blue_name: None,
            red_name: None,
            result: None,
            winner: None,
            termination: None,
            finished_at: None,
        })
        .unwrap();
    store.insert_hidden_move("hid", 0, "a3a4").unwrap();
    store.insert_hidden_move("hid", 1, "g7g6").unwrap();

    store
        .insert_seek(&Seek {
            id: "s1".into(),
            created_at: now,
            creator_id: ann.id,
            creator_name: "ann".into(),
            rules: "standard".into(),
            time: TimeControl::Clock {
                initial_ms: 180_000,
                increment_ms: 2_000,
            },
            rated: false,
            colour: jungle_platform::store::Colour::Random,
            rating_min: None,
            rating_max: None,
            target_id: None,
            target_name: None,
            declined: false,
        })
        .unwrap();
    store
        .claim_engine_job("bad", 2, "node-a", now, now + 1_000)
        .unwrap();
    let (a, b) = (ann.id, bob.id);
    store
        .execute_raw(&format!(
            "INSERT INTO pairings (game_id, seek_id, created_at) VALUES ('days', 's0', {now});
             INSERT INTO ratings (user_id, category, rating, deviation, volatility, games, wins, draws, losses,
                updated_at) VALUES ({a}, 'blitz', 1500.0, 350.0, 0.06, 1, 1, 0, 0, {now});
             INSERT INTO rating_history (game_id, user_id, category, opponent_id, outcome, rating_before,
                deviation_before, opponent_rating, opponent_deviation, rating_after, deviation_after,
                volatility_after, at)
                VALUES ('good', {a}, 'blitz', {b}, 'win', 1500.0, 350.0, 1500.0, 350.0, 1600.0, 300.0, 0.06, {now});
             INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility, attempts, solved)
                VALUES ('p1', 1500.0, 350.0, 0.06, 1, 1);
             INSERT INTO puzzle_solvers (user_id, rating, deviation, volatility, attempts, solved)
                VALUES ({a}, 1500.0, 350.0, 0.06, 1, 1);
             INSERT INTO puzzle_attempts (user_id, puzzle_id, solved, played_at) VALUES ({a}, 'p1', 1, {now})"
        ))
        .unwrap();
}

/// What a case came to.
enum Outcome {
    /// The database refused the damage (a constraint, a type): nothing to start on.
    Refused,
    Checked,
}

/// Damages one cell of a fresh database, starts a hub on it as `jungle serve` does, and checks what must
/// hold; panics (failing the test) with the case named when it does not.
fn run_case(backend: &dyn Backend, damage: &Damage) -> Outcome {
    let (store, _schema) = backend.open();
    fixture(&store);
    let update = format!(
        "UPDATE {} SET {} = {} WHERE {}",
        damage.table,
        damage.column,
        damage.value,
        key_of(damage.table, damage.column)
    );
    if store.execute_raw(&backend.damage_sql(&update)).is_err() {
        return Outcome::Refused;
    }
    let case = format!("{}: {update}", backend.name());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let hub = Hub::new(store, EnginePool::new(1));
        let resumed = hub
            .resume()
            .unwrap_or_else(|e| panic!("{case}: the start failed: {e}"));
        assert!(resumed >= 1, "{case}: no game reopened");
        correspondence::sweep(&hub).unwrap_or_else(|e| panic!("{case}: correspondence sweep: {e}"));
        unattended::sweep_at(&hub, now_ms())
            .unwrap_or_else(|e| panic!("{case}: sweep for games nobody holds: {e}"));
        jungle_platform::lobby::sweep(&hub);
        check_served(&hub, &case, damage);
        drop(hub);
    });
    // The hub's timers end with their runtime, and the store (its connections) with the hub.
    drop(runtime);
    Outcome::Checked
}

fn check_served(hub: &Arc<Hub>, case: &str, damage: &Damage) {
    let good = hub
        .room("good")
        .unwrap_or_else(|e| panic!("{case}: the undamaged game: {e}"))
        .unwrap_or_else(|| panic!("{case}: the undamaged game is gone"));
    let played: Vec<String> = good
        .lock()
        .game
        .moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(played, ["a3a4", "g7g6", "a4a5"], "{case}");
    let live = hub.store.list(GameList::Live, 100).unwrap();
    assert!(live.iter().any(|g| g.id == "good"), "{case}: not listed");
    match damage.expect {
        Expect::Open(id) => {
            match hub.room(id) {
                Err(HubError::Damaged { reason, .. }) => assert!(!reason.is_empty(), "{case}"),
                Ok(Some(_)) => {
                    panic!("{case}: the damaged game {id} was served as if it were fine")
                }
                Ok(None) => panic!("{case}: the damaged game {id} is gone"),
                Err(e) => panic!("{case}: the damaged game {id}: {e}"),
            }
            assert!(
                live.iter().all(|g| g.id != id),
                "{case}: the damaged game {id} is listed as live"
            );
        }
        Expect::Hidden(id) => match hub.hidden_room(id) {
            Err(HubError::Damaged { .. }) => {}
            Ok(Some(_)) => panic!("{case}: the damaged hidden game was served as if it were fine"),
            Ok(None) => panic!("{case}: the damaged hidden game is gone"),
            Err(e) => panic!("{case}: the damaged hidden game: {e}"),
        },
        Expect::Elsewhere => {}
    }
    // The game whose ending the start stored, unless a rating it settles was damaged.
    if !matches!(damage.expect, Expect::Open("won")) {
        let won = hub.store.game("won").unwrap().unwrap();
        assert_eq!(
            won.result.as_deref(),
            Some("1-0"),
            "{case}: the ending of won"
        );
    }
    // The hidden game is served unless its own rows were damaged.
    if !damage.table.starts_with("hidden") {
        let hidden = hub.hidden_room("hid");
        assert!(
            matches!(hidden, Ok(Some(_))),
            "{case}: the undamaged hidden game: {:?}",
            hidden.err()
        );
    }
    // An account beside a damaged one still signs in; the damaged one is an error, never a panic.
    let _ = hub.store.credentials(AccountKey::Name("ann"));
    assert!(
        hub.store
            .credentials(AccountKey::Name("bob"))
            .unwrap()
            .is_some(),
        "{case}"
    );
    let _ = hub.store.seeks_for(None, now_ms(), 10);
}

fn run_all(backend: &dyn Backend, damages: &[Damage]) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut refused = Vec::new();
    for damage in damages {
        match run_case(backend, damage) {
            Outcome::Checked => checked += 1,
            Outcome::Refused => refused.push(format!(
                "{}.{} = {}",
                damage.table, damage.column, damage.value
            )),
        }
    }
    eprintln!(
        "{}: {checked} damages checked; refused by the schema: {}",
        backend.name(),
        refused.join(", ")
    );
    (checked, refused)
}

#[test]
fn every_column_of_every_table_damaged_in_turn_on_sqlite() {
    let mut damages = wrong_types();
    damages.extend(impossible_values());
    let (checked, refused) = run_all(&Sqlite, &damages);
    // SQLite stores what it is given, save where a constraint checks it (the mode, a side, a category, a
    // seek's colour) or the column is the row's integer key.
    assert!(
        checked >= damages.len() - 30,
        "{checked} checked, refused: {refused:?}"
    );
    for must in [
        "games.engine_level = 999",
        "games.rules = X'FFFE'",
        "games.created_at = 'yesterday'",
        "games.clock_initial_ms = -5",
        "moves.mv = X'FFFE'",
        "moves.blue_ms = 'yesterday'",
    ] {
        assert!(!refused.iter().any(|r| r == must), "{must} was refused");
    }
}

#[test]
fn every_impossible_value_on_postgres() {
    let damages = impossible_values();
    let (checked, refused) = run_all(&Postgres, &damages);
    // PostgreSQL's columns are typed: a negative number, a value out of range, text in a number column is
    // refused by the schema where SQLite stores it. The values of the right type are all stored.
    assert!(
        checked >= damages.len() / 2,
        "{checked} checked, refused: {refused:?}"
    );
    assert!(
        !refused
            .iter()
            .any(|r| r.starts_with("games.engine_level = 9"))
    );
}
