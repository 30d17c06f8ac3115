//! Rendering tests: the app drawn on ratatui's `TestBackend`, checked by text and by colour.

mod common;

use common::*;
use crossterm::event::KeyCode;
use jungle_play::render::palette;
use jungle_play::{Mode, PlayConfig};
use jungle_rules::{Game, Rules, Side, Square};

#[test]
fn the_board_shows_pieces_with_character_and_letter_and_coordinates() {
    let app = app(Mode::TwoPlayers);
    let buffer = render(&app);
    let layout = layout(WIDTH, HEIGHT, false);
    assert_eq!(square_text(&buffer, &layout, sq("a1")), "虎T");
    assert_eq!(square_text(&buffer, &layout, sq("g1")), "獅L");
    assert_eq!(square_text(&buffer, &layout, sq("a9")), "獅l");
    assert_eq!(square_text(&buffer, &layout, sq("g7")), "象e");
    assert_eq!(square_text(&buffer, &layout, sq("b5")), "~ ~");
    assert_eq!(square_text(&buffer, &layout, sq("c1")), " # ");
    assert_eq!(square_text(&buffer, &layout, sq("d9")), "DEN");
    let text = screen(&buffer);
    assert!(
        text.contains("     a    b    c    d    e    f    g"),
        "{text}"
    );
    let rank9 = text.lines().find(|l| l.contains(" 9 ")).unwrap();
    assert!(
        rank9.contains("9  獅l        #   DEN   #        虎t  9"),
        "{text}"
    );
    assert!(text.contains("Jungle — Blue to move"), "{text}");
    assert!(text.contains("Rules: standard"), "{text}");
    assert!(text.contains("Ranks: E8 L7 T6 P5 D4 W3 C2 R1"), "{text}");
}

#[test]
fn ascii_mode_uses_plain_letters_only() {
    let config = PlayConfig {
        ascii: true,
        ..config(Mode::TwoPlayers)
    };
    let app = app_with(Game::new(Rules::default()), config);
    let buffer = render(&app);
    let layout = layout(WIDTH, HEIGHT, false);
    assert_eq!(square_text(&buffer, &layout, sq("a1")), " T ");
    assert_eq!(square_text(&buffer, &layout, sq("g9")), " t ");
    assert!(
        screen(&buffer).chars().all(|c| c < '\u{2e80}'),
        "no wide characters"
    );
}

#[test]
fn terrain_has_its_own_colours() {
    let app = app(Mode::TwoPlayers);
    let buffer = render(&app);
    let layout = layout(WIDTH, HEIGHT, false);
    assert_eq!(margin_bg(&buffer, &layout, sq("b4")), palette::WATER);
    assert_eq!(margin_bg(&buffer, &layout, sq("f6")), palette::WATER);
    assert_eq!(margin_bg(&buffer, &layout, sq("e9")), palette::TRAP);
    assert_eq!(margin_bg(&buffer, &layout, sq("d2")), palette::TRAP);
    assert_eq!(margin_bg(&buffer, &layout, sq("d9")), palette::DEN);
    assert_eq!(margin_bg(&buffer, &layout, sq("d5")), palette::LAND);
    assert_eq!(margin_bg(&buffer, &layout, sq("a1")), palette::LAND);
    let area = layout.square_area(sq("a1"));
    let piece_cell = &buffer[(area.x + 1, area.y)];
    assert_eq!(piece_cell.bg, palette::BLUE_PIECE);
    let area = layout.square_area(sq("a9"));
    assert_eq!(buffer[(area.x + 1, area.y)].bg, palette::RED_PIECE);
}

#[test]
fn cursor_selection_targets_and_last_move_are_highlighted() {
    let mut app = app(Mode::TwoPlayers);
    let layout = layout(WIDTH, HEIGHT, false);
    assert_eq!(margin_bg(&render(&app), &layout, sq("d1")), palette::CURSOR);

    type_keys(&mut app, "c3");
    let buffer = render(&app);
    assert_eq!(margin_bg(&buffer, &layout, sq("c3")), palette::CURSOR);
    for target in ["b3", "d3", "c2"] {
        assert_eq!(
            margin_bg(&buffer, &layout, sq(target)),
            palette::TARGET,
            "{target}"
        );
    }
    assert_eq!(square_text(&buffer, &layout, sq("d3")), " • ");
    assert_eq!(
        margin_bg(&buffer, &layout, sq("c4")),
        palette::WATER,
        "not a target"
    );
    press(&mut app, KeyCode::Right);
    let buffer = render(&app);
    assert_eq!(margin_bg(&buffer, &layout, sq("c3")), palette::SELECTED);
    assert_eq!(margin_bg(&buffer, &layout, sq("d3")), palette::CURSOR);

    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Up);
    let buffer = render(&app);
    assert_eq!(margin_bg(&buffer, &layout, sq("c3")), palette::LAST_MOVE);
    assert_eq!(margin_bg(&buffer, &layout, sq("d3")), palette::LAST_MOVE);
    assert_eq!(square_text(&buffer, &layout, sq("d3")), "狼W");
    let text = screen(&buffer);
    assert!(text.contains("  1. c3d3"), "the move list: {text}");
    assert!(text.contains("Jungle — Red to move"), "{text}");
}

