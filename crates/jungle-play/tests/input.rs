//! Input tests: key events drive the app state (select, move, type, undo, explain illegal input, prompts,
//! clocks, the engine opponent).

mod common;

use std::time::{Duration, Instant};

use common::*;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use jungle_play::{Mode, PlayConfig, Prompt, Purpose, StatusKind};
use jungle_rules::{Bitboard, Game, Outcome, Rules, Side, Termination};

const PATIENCE: Duration = Duration::from_secs(20);

fn moves(app: &jungle_play::App) -> Vec<String> {
    app.game().moves().iter().map(ToString::to_string).collect()
}

#[test]
fn cursor_and_enter_select_a_piece_and_light_up_its_targets() {
    let mut app = app(Mode::TwoPlayers);
    assert_eq!(
        app.cursor(),
        sq("d1"),
        "the cursor starts on the den of the side at the bottom"
    );
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Left);
    assert_eq!(app.cursor(), sq("c3"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.selected(), Some(sq("c3")));
    let expected: Bitboard = [sq("b3"), sq("d3"), sq("c2")].into_iter().collect();
    assert_eq!(
        app.targets(),
        expected,
        "the Wolf may not enter the river at c4"
    );
    assert_eq!(app.status().kind, StatusKind::Info);
    assert!(
        app.status().text.contains("3 moves lit up"),
        "{:?}",
        app.status()
    );

    // Enter on the piece again puts it back; Esc clears too.
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.selected(), None);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.selected(), None);
    assert_eq!(app.targets(), Bitboard::EMPTY);
}

#[test]
fn enter_on_a_target_plays_the_move() {
    let mut app = app(Mode::TwoPlayers);
    for key in [
        KeyCode::Up,
        KeyCode::Up,
        KeyCode::Left,
        KeyCode::Enter,
        KeyCode::Right,
        KeyCode::Right,
    ] {
        press(&mut app, key);
    }
    assert_eq!(
        app.cursor(),
        sq("e3"),
        "the cursor moves freely while a piece is picked"
    );
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Enter);
    assert_eq!(moves(&app), ["c3d3"]);
    assert_eq!(app.game().side_to_move(), Side::Red);
    assert_eq!(app.selected(), None);
    assert_eq!(
        app.last_move().map(|m| m.to_string()).as_deref(),
        Some("c3d3")
    );
    assert!(
        app.status().text.contains("Blue Wolf c3d3"),
        "{:?}",
        app.status()
    );
    assert!(app.is_dirty());
}

