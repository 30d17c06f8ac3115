//! The hidden game's full screen: the setup screen (swaps, random, start), face-down enemy pieces, reveals,
//! the record, drawn on ratatui's `TestBackend` and driven by keys as a player would.

mod common;

use std::time::Duration;

use common::{HEIGHT, WIDTH, layout, screen, sq, square_text};
use crossterm::event::{KeyCode, KeyEvent};
use jungle_hidden::record::Record;
use jungle_hidden::{Arrangement, Effect};
use jungle_play::render::{draw_hidden, hidden_piece_text};
use jungle_play::{HiddenApp, HiddenConfig, StatusKind, hidden_app::Phase};
use jungle_rules::{Rules, Side, Square};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

const WAIT: Duration = Duration::from_secs(60);

fn config(human: Side, setup: Option<&str>, seed: u64) -> HiddenConfig {
    let rules = Rules::default();
    HiddenConfig {
        setup: setup.map(|text| Arrangement::parse(&rules, human, text).unwrap()),
        rules,
        human,
        level: 1,
        movetime: Duration::ZERO,
        ascii: true,
        save_path: std::env::temp_dir().join(format!(
            "jungle-hidden-screen-{}-{seed}-{human}.pgn",
            std::process::id()
        )),
        seed,
    }
}

fn press(app: &mut HiddenApp, code: KeyCode) {
    app.handle_key(KeyEvent::from(code));
}

fn type_keys(app: &mut HiddenApp, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

fn render(app: &HiddenApp) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    terminal.draw(|frame| draw_hidden(frame, app)).unwrap();
    terminal.backend().buffer().clone()
}

/// Every square shows exactly what the player's view holds: the animal when known, `?` when not, the terrain
/// when empty.
fn assert_screen_shows_only_the_view(app: &HiddenApp) {
    let buffer = render(app);
    let layout = layout(WIDTH, HEIGHT, app.is_flipped());
    for square in Square::all() {
        let shown = square_text(&buffer, &layout, square);
        match app.view().piece_at(square) {
            Some(seen) => assert_eq!(shown, hidden_piece_text(seen, true), "{square}"),
            None => assert!(!shown.contains('?'), "{square}: {shown}"),
        }
    }
}

#[test]
fn the_setup_screen_swaps_randomizes_and_starts() {
    let mut app = HiddenApp::new(config(Side::Blue, None, 1));
    assert_eq!(app.phase(), Phase::Setup);
    let before = app.setup().clone();
    let buffer = render(&app);
    let layout = layout(WIDTH, HEIGHT, false);
    let text = screen(&buffer);
    assert!(text.contains("Hidden Jungle — your setup"), "{text}");
    assert!(text.contains(&format!("Your setup: {before}")), "{text}");
    // Own animals by letter, the enemy's start squares face down.
    let a1 = before.animal_on(sq("a1")).unwrap().letter().to_string();
    assert_eq!(square_text(&buffer, &layout, sq("a1")).trim(), a1);
    assert_eq!(square_text(&buffer, &layout, sq("a9")), " ? ");
    assert_screen_shows_only_the_view(&app);

    // Enter on a1, then (by mouse) on g1: the two animals change places.
    app.click(sq("a1"));
    assert_eq!(app.selected(), Some(sq("a1")));
    assert!(app.targets().contains(sq("g1")));
    app.click(sq("g1"));
    assert_eq!(app.setup().animal_on(sq("a1")), before.animal_on(sq("g1")));
    assert_eq!(app.setup().animal_on(sq("g1")), before.animal_on(sq("a1")));
    assert_screen_shows_only_the_view(&app);

    // A square that is not one of ours is refused with the reason.
    app.click(sq("a1"));
    app.click(sq("d5"));
    assert_eq!(app.status().kind, StatusKind::Error);
    assert!(app.status().text.contains("not one of your start squares"));

    // x draws a new random setup (a permutation of the same animals); g starts the game.
    let swapped = app.setup().clone();
    let mut changed = false;
    for _ in 0..5 {
        press(&mut app, KeyCode::Char('x'));
        changed |= *app.setup() != swapped;
    }
    assert!(changed);
    let mut animals = app.setup().animals();
    animals.sort();
    let mut expected = before.animals();
    expected.sort();
    assert_eq!(animals, expected);
    let chosen = app.setup().clone();
    press(&mut app, KeyCode::Char('g'));
    assert_eq!(app.phase(), Phase::Play);
    assert_eq!(app.record().unwrap().setups.blue.as_ref(), Some(&chosen));
    assert!(screen(&render(&app)).contains("Hidden Jungle — Blue to move"));
}