#[test]
fn a_flipped_board_has_rank_1_on_top_and_file_g_on_the_left() {
    let mut app = app(Mode::TwoPlayers);
    press(&mut app, KeyCode::Char('t'));
    let buffer = render(&app);
    let layout = layout(WIDTH, HEIGHT, true);
    let top_left = layout.square_area(sq("g1"));
    assert_eq!((top_left.x, top_left.y), (4, 2));
    assert_eq!(square_text(&buffer, &layout, sq("g1")), "獅L");
    let text = screen(&buffer);
    assert!(
        text.contains("     g    f    e    d    c    b    a"),
        "{text}"
    );
    assert!(text.lines().nth(2).unwrap().contains(" 1  獅L"), "{text}");
}

#[test]
fn large_terminals_get_large_squares() {
    let app = app(Mode::TwoPlayers);
    let buffer = render_sized(&app, 110, 36);
    let layout = layout(110, 36, false);
    assert_eq!((layout.cell_width, layout.cell_height), (7, 3));
    assert_eq!(square_text(&buffer, &layout, sq("e3")), "豹P");
    assert_eq!(margin_bg(&buffer, &layout, sq("e4")), palette::WATER);

    let buffer = render_sized(&app, 100, 30);
    let layout = common::layout(100, 30, false);
    assert_eq!((layout.cell_width, layout.cell_height), (7, 2));
    assert_eq!(square_text(&buffer, &layout, sq("g9")), "虎t");
    assert_eq!(layout.square_area(sq("a9")).y, 2);
}

#[test]
fn a_den_entry_shows_the_winners_banner() {
    // Blue's Lion on d8 (Red's trap) steps into Red's den.
    let mut app = app_from_fen(Mode::TwoPlayers, "6t/3L3/7/7/7/7/7/7/6l w 0 1");
    type_keys(&mut app, "d8d9");
    let text = screen(&render(&app));
    assert!(text.contains("Game over"), "{text}");
    assert!(text.contains("BLUE WINS"), "{text}");
    assert!(text.contains("Blue entered Red's den"), "{text}");
    assert!(
        text.contains("u: undo  n: new game  s: save  q: quit"),
        "{text}"
    );
    assert!(text.contains("Jungle — game over"), "{text}");
}

#[test]
fn banners_name_every_kind_of_ending() {
    // Capture of the last piece.
    let mut app = app_from_fen(Mode::TwoPlayers, "7/7/7/7/7/7/7/1e5/T6 w 0 1");
    type_keys(&mut app, "a1a2");
    type_keys(&mut app, "b2a2");
    let text = screen(&render(&app));
    assert!(
        text.contains("RED WINS") && text.contains("Red captured all"),
        "{text}"
    );

    // Resignation.
    let mut app = common::app(Mode::TwoPlayers);
    type_keys(&mut app, "a3a4");
    press(&mut app, KeyCode::Char('r'));
    assert!(
        screen(&render(&app)).contains("Resign this game?"),
        "the prompt shows"
    );
    press(&mut app, KeyCode::Char('y'));
    let text = screen(&render(&app));
    assert!(
        text.contains("BLUE WINS") && text.contains("Red resigned"),
        "{text}"
    );

    // Repetition.
    let mut app = common::app(Mode::TwoPlayers);
    type_keys(&mut app, "a1a2g9g8a2a1g8g9a1a2g9g8a2a1g8g9");
    let text = screen(&render(&app));
    assert!(text.contains("DRAW"), "{text}");
    assert!(text.contains("repetition: same position 3 times"), "{text}");

    // Time.
    let config = PlayConfig {
        time_control: Some("1".parse().unwrap()),
        ..config(Mode::TwoPlayers)
    };
    let mut app = app_with(Game::new(Rules::default()), config);
    app.tick(std::time::Duration::from_secs(61));
    let text = screen(&render(&app));
    assert!(
        text.contains("RED WINS") && text.contains("Blue ran out of time"),
        "{text}"
    );
    assert!(text.contains("0.0"), "the flag shows on the clock: {text}");
}

