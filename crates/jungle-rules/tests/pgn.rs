//! PGN: writing (tags, move numbers, results, wrapping), reading (comments, NAGs, variations, many games),
//! errors that say where and what, and the round trip of random games under every option set.

mod common;

use jungle_rules::pgn::{DERIVED_TAGS, PgnGame};
use jungle_rules::{
    Game, Notation, NotationError, Outcome, PgnErrorKind, Position, Rules, Side, TagError,
    Termination, read_games,
};
use proptest::prelude::*;

fn game(rules: &str, fen: Option<&str>, moves: &str) -> Game {
    let rules: Rules = rules.parse().unwrap();
    let mut game = match fen {
        Some(fen) => Game::from_position(rules.clone(), Position::from_fen(fen, &rules).unwrap()),
        None => Game::new(rules),
    };
    for m in moves.split_whitespace() {
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    game
}

fn error(text: &str) -> jungle_rules::ParsePgnError {
    read_games(text).expect_err("should not parse")
}

#[test]
fn writes_the_tags_and_numbers_moves_as_chess_pgn() {
    let mut g = game(
        "modern",
        Some("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 7"),
        "a7a6 a3a4 a6a5",
    );
    g.declare(Outcome::win(Side::Red, Termination::TimeForfeit));
    let mut record = PgnGame::new(g);
    record.set_tag("Black", "Bo \"the\" Bot").unwrap();
    record.set_tag("Annotator", "back\\slash").unwrap();
    let text = record.to_string();
    let expected = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n\
        [Black \"Bo \\\"the\\\" Bot\"]\n[Result \"0-1\"]\n[Variant \"Jungle\"]\n\
        [FEN \"l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 7\"]\n[Rules \"lion-tiger=equal\"]\n\
        [Termination \"time forfeit\"]\n[Annotator \"back\\\\slash\"]\n\n7... a7a6 8. a3a4 a6a5 0-1\n\n";
    assert_eq!(text, expected);
    let back: PgnGame = text.parse().unwrap();
    assert_eq!(back.tag("Black"), Some("Bo \"the\" Bot"));
    assert_eq!(back.tag("Annotator"), Some("back\\slash"));
    assert_eq!(back.game.moves(), record.game.moves());
    assert_eq!(
        back.game.outcome(),
        Some(Outcome::win(Side::Red, Termination::TimeForfeit))
    );
    assert_eq!(back.to_string(), text);
}

#[test]
fn moves_can_be_written_and_read_with_the_animal() {
    // Blue's Rat walks up the g file and takes Red's Elephant on g7 (a capture, written with x).
    let mut record = PgnGame::new(game("", None, "g3g4 a7a6 g4g5 a6a5 g5g6 a5a4 g6g7"));
    record.notation = Notation::Animal;
    let text = record.to_string();
    assert!(
        text.contains("\n\n1. Rg3-g4 Ra7-a6 2. Rg4-g5 Ra6-a5 3. Rg5-g6 Ra5-a4 4. Rg6xg7 *"),
        "{text}"
    );
    let back: PgnGame = text.parse().unwrap();
    assert_eq!(back.notation, Notation::Animal);
    assert_eq!(back.game.moves(), record.game.moves());
    assert_eq!(back.to_string(), text);
    // The coordinate export of the same game reads back to the same moves, and both forms mix.
    record.notation = Notation::Coordinates;
    let coordinates: PgnGame = record.to_string().parse().unwrap();
    assert_eq!(coordinates.notation, Notation::Coordinates);
    assert_eq!(coordinates.game.moves(), record.game.moves());
    let mixed: PgnGame = "1. g3g4 Ra7-a6 2. Rg4-g5 *".parse().unwrap();
    assert_eq!(mixed.game.moves().len(), 3);
}

#[test]
fn animal_text_that_does_not_match_the_board_is_an_error() {
    let e = error("1. Ta3-a4 *");
    assert!(
        matches!(&e.kind, PgnErrorKind::Notation { number, source: NotationError::WrongAnimal { .. } } if number == "1."),
        "{e}"
    );
    assert!(
        e.to_string().contains("the animal on a3 is the Elephant"),
        "{e}"
    );
    let e = error("1. Ea3xa4 *");
    assert!(
        matches!(
            &e.kind,
            PgnErrorKind::Notation {
                source: NotationError::CaptureMark { .. },
                ..
            }
        ),
        "{e}"
    );
    let e = error("1. Ea3-a4 Ea7-a6 *");
    assert!(
        matches!(&e.kind, PgnErrorKind::Notation { number, .. } if number == "1..."),
        "{e}"
    );
}

#[test]
fn standard_games_from_the_start_have_no_fen_or_rules_tag() {
    let text = PgnGame::new(game("", None, "a3a4")).to_string();
    assert!(!text.contains("[FEN") && !text.contains("[Rules") && !text.contains("[Termination"));
    assert!(text.contains("[Variant \"Jungle\"]") && text.contains("[Result \"*\"]"));
    assert!(text.ends_with("\n1. a3a4 *\n\n"), "{text}");
    // The Animal Checkers start is the start of its board: a Rules tag but no FEN tag.
    let text = PgnGame::new(game("animal-checkers", None, "")).to_string();
    assert!(text.contains("[Rules \"board=animal-checkers\"]") && !text.contains("[FEN"));
}

#[test]
fn board_endings_write_their_termination_and_result() {
    // A lone Blue Wolf next to Red's den steps in.
    let g = game("", Some("6c/3W3/7/7/7/7/7/7/7 w"), "d8d9");
    let text = PgnGame::new(g).to_string();
    assert!(text.contains("[Result \"1-0\"]") && text.contains("[Termination \"den entered\"]"));
    assert!(text.contains("1. d8d9 1-0"));
    let back: PgnGame = text.parse().unwrap();
    assert_eq!(
        back.game.outcome(),
        Some(Outcome::win(Side::Blue, Termination::DenEntered))
    );

    let drawn = game("repetition-draw=2", None, "a1a2 g9g8 a2a1 g8g9");
    let text = PgnGame::new(drawn).to_string();
    assert!(text.contains("[Termination \"repetition\"]") && text.contains("g8g9 1/2-1/2"));
    let back: PgnGame = text.parse().unwrap();
    assert_eq!(
        back.game.outcome(),
        Some(Outcome::draw(Termination::Repetition))
    );
}

#[test]
fn long_games_wrap_before_80_columns() {
    let mut g = Game::new(Rules::default());
    for _ in 0..12 {
        for m in ["a1a2", "g9g8", "a2a1", "g8g9"] {
            let _ = g.play_text(m);
        }
    }
    let text = PgnGame::new(g).to_string();
    assert!(text.lines().all(|l| l.chars().count() < 80), "{text}");
    assert!(text.trim_end().ends_with("1/2-1/2"));
}

#[test]
fn reader_skips_comments_nags_marks_and_variations() {
    let text = "% an escape line\n\
        [Event \"Club night\"] ; a comment after a tag\n\
        [White \"Ann\"]\n[Black \"Bo\"]\n\n\
        {opening} 1.a3a4!? $1 a7a6 (1... g7g6 {side line} (1... a9a8) 2. g1g2) 2. a4a5\n\
        ; a line comment\n\
        2... a6b6?! {the rat swims} 3.g3g4 *\n";
    let records = read_games(text).unwrap();
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r.tag("Event"), Some("Club night"));
    assert_eq!(r.tag("White"), Some("Ann"));
    let moves: Vec<String> = r.game.moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["a3a4", "a7a6", "a4a5", "a6b6", "g3g4"]);
    assert_eq!(r.game.outcome(), None);
}