#[test]
fn a_typed_move_is_played_and_its_first_square_picks_the_piece() {
    let mut app = app(Mode::TwoPlayers);
    type_keys(&mut app, "a3");
    assert_eq!(app.cursor(), sq("a3"));
    assert_eq!(app.selected(), Some(sq("a3")));
    assert!(
        app.status()
            .text
            .starts_with("Blue Elephant on a3: 3 moves lit up"),
        "{:?}",
        app.status()
    );
    assert_eq!(app.typed(), "a3");
    type_keys(&mut app, "a4");
    assert_eq!(moves(&app), ["a3a4"]);
    assert_eq!(app.typed(), "");
    type_keys(&mut app, "G7");
    press(&mut app, KeyCode::Backspace);
    assert_eq!(app.typed(), "g");
    type_keys(&mut app, "7g6");
    assert_eq!(moves(&app), ["a3a4", "g7g6"]);

    // A piece picked with the cursor, then its target typed.
    assert_eq!(
        app.cursor(),
        sq("g7"),
        "where the last typed move's first square put it"
    );
    for _ in 0..5 {
        press(&mut app, KeyCode::Left);
        press(&mut app, KeyCode::Down);
    }
    assert_eq!(app.cursor(), sq("b2"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.selected(), Some(sq("b2")));
    type_keys(&mut app, "b3");
    assert_eq!(moves(&app), ["a3a4", "g7g6", "b2b3"]);
}

#[test]
fn illegal_input_is_explained_and_changes_nothing() {
    let mut app = app(Mode::TwoPlayers);
    type_keys(&mut app, "a1a3");
    assert_eq!(app.status().kind, StatusKind::Error);
    let library_says = |m: &str| {
        let position = app.game().position();
        position
            .check_move(app.game().rules(), m.parse().unwrap())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(app.status().text, library_says("a1a3"));
    assert!(
        app.status()
            .text
            .starts_with("illegal move a1a3: the Blue Tiger on a1 cannot reach a3")
    );
    type_keys(&mut app, "c3c4");
    assert_eq!(
        app.status().text,
        "illegal move c3c4: the Blue Wolf may not enter water"
    );
    type_keys(&mut app, "g7g6");
    assert!(
        app.status()
            .text
            .contains("belongs to the side not to move"),
        "{:?}",
        app.status()
    );
    type_keys(&mut app, "a3x");
    assert!(
        app.status().text.contains("\"x\"") || app.status().text.contains("not a rank"),
        "{:?}",
        app.status()
    );
    type_keys(&mut app, "3");
    assert_eq!(
        app.status().kind,
        StatusKind::Error,
        "a rank where a file belongs is refused"
    );
    assert_eq!(app.typed(), "");
    assert!(moves(&app).is_empty());

    // With the cursor: a target the picked piece cannot reach, and an empty square.
    press(&mut app, KeyCode::Esc);
    assert_eq!(
        app.cursor(),
        sq("a3"),
        "typing a square moved the cursor there"
    );
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    assert_eq!(app.cursor(), sq("a1"));
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.status().kind, StatusKind::Error);
    assert!(
        app.status()
            .text
            .starts_with("illegal move a1c1: the Blue Tiger on a1 cannot reach c1"),
        "{:?}",
        app.status()
    );
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Up);
    assert_eq!(app.cursor(), sq("c4"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.status().text,
        "there is no piece on c4: pick one of Blue's pieces"
    );
    assert!(moves(&app).is_empty());
    assert!(!app.is_dirty());

    // Unknown keys say so; nothing panics at the edge of the board.
    press(&mut app, KeyCode::Char('z'));
    assert!(app.status().text.contains("\"z\""));
    for _ in 0..12 {
        press(&mut app, KeyCode::Up);
    }
    assert_eq!(app.cursor(), sq("c9"));
}

#[test]
fn undo_takes_back_one_move_between_people() {
    let mut app = app(Mode::TwoPlayers);
    type_keys(&mut app, "a3a4g7g6");
    press(&mut app, KeyCode::Char('u'));
    assert_eq!(moves(&app), ["a3a4"]);
    assert!(
        app.status().text.contains("took back g7g6"),
        "{:?}",
        app.status()
    );
    press(&mut app, KeyCode::Char('u'));
    press(&mut app, KeyCode::Char('u'));
    assert!(moves(&app).is_empty());
    assert_eq!(app.status().kind, StatusKind::Error);
    assert_eq!(
        app.status().text,
        "nothing to undo: no move has been played"
    );
}

#[test]
fn the_engine_answers_and_undo_takes_back_its_reply_too() {
    let (mut app, gate) = gated_app(Mode::VsEngine);
    type_keys(&mut app, "a3a4");
    assert_eq!(
        app.thinking(),
        Some(Purpose::Play),
        "the engine starts at once, on its own thread"
    );
    type_keys(&mut app, "g7g6");
    assert!(
        app.status().text.contains("the engine is thinking"),
        "{:?}",
        app.status()
    );
    gate.open();
    assert!(app.wait_for_engine(PATIENCE));
    // The first legal Red move in sorted order, from the predictable test engine.
    assert_eq!(moves(&app), ["a3a4", "a7a6"]);
    assert!(app.is_human_turn());
    press(&mut app, KeyCode::Char('u'));
    assert!(moves(&app).is_empty());
    assert!(
        app.status().text.contains("took back a3a4 a7a6"),
        "{:?}",
        app.status()
    );
}

#[test]
fn playing_red_against_the_engine_turns_the_board_and_lets_it_start() {
    let config = PlayConfig {
        human_side: Side::Red,
        ..config(Mode::VsEngine)
    };
    let mut app = app_with(Game::new(Rules::default()), config);
    assert!(app.is_flipped());
    assert_eq!(app.cursor(), sq("d9"));
    press(&mut app, KeyCode::Up);
    assert_eq!(
        app.cursor(),
        sq("d8"),
        "up moves toward the top of the screen: rank 1 when flipped"
    );
    assert!(app.wait_for_engine(PATIENCE));
    assert_eq!(moves(&app).len(), 1);
    assert_eq!(app.game().side_to_move(), Side::Red);
    press(&mut app, KeyCode::Char('t'));
    assert!(!app.is_flipped());
}

#[test]
fn a_hint_shows_the_engines_suggestion() {
    let (mut app, gate) = gated_app(Mode::TwoPlayers);
    press(&mut app, KeyCode::Char('h'));
    assert_eq!(app.thinking(), Some(Purpose::Hint));
    assert_eq!(app.status().text, "thinking about a hint…");
    gate.open();
    assert!(app.wait_for_engine(PATIENCE));
    assert_eq!(app.hint().map(|m| m.to_string()).as_deref(), Some("a1b1"));
    assert_eq!(app.status().text, "hint: a1b1 (Blue Tiger)");
    assert!(moves(&app).is_empty(), "a hint is not played");
}

#[test]
fn resigning_asks_first_and_then_ends_the_game() {
    let mut app = app(Mode::TwoPlayers);
    type_keys(&mut app, "a3a4");
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(app.prompt(), Some(Prompt::Resign));
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.prompt(), None);
    assert!(app.outcome().is_none());
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(
        app.outcome(),
        Some(Outcome::win(Side::Blue, Termination::Resignation))
    );
    type_keys(&mut app, "a4a5");
    assert!(
        app.status().text.starts_with("the game is over"),
        "{:?}",
        app.status()
    );

    // Undo withdraws the resignation and keeps the moves.
    press(&mut app, KeyCode::Char('u'));
    assert_eq!(app.outcome(), None);
    assert_eq!(moves(&app), ["a3a4"]);
    assert_eq!(app.status().text, "resignation withdrawn; Red to move");
}

