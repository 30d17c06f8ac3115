//! The draw rules (docs/rules.md §5, options `repetition-draw` and `quiet-ply-limit`) through
//! `Game`: they depend on the history, so move generation and perft ignore them while `Game` applies them.

use jungle_rules::{Game, Outcome, Position, Rules, Side, Termination, perft};

fn rules(text: &str) -> Rules {
    text.parse().unwrap()
}

fn play(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

/// One shuffle of both Tigers/Lions in the corners: back to the same position after four plies.
const SHUFFLE: &str = "a1a2 g9g8 a2a1 g8g9";

#[test]
fn repetition_draw_n_is_the_nth_occurrence() {
    for n in 2..=6u32 {
        let mut game = Game::new(rules(&format!("repetition-draw={n}")));
        for occurrence in 2..=n {
            assert!(
                !game.is_over(),
                "n={n}: over before occurrence {occurrence}"
            );
            play(&mut game, SHUFFLE);
            assert_eq!(game.repetitions(), occurrence as usize);
        }
        assert_eq!(
            game.outcome(),
            Some(Outcome::draw(Termination::Repetition)),
            "n={n}"
        );
        assert!(game.legal_moves().is_empty());
        // The position itself still has its moves: the draw lives in the history.
        assert_eq!(game.position().legal_moves(game.rules()).len(), 24);
    }
}

#[test]
fn repetition_draw_0_never_draws() {
    let mut game = Game::new(rules("repetition-draw=0"));
    for _ in 0..30 {
        play(&mut game, SHUFFLE);
    }
    assert_eq!(game.repetitions(), 31);
    assert!(!game.is_over());
}

#[test]
fn repetition_needs_the_same_side_to_move() {
    // The Blue Lion makes an odd round trip (a vertical jump b3-b7 covers four ranks in one ply, then six
    // steps back) while Red's Tiger shuffles: the start placement recurs with Red to move, which is not a
    // repetition of the start (Blue to move).
    let r = rules("repetition-draw=2");
    let start = Position::from_fen("6t/7/7/7/7/7/1L5/7/7 w", &r).unwrap();
    let mut game = Game::from_position(r, start);
    let blue = ["b3b7", "b7a7", "a7a6", "a6a5", "a5a4", "a4a3", "a3b3"];
    let red = ["g9g8", "g8g9"];
    for (i, m) in blue.iter().enumerate() {
        play(&mut game, m);
        if i < blue.len() - 1 {
            play(&mut game, red[i % 2]);
        }
    }
    let board = |p: &Position| p.to_string().split(' ').next().unwrap().to_string();
    assert_eq!(board(game.position()), board(&start));
    assert_eq!(game.side_to_move(), Side::Red);
    assert_eq!(game.repetitions(), 1);
    assert!(!game.is_over());
}

#[test]
fn quiet_ply_limit_n_counts_plies_without_capture() {
    for n in [1u32, 2, 7, 40] {
        let mut game = Game::new(rules(&format!("quiet-ply-limit={n},repetition-draw=0")));
        let shuffle: Vec<&str> = SHUFFLE.split_whitespace().collect();
        for ply in 0..n as usize {
            assert!(!game.is_over(), "n={n}: over after {ply} plies");
            play(&mut game, shuffle[ply % 4]);
        }
        assert_eq!(
            game.outcome(),
            Some(Outcome::draw(Termination::QuietPlyLimit)),
            "n={n}"
        );
    }
}

#[test]
fn quiet_ply_limit_0_never_draws() {
    let start = Position::from_fen(
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 100000 1",
        &rules("quiet-ply-limit=0"),
    )
    .unwrap();
    let mut game = Game::from_position(rules("quiet-ply-limit=0"), start);
    play(&mut game, "a1a2");
    assert_eq!(game.position().quiet_plies(), 100001);
    assert!(!game.is_over());
}

#[test]
fn a_capture_resets_the_quiet_count() {
    // Blue's Wolf on d3 takes the Red Cat on d4 at quiet ply 199 of 200.
    let standard = Rules::default();
    let start = Position::from_fen("6t/7/7/7/7/3c3/3W3/7/L6 w 199 80", &standard).unwrap();
    let mut game = Game::from_position(standard.clone(), start);
    play(&mut game, "d3d4");
    assert_eq!(game.position().quiet_plies(), 0);
    assert!(!game.is_over());
    // Without the capture, the 200th quiet ply draws.
    let mut game = Game::from_position(standard, start);
    play(&mut game, "d3c3");
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(Termination::QuietPlyLimit))
    );
}

#[test]
fn entering_the_den_on_the_last_quiet_ply_wins() {
    let standard = Rules::default();
    let start = Position::from_fen("6t/3W3/7/7/7/7/7/7/L6 w 199 80", &standard).unwrap();
    let mut game = Game::from_position(standard, start);
    play(&mut game, "d8d9");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::Blue, Termination::DenEntered))
    );
}

#[test]
fn the_position_after_a_capture_is_the_first_occurrence() {
    // Blue's Wolf takes the Red Cat; the position after the capture recurs twice more through shuffles.
    let r = rules("repetition-draw=3");
    let start = Position::from_fen("6t/7/7/7/7/3c3/3W3/7/L6 w", &r).unwrap();
    let mut game = Game::from_position(r, start);
    play(&mut game, "d3d4 g9g8 a1a2 g8g9 a2a1");
    assert_eq!(game.repetitions(), 2);
    assert!(!game.is_over());
    play(&mut game, "g9g8 a1a2 g8g9 a2a1");
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), Some(Outcome::draw(Termination::Repetition)));
}

#[test]
fn perft_ignores_the_draw_rules() {
    let r = rules("quiet-ply-limit=1,repetition-draw=2");
    let start = Position::start(&r);
    assert_eq!(perft(&start, &r, 3), 12240);
    let mut game = Game::new(r.clone());
    play(&mut game, "a1a2");
    assert!(game.is_over());
    let pos = game.position();
    assert_eq!(perft(pos, &r, 2), perft(pos, &Rules::default(), 2));
    assert_eq!(perft(pos, &r, 1), 24);
}