#[test]
fn reader_takes_many_games_with_or_without_results() {
    let one = PgnGame::new(game("", None, "a3a4 a7a6")).to_string();
    let mut two = PgnGame::new(game("leiden", None, "g3g4"));
    two.set_tag("Round", "2").unwrap();
    let text = format!("{one}{two}1. a3a4\n\n[Event \"no result token\"]\n1. g1g2");
    let records = read_games(&text).unwrap();
    assert_eq!(records.len(), 4);
    assert_eq!(records[1].game.rules(), &"leiden".parse::<Rules>().unwrap());
    assert_eq!(records[1].tag("Round"), Some("2"));
    assert_eq!(records[2].game.moves().len(), 1);
    assert_eq!(records[3].tag("Event"), Some("no result token"));
    assert!(read_games("").unwrap().is_empty());
    assert_eq!(
        read_games("\u{feff}[Event \"bom\"]\r\n1. a3a4 *\r\n")
            .unwrap()
            .len(),
        1
    );
    assert!(read_games("  \n{only a comment}\n").unwrap().is_empty());
}

#[test]
fn results_without_termination_are_resignations_or_agreed_draws() {
    let r: PgnGame = "[Result \"1-0\"]\n1. a3a4 1-0".parse().unwrap();
    assert_eq!(
        r.game.outcome(),
        Some(Outcome::win(Side::Blue, Termination::Resignation))
    );
    let r: PgnGame = "1. a3a4 a7a6 1/2-1/2".parse().unwrap();
    assert_eq!(
        r.game.outcome(),
        Some(Outcome::draw(Termination::DrawAgreed))
    );
    let r: PgnGame = "[Termination \"abandoned\"] 0-1".parse().unwrap();
    assert_eq!(
        r.game.outcome(),
        Some(Outcome::win(Side::Red, Termination::Abandoned))
    );
}