#[test]
fn a_hint_asked_for_before_a_move_is_not_shown_after_it() {
    let (mut app, gate) = gated_app(Mode::TwoPlayers);
    press(&mut app, KeyCode::Char('h'));
    type_keys(&mut app, "a3a4");
    assert_eq!(app.thinking(), None, "the hint's search is forgotten");
    gate.open();
    // Nothing is pending, so there is nothing to wait for; the cancelled search still answers, and once that
    // answer has come it has been ignored.
    assert!(!app.wait_for_engine(PATIENCE));
    let deadline = Instant::now() + PATIENCE;
    while app.stale_answers() == 0 {
        assert!(
            Instant::now() < deadline,
            "the cancelled hint search never answered"
        );
        app.update();
        std::thread::yield_now();
    }
    assert_eq!(app.stale_answers(), 1);
    assert_eq!(app.hint(), None);
    assert_eq!(app.thinking(), None);
    assert_eq!(moves(&app), ["a3a4"]);
}

#[test]
fn quitting_mid_game_offers_to_save() {
    let mut app = app(Mode::TwoPlayers);
    press(&mut app, KeyCode::Char('q'));
    assert!(app.should_quit(), "nothing to save before the first move");

    let mut app = common::app(Mode::TwoPlayers);
    type_keys(&mut app, "a3a4");
    press(&mut app, KeyCode::Char('q'));
    assert_eq!(app.prompt(), Some(Prompt::SaveBeforeQuit));
    press(&mut app, KeyCode::Esc);
    assert!(!app.should_quit());
    app.handle_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert_eq!(app.prompt(), Some(Prompt::SaveBeforeQuit));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.should_quit());
    let saved = std::fs::read_to_string(&app.config().save_path).unwrap();
    assert!(saved.contains("1. a3a4 *"), "{saved}");
    assert!(!saved.contains("TimeControl"), "no clocks, no tag: {saved}");
    let _ = std::fs::remove_file(&app.config().save_path);
}

#[test]
fn a_falling_flag_ends_the_game_and_increments_are_added() {
    let config = PlayConfig {
        time_control: Some("0.1+2".parse().unwrap()),
        ..config(Mode::TwoPlayers)
    };
    let mut app = app_with(Game::new(Rules::default()), config);
    app.tick(Duration::from_secs(5));
    type_keys(&mut app, "a3a4");
    assert_eq!(
        app.clocks().unwrap().remaining(Side::Blue),
        Duration::from_secs(3)
    );
    app.tick(Duration::from_secs(7));
    assert_eq!(
        app.outcome(),
        Some(Outcome::win(Side::Blue, Termination::TimeForfeit))
    );
    press(&mut app, KeyCode::Char('u'));
    assert!(
        app.status().text.contains("lost on time"),
        "{:?}",
        app.status()
    );
    press(&mut app, KeyCode::Char('n'));
    assert!(
        app.outcome().is_none(),
        "a finished game gives way to a new one without asking"
    );
    assert_eq!(
        app.clocks().unwrap().remaining(Side::Red),
        Duration::from_secs(6)
    );
}