#[test]
fn the_quiet_ply_limit_and_no_move_endings_have_banners() {
    let rules: Rules = "quiet-ply-limit=2".parse().unwrap();
    let mut app = app_with(Game::new(rules), config(Mode::TwoPlayers));
    type_keys(&mut app, "a1a2g9g8");
    let text = screen(&render(&app));
    assert!(
        text.contains("DRAW") && text.contains("quiet-ply limit: 2 plies, no capture"),
        "{text}"
    );

    // Blue's only piece, a Cat on a1, is shut in by a Red Dog and Wolf it may not take.
    let mut app = app_from_fen(Mode::TwoPlayers, "7/7/7/7/7/7/7/dw5/C6 b 0 1");
    type_keys(&mut app, "b2b1");
    let text = screen(&render(&app));
    assert!(
        text.contains("RED WINS") && text.contains("Blue has no legal move"),
        "{text}"
    );
}

#[test]
fn errors_show_in_the_status_line_and_help_opens() {
    let mut app = app(Mode::TwoPlayers);
    type_keys(&mut app, "c3c4");
    let buffer = render(&app);
    let text = screen(&buffer);
    let status = text.lines().nth(HEIGHT as usize - 2).unwrap();
    assert!(
        status.starts_with("illegal move c3c4: the Blue Wolf may not enter water"),
        "{text}"
    );
    assert_eq!(buffer[(0, HEIGHT - 2)].fg, ratatui::style::Color::LightRed);
    press(&mut app, KeyCode::Char('?'));
    let text = screen(&render(&app));
    assert!(text.contains(" Help "), "{text}");
    assert!(text.contains("h  hint"), "{text}");
    let _ = Square::A1;
}

#[test]
fn tiny_and_odd_terminal_sizes_never_panic() {
    let mut app = app(Mode::TwoPlayers);
    type_keys(&mut app, "a3a4");
    for (width, height) in [
        (1, 1),
        (10, 5),
        (30, 10),
        (43, 14),
        (44, 16),
        (60, 40),
        (200, 60),
    ] {
        let _ = render_sized(&app, width, height);
        press(&mut app, KeyCode::Char('?'));
        let _ = render_sized(&app, width, height);
        press(&mut app, KeyCode::Char('?'));
    }
    app.resign().unwrap();
    for (width, height) in [(1, 1), (20, 8), (43, 15)] {
        let _ = render_sized(&app, width, height);
    }
}

#[test]
fn the_rules_summary_follows_the_rules_in_force() {
    let modern = app_with(
        Game::new("modern".parse().unwrap()),
        config(Mode::TwoPlayers),
    );
    let text = screen(&render_sized(&modern, 100, 30));
    assert!(text.contains("Rules: lion-tiger=equal"), "{text}");
    assert!(text.contains("Ranks: E8 L6 T6 P5"), "{text}");

    let checkers = app_with(
        Game::new("animal-checkers".parse().unwrap()),
        config(Mode::TwoPlayers),
    );
    let summary = jungle_play::render::rules_summary(&checkers);
    assert_eq!(summary[0], "Ranks: E8 T6 D4 R1 (Rat takes Elephant)");
    assert!(
        !summary
            .iter()
            .any(|l| l.contains("swims") || l.contains("trap")),
        "{summary:?}"
    );
    let buffer = render(&checkers);
    let layout = layout(WIDTH, HEIGHT, false);
    assert_eq!(
        margin_bg(&buffer, &layout, sq("b5")),
        palette::LAND,
        "no rivers on this board"
    );
    assert_eq!(
        margin_bg(&buffer, &layout, sq("c1")),
        palette::LAND,
        "no traps on this board"
    );

    let swimmers = app_with(
        Game::new(
            "dog-swims=true,leopard-jumps=true,repetition-draw=0"
                .parse()
                .unwrap(),
        ),
        config(Mode::TwoPlayers),
    );
    let summary = jungle_play::render::rules_summary(&swimmers).join("\n");
    assert!(summary.contains("Rat and Dog swim"), "{summary}");
    assert!(summary.contains("Leopard (sideways)"), "{summary}");
    assert!(
        summary.contains("Draw: 200 plies without capture") && !summary.contains("repetition"),
        "{summary}"
    );
}