#[test]
fn errors_say_which_game_line_and_column() {
    let e = error("[Event \"x\"]\n\n1. a3a4 a7a6 2. a4a9 *");
    assert_eq!((e.game, e.line, e.column), (1, 3, 17));
    assert!(
        matches!(&e.kind, PgnErrorKind::IllegalMove { number, .. } if number == "2."),
        "{e}"
    );
    assert!(
        e.to_string()
            .starts_with("pgn: game 1, line 3, column 17: move 2. a4a9: illegal move a4a9"),
        "{e}"
    );

    let e = error("1. a3a4 *\n\n1. a3a4 g9g7 *");
    assert_eq!((e.game, e.line, e.column), (2, 3, 9));
    assert!(matches!(e.kind, PgnErrorKind::IllegalMove { .. }), "{e}");

    let e = error("1. a3a4 zz9 *");
    assert_eq!((e.line, e.column), (1, 9));
    assert!(matches!(e.kind, PgnErrorKind::BadMove(_)), "{e}");

    let e = error("1.a3a4 a7a6 2.h1h2 *");
    assert_eq!(e.column, 15);
    assert!(e.to_string().contains("origin square \"h1\""), "{e}");
}

#[test]
fn bad_tags_and_headers_are_typed_errors() {
    let e = error("[Event x]\n1. a3a4 *");
    assert!(matches!(e.kind, PgnErrorKind::BadTag(_)), "{e}");
    assert_eq!((e.line, e.column), (1, 8));
    assert!(matches!(
        error("[Event \"x]").kind,
        PgnErrorKind::Unterminated("tag value")
    ));
    assert!(matches!(
        error("[Event \"x\"\n1. a3a4").kind,
        PgnErrorKind::BadTag(_)
    ));
    assert!(matches!(error("[ \"x\"]").kind, PgnErrorKind::BadTag(_)));

    let e = error("[Rules \"tiger-swims=true\"]\n1. a3a4 *");
    assert_eq!((e.line, e.column), (1, 8));
    assert!(matches!(e.kind, PgnErrorKind::Rules(_)), "{e}");
    assert!(e.to_string().contains("tiger-swims"), "{e}");

    let e = error("[Event \"?\"]\n[FEN \"7/7 w\"]\n*");
    assert_eq!((e.line, e.column), (2, 6));
    assert!(matches!(e.kind, PgnErrorKind::Fen(_)), "{e}");

    // A FEN valid only under the Rules tag: read in either tag order.
    let dog_in_water = "6t/7/7/7/7/1D5/7/7/7 w";
    assert!(matches!(
        error(&format!("[FEN \"{dog_in_water}\"]\n*")).kind,
        PgnErrorKind::Fen(_)
    ));
    let r: PgnGame = format!("[FEN \"{dog_in_water}\"]\n[Rules \"dog-swims=true\"]\n1. b4b5 *")
        .parse()
        .unwrap();
    assert_eq!(r.game.moves().len(), 1);

    assert!(matches!(
        error("[Variant \"chess\"] *").kind,
        PgnErrorKind::Variant(_)
    ));
    assert!(matches!(
        error("[Result \"2-0\"] *").kind,
        PgnErrorKind::BadResult(_)
    ));
    assert!(matches!(
        error("[Termination \"checkmate\"] 1-0").kind,
        PgnErrorKind::Termination(_)
    ));
}

#[test]
fn structural_errors_are_typed_errors() {
    assert!(matches!(
        error("1. a3a4 {never closed").kind,
        PgnErrorKind::Unterminated("comment")
    ));
    assert!(matches!(
        error("1. a3a4 (a7a6 *").kind,
        PgnErrorKind::Unterminated("variation")
    ));
    assert!(matches!(
        error("1. a3a4 ) *").kind,
        PgnErrorKind::Unexpected(_)
    ));
    assert!(matches!(
        error("1. a3a4 $x *").kind,
        PgnErrorKind::Unexpected(_)
    ));
    assert!(matches!(
        error("1 a3a4 *").kind,
        PgnErrorKind::Unexpected(_)
    ));
    assert!(matches!(
        "".parse::<PgnGame>().unwrap_err().kind,
        PgnErrorKind::GameCount(0)
    ));
    assert!(matches!(
        "* *".parse::<PgnGame>().unwrap_err().kind,
        PgnErrorKind::GameCount(2)
    ));
}