#[test]
fn a_given_setup_skips_the_setup_screen_and_the_ai_answers() {
    let mut app = HiddenApp::new(config(Side::Red, Some("RPWEDCLT"), 2));
    assert_eq!(app.phase(), Phase::Play);
    // Blue (the AI) moves first; the board is turned so Red is at the bottom.
    assert!(app.is_flipped());
    assert!(app.wait_for_ai(WAIT));
    assert_eq!(app.view().history().len(), 1);
    assert_eq!(app.view().side_to_move(), Side::Red);
    let text = screen(&render(&app));
    assert!(
        text.contains(&format!("  1. {}", app.view().history()[0])),
        "{text}"
    );
    assert_screen_shows_only_the_view(&app);
    // Keys that mean nothing, and moves that are not legal, are explained.
    type_keys(&mut app, "a7a5");
    assert_eq!(app.status().kind, StatusKind::Error);
    press(&mut app, KeyCode::Char('z'));
    assert!(app.status().text.contains("does nothing"));
}

#[test]
fn enemy_pieces_stay_face_down_until_revealed_and_reveals_are_drawn() {
    // The player plays the first legal move that attacks when there is one (else the first legal move), until
    // some attack has happened; after every move the screen shows the player's view and nothing more.
    let mut app = HiddenApp::new(config(Side::Blue, Some("TLCDEWPR"), 3));
    let mut attacked = false;
    for _ in 0..60 {
        if app.outcome().is_some() {
            break;
        }
        let view = app.view().clone();
        let moves = view.legal_moves();
        let m = moves
            .iter()
            .find(|m| view.piece_at(m.to).is_some())
            .or_else(|| moves.iter().next())
            .unwrap();
        app.play_text(&m.to_string()).unwrap();
        assert_screen_shows_only_the_view(&app);
        attacked |= app
            .view()
            .history()
            .iter()
            .any(|p| p.effect != Effect::Quiet);
        if app.outcome().is_none() {
            assert!(app.wait_for_ai(WAIT));
            assert_screen_shows_only_the_view(&app);
        }
        if attacked {
            break;
        }
    }
    assert!(attacked, "no attack in 60 moves");
    // An attack reveals: the attacker's animal is shown to both, in the move list too.
    let attack = app
        .view()
        .history()
        .iter()
        .find(|p| p.effect != Effect::Quiet)
        .copied()
        .unwrap();
    assert!(attack.mover.is_some());
    let text = screen(&render(&app));
    assert!(text.contains(&attack.to_string()), "{text}");
    // The enemy's still unknown pieces are all face down.
    let hidden = app
        .view()
        .pieces()
        .filter(|(_, seen)| seen.side == Side::Red && seen.animal.is_none())
        .count();
    let buffer = render(&app);
    let layout = layout(WIDTH, HEIGHT, false);
    let face_down = Square::all()
        .filter(|&s| square_text(&buffer, &layout, s) == " ? ")
        .count();
    assert_eq!(face_down, hidden);
}

#[test]
fn resigning_ends_the_game_shows_both_setups_and_saves_the_record() {
    let mut app = HiddenApp::new(config(Side::Blue, Some("TLCDEWPR"), 4));
    type_keys(&mut app, "a3a4");
    assert!(app.wait_for_ai(WAIT));
    // While the game goes on, the AI's setup is nowhere: not in the record, not on the screen.
    let record = app.record().unwrap();
    assert!(record.setups.red.is_none());
    assert!(app.setups_after_end().is_none());
    assert!(!screen(&render(&app)).contains("setups:"));

    press(&mut app, KeyCode::Char('r'));
    assert!(app.prompt().is_some());
    press(&mut app, KeyCode::Char('y'));
    let outcome = app.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Side::Red));
    let setups = app.setups_after_end().unwrap().clone();
    let text = screen(&render(&app));
    assert!(text.contains("RED WINS"), "{text}");
    assert!(
        text.contains(&format!("setups: Blue {}, Red {}", setups.blue, setups.red)),
        "{text}"
    );
    // Every animal is shown now.
    assert!(app.view().pieces().all(|(_, seen)| seen.animal.is_some()));

    press(&mut app, KeyCode::Char('s'));
    let path = app.config().save_path.clone();
    let saved = Record::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(saved.setups.red.as_ref(), Some(&setups.red));
    assert_eq!(saved.tag("White"), Some("You"));
    assert_eq!(saved.game().unwrap().outcome(), Some(outcome));
    assert!(!app.is_dirty());
    press(&mut app, KeyCode::Char('q'));
    assert!(app.should_quit());
}

#[test]
fn quitting_a_game_in_progress_asks_then_saves_only_the_players_secrets() {
    let mut app = HiddenApp::new(config(Side::Blue, Some("TLCDEWPR"), 5));
    type_keys(&mut app, "g3g4");
    assert!(app.wait_for_ai(WAIT));
    press(&mut app, KeyCode::Char('q'));
    assert!(!app.should_quit());
    assert!(screen(&render(&app)).contains("Leave the game?"));
    press(&mut app, KeyCode::Char('n'));
    assert!(!app.should_quit());
    press(&mut app, KeyCode::Char('q'));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.should_quit());
    let path = app.config().save_path.clone();
    let saved = Record::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(saved.setups.blue.unwrap().to_string(), "TLCDEWPR");
    assert!(saved.setups.red.is_none(), "the AI's setup is still secret");
    assert_eq!(saved.moves.len(), 2);
}