#[test]
fn watching_the_engine_play_itself_can_be_paused() {
    let mut app = app(Mode::Watch);
    assert!(app.wait_for_engine(PATIENCE));
    assert!(app.wait_for_engine(PATIENCE));
    assert_eq!(moves(&app).len(), 2);
    press(&mut app, KeyCode::Char(' '));
    assert!(app.is_paused());
    app.update();
    let before = moves(&app).len();
    // A search already running when the game was paused still delivers its move; none starts after it.
    if app.thinking().is_some() {
        assert!(app.wait_for_engine(PATIENCE));
    }
    let after = moves(&app).len();
    assert!(
        after == before || after == before + 1,
        "{before} -> {after}"
    );
    assert_eq!(app.thinking(), None, "no search starts while paused");
    assert!(
        !app.wait_for_engine(PATIENCE),
        "nothing is left to wait for"
    );
    assert_eq!(moves(&app).len(), after);
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(
        app.status().kind,
        StatusKind::Error,
        "nobody resigns for the engine"
    );
}

#[test]
fn clicks_pick_and_move_pieces_and_levels_change_with_plus_and_minus() {
    let mut app = app(Mode::VsEngine);
    app.click(sq("c3"));
    assert_eq!(app.selected(), Some(sq("c3")));
    app.click(sq("c4"));
    assert_eq!(
        app.status().text,
        "illegal move c3c4: the Blue Wolf may not enter water"
    );
    app.click(sq("d3"));
    assert_eq!(moves(&app), ["c3d3"]);

    assert_eq!(app.config().level, 4);
    press(&mut app, KeyCode::Char('+'));
    press(&mut app, KeyCode::Char('+'));
    assert_eq!(app.config().level, 6);
    for _ in 0..9 {
        press(&mut app, KeyCode::Char('-'));
    }
    assert_eq!(app.config().level, 1);
    assert!(app.player_name(Side::Red).ends_with("(level 1)"));

    let mut friends = common::app(Mode::TwoPlayers);
    press(&mut friends, KeyCode::Char('+'));
    assert_eq!(friends.status().kind, StatusKind::Error);
    assert_eq!(friends.config().level, 4);
}

#[test]
fn thousands_of_random_keys_never_panic_and_keep_the_game_legal() {
    // A fixed linear congruential sequence: the same "random" keys every run.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    let keys: Vec<KeyCode> = "abcdefg123456789uhtrsnpq?xyz+-=! "
        .chars()
        .map(KeyCode::Char)
        .chain([KeyCode::Esc, KeyCode::Backspace, KeyCode::Tab])
        // Cursor keys and Enter more often, so that pieces get picked and moved.
        .chain(
            [
                KeyCode::Up,
                KeyCode::Down,
                KeyCode::Left,
                KeyCode::Right,
                KeyCode::Enter,
            ]
            .repeat(8),
        )
        .collect();
    let mut app = app(Mode::TwoPlayers);
    let mut save_paths = vec![app.config().save_path.clone()];
    let mut played = 0;
    for i in 0..5_000 {
        let key = keys[next() % keys.len()];
        let before = app.game().moves().len();
        app.handle_key(KeyEvent::from(key));
        played += usize::from(app.game().moves().len() > before);
        if app.should_quit() {
            app = common::app(Mode::TwoPlayers);
            save_paths.push(app.config().save_path.clone());
        }
        // The game is always the replay of its own moves from its start.
        let mut replay =
            Game::from_position(app.game().rules().clone(), *app.game().start_position());
        for &m in app.game().moves() {
            replay.play(m).expect("every move in the game is legal");
        }
        if i % 100 == 0 {
            let _ = render(&app);
        }
    }
    assert!(played > 10, "random keys play moves too ({played})");
    for path in save_paths {
        let _ = std::fs::remove_file(path);
    }
}