#[test]
fn results_must_agree_with_the_moves() {
    // Blue enters the den but the record says Red won.
    let e = error("[FEN \"6c/3W3/7/7/7/7/7/7/7 w\"]\n1. d8d9 0-1");
    assert!(matches!(e.kind, PgnErrorKind::ResultMismatch { .. }), "{e}");
    let e = error("[FEN \"6c/3W3/7/7/7/7/7/7/7 w\"]\n[Termination \"time forfeit\"]\n1. d8d9 1-0");
    assert!(matches!(e.kind, PgnErrorKind::ResultMismatch { .. }), "{e}");
    let e = error("[Result \"1-0\"]\n1. a3a4 0-1");
    assert!(matches!(e.kind, PgnErrorKind::ResultMismatch { .. }), "{e}");
    // A move after the end of the game.
    let e = error("[FEN \"6c/3W3/7/7/7/7/7/7/7 w\"]\n1. d8d9 g9g8 *");
    assert!(matches!(e.kind, PgnErrorKind::AfterEnd { .. }), "{e}");
    assert_eq!(e.column, 9);
    let e = error("[Rules \"repetition-draw=2\"]\n1. a1a2 g9g8 2. a2a1 g8g9 3. a1a2 *");
    assert!(matches!(e.kind, PgnErrorKind::AfterEnd { .. }), "{e}");
}

#[test]
fn set_tag_refuses_derived_and_malformed_names() {
    let mut record = PgnGame::new(Game::new(Rules::default()));
    for name in DERIVED_TAGS {
        assert_eq!(
            record.set_tag(name, "x"),
            Err(TagError::Derived(name.into()))
        );
    }
    assert!(matches!(
        record.set_tag("Bad Name", "x"),
        Err(TagError::BadName(_))
    ));
    assert!(matches!(record.set_tag("", "x"), Err(TagError::BadName(_))));
    record.set_tag("Event", "a").unwrap();
    record.set_tag("Event", "b").unwrap();
    assert_eq!(record.tags(), &[("Event".to_string(), "b".to_string())]);
    assert_eq!(record.remove_tag("Event").as_deref(), Some("b"));
    // Control characters in a value cannot break the one-line tag.
    record.set_tag("Site", "two\nlines").unwrap();
    let back: PgnGame = record.to_string().parse().unwrap();
    assert_eq!(back.tag("Site"), Some("two lines"));
}

/// Endings declared off the board (the rules' own endings come from the moves).
const DECLARED: [Termination; 6] = [
    Termination::Resignation,
    Termination::TimeForfeit,
    Termination::DrawAgreed,
    Termination::Adjudication,
    Termination::IllegalMove,
    Termination::Abandoned,
];

/// A random game: a random option set, a start (the rules' start or a random reachable position), random
/// moves, random tags and perhaps a declared ending.
fn random_record(
    set: usize,
    start_choices: &[u32],
    choices: &[u32],
    tags: &[(String, String)],
    ending: Option<(u8, usize)>,
) -> PgnGame {
    let rules = common::rules(common::OPTION_SETS[set]);
    let start = *common::playout(&rules, start_choices, 60).last().unwrap();
    let mut game = Game::from_position(rules, start);
    for &choice in choices {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[choice as usize % moves.len()]).unwrap();
    }
    if let Some((winner, termination)) = ending {
        let winner = [Some(Side::Blue), Some(Side::Red), None][winner as usize % 3];
        game.declare(Outcome {
            winner,
            termination: DECLARED[termination % DECLARED.len()],
        });
    }
    let mut record = PgnGame::new(game);
    for (name, value) in tags {
        record.set_tag(name, value).unwrap();
    }
    record
}