#[test]
fn the_latest_moves_stay_in_view_on_a_small_screen() {
    let mut app = app(Mode::TwoPlayers);
    for ply in 0..40 {
        let mut legal = app.game().legal_moves();
        if legal.is_empty() {
            break;
        }
        legal.sort();
        let m = legal[(ply * 7) % legal.len()];
        app.play_text(&m.to_string()).unwrap();
    }
    let moves = app.game().moves().len();
    assert!(moves > 20, "{moves} moves");
    let text = screen(&render(&app));
    let last_row = jungle_play::render::move_rows(&app).pop().unwrap();
    assert!(
        text.contains(&last_row),
        "the last move row {last_row:?} shows:\n{text}"
    );
    assert!(
        jungle_play::render::KEYS.chars().count() <= 80,
        "the key line fits 80 columns"
    );
}

#[test]
fn word_wrapping_is_counted_as_the_panel_wraps() {
    use jungle_play::render::wrapped_rows;
    assert_eq!(wrapped_rows("", 10), 1);
    assert_eq!(wrapped_rows("abc def", 7), 1);
    assert_eq!(wrapped_rows("abc defg", 7), 2);
    assert_eq!(wrapped_rows("abcdefghijklmnop", 5), 4);
}

#[test]
fn mouse_cells_map_back_to_squares() {
    for (width, height, flipped) in [
        (80, 24, false),
        (80, 24, true),
        (100, 30, false),
        (120, 40, true),
    ] {
        let main = ratatui::layout::Rect::new(0, 0, width, height - 2);
        let layout = layout(width, height, flipped);
        for square in Square::all() {
            let area = layout.square_area(square);
            for (x, y) in [(area.x, area.y), (area.right() - 1, area.bottom() - 1)] {
                assert_eq!(
                    layout.square_at(main, x, y),
                    Some(square),
                    "{width}x{height} {square}"
                );
            }
        }
        assert_eq!(layout.square_at(main, 0, 0), None, "the frame is no square");
        assert_eq!(
            layout.square_at(main, width - 1, 5),
            None,
            "the panel is no square"
        );
    }
    let tiny = ratatui::layout::Rect::new(0, 0, 30, 10);
    assert_eq!(
        jungle_play::render::BoardLayout::fit(tiny, false).square_at(tiny, 6, 3),
        None
    );
}

#[test]
fn lost_pieces_are_listed_beside_the_board() {
    let mut app = app_from_fen(
        Mode::TwoPlayers,
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1",
    );
    type_keys(&mut app, "g3g4g7g6g4g5g6g5");
    assert_eq!(
        jungle_play::render::lost_pieces(app.game(), Side::Blue),
        [jungle_rules::Animal::Rat]
    );
    let text = screen(&render(&app));
    assert!(text.contains("lost: 鼠R"), "{text}");
    assert!(!text.contains("lost: 象"), "{text}");
}

#[test]
fn pieces_the_opponent_could_take_are_marked() {
    // Blue to move; Red's Dog on d6 attacks Blue's Cat on d5.
    let app = app_from_fen(Mode::TwoPlayers, "6t/7/7/3d3/3C3/7/7/7/6L w 0 1");
    let buffer = render(&app);
    let layout = layout(WIDTH, HEIGHT, false);
    let cat = layout.square_area(sq("d5"));
    let glyph = &buffer[(cat.x + 1, cat.y)];
    assert_eq!(glyph.fg, palette::THREATENED);
    assert!(
        glyph
            .modifier
            .contains(ratatui::style::Modifier::UNDERLINED)
    );
    let lion = layout.square_area(sq("g1"));
    assert_eq!(
        buffer[(lion.x + 1, lion.y)].fg,
        ratatui::style::Color::White
    );
}

#[test]
fn against_the_engine_the_banner_says_who_won() {
    let mut app = app_from_fen(Mode::VsEngine, "6t/3L3/7/7/7/7/7/7/6l w 0 1");
    type_keys(&mut app, "d8d9");
    let text = screen(&render(&app));
    assert!(text.contains("BLUE WINS — you win"), "{text}");

    let mut app = app_from_fen(Mode::VsEngine, "6t/7/7/7/7/7/7/7/l5L w 0 1");
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('y'));
    let text = screen(&render(&app));
    assert!(text.contains("RED WINS — the engine wins"), "{text}");
    assert!(text.contains("Blue resigned"), "{text}");
}