fn tags() -> impl Strategy<Value = Vec<(String, String)>> {
    let name = prop_oneof![
        Just("Event".to_string()),
        Just("Site".to_string()),
        Just("Date".to_string()),
        Just("Round".to_string()),
        Just("White".to_string()),
        Just("Black".to_string()),
        "[A-Z][A-Za-z0-9_]{0,12}"
            .prop_filter("not derived", |n| !DERIVED_TAGS.contains(&n.as_str())),
    ];
    prop::collection::vec((name, "[^\\p{Cc}]{0,20}"), 0..6)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_games_round_trip(
        set in 0..common::OPTION_SETS.len(),
        start_choices in prop::collection::vec(any::<u32>(), 0..40),
        choices in prop::collection::vec(any::<u32>(), 0..250),
        tags in tags(),
        ending in prop::option::of((any::<u8>(), any::<usize>())),
        animal in any::<bool>(),
    ) {
        let mut record = random_record(set, &start_choices, &choices, &tags, ending);
        if animal {
            record.notation = Notation::Animal;
        }
        let text = record.to_string();
        let back: PgnGame = text.parse().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back.game.rules(), record.game.rules());
        prop_assert_eq!(back.game.start_position(), record.game.start_position());
        prop_assert_eq!(back.game.moves(), record.game.moves());
        prop_assert_eq!(back.game.outcome(), record.game.outcome());
        for (name, value) in record.tags() {
            prop_assert_eq!(back.tag(name), Some(value.as_str()));
        }
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn concatenated_records_read_back_in_order(
        sets in prop::collection::vec(0..common::OPTION_SETS.len(), 1..5),
        choices in prop::collection::vec(any::<u32>(), 0..60),
    ) {
        let records: Vec<PgnGame> = sets
            .iter()
            .enumerate()
            .map(|(i, &set)| random_record(set, &[], &choices[..choices.len().min(i * 15)], &[], None))
            .collect();
        let text: String = records.iter().map(ToString::to_string).collect();
        let back = read_games(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back.len(), records.len());
        for (a, b) in back.iter().zip(&records) {
            prop_assert_eq!(a.game.moves(), b.game.moves());
            prop_assert_eq!(a.game.rules(), b.game.rules());
        }
    }

    #[test]
    fn damaged_records_never_panic(
        set in 0..common::OPTION_SETS.len(),
        choices in prop::collection::vec(any::<u32>(), 0..40),
        cut in any::<prop::sample::Index>(),
        insert in "[\\[\\]{}()\";$%*. a-h0-9\\n]{0,3}",
        delete in 0usize..4,
    ) {
        let text = random_record(set, &[], &choices, &[], None).to_string();
        let chars: Vec<char> = text.chars().collect();
        let at = cut.index(chars.len());
        let end = (at + delete).min(chars.len());
        let damaged: String = chars[..at].iter().chain(insert.chars().collect::<Vec<_>>().iter()).chain(&chars[end..]).collect();
        if let Ok(games) = read_games(&damaged) {
            // Whatever reads must write and read back to the same games.
            let again: String = games.iter().map(ToString::to_string).collect();
            let back = read_games(&again).map_err(|e| TestCaseError::fail(format!("{e}\n{again}")))?;
            prop_assert_eq!(back.len(), games.len());
        }
    }
}

#[test]
fn comments_are_written_where_they_were_added_and_skipped_on_reading() {
    let mut game = Game::new(Rules::default());
    for m in ["a3a4", "g7g6", "a4a5"] {
        game.play_text(m).unwrap();
    }
    let mut record = PgnGame::new(game);
    record.add_comment(0, "opening: none");
    record.add_comment(1, "book");
    record.add_comment(2, "-0.35/7 1.234s");
    record.add_comment(2, "second {nested} one");
    record.add_comment(9, "Red to move when the game stopped");
    let text = record.to_string();
    let movetext: String = text
        .lines()
        .skip_while(|l| l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        movetext.trim(),
        "{opening: none} 1. a3a4 {book} g7g6 {-0.35/7 1.234s} {second {nested) one} 2. a4a5 \
         {Red to move when the game stopped} *"
    );
    let back: PgnGame = text.parse().unwrap();
    assert_eq!(back.game.moves(), record.game.moves());
    assert!(back.comments().is_empty(), "reading skips comments");

    // Long comments wrap the movetext between tokens, never inside one.
    let mut game = Game::new(Rules::default());
    game.play_text("a3a4").unwrap();
    let mut record = PgnGame::new(game);
    for _ in 0..4 {
        record.add_comment(1, &"x".repeat(30));
    }
    let text = record.to_string();
    for line in text.lines() {
        assert!(line.len() < 80, "{line:?}");
    }
    let comment = format!("{{{}}}", "x".repeat(30));
    let expected = format!("\n1. a3a4 {comment} {comment}\n{comment} {comment} *\n");
    assert!(text.contains(&expected), "{text}");
}
