//! The rules of Hidden Jungle, case by case: attacks won and lost, what is revealed and when, legality, errors,
//! views and records.

use jungle_hidden::record::Record;
use jungle_hidden::{
    Arrangement, Effect, HiddenGame, HiddenMoveError, PublicMove, PublicMoveText, View,
};
use jungle_rules::{Animal, Move, Rules, Side, Square};

/// A game under standard rules from setups given as letters (Blue: a1 g1 b2 f2 a3 c3 e3 g3; Red: a7 c7 e7 g7
/// b8 f8 a9 g9).
fn game(blue: &str, red: &str) -> HiddenGame {
    let rules = Rules::default();
    let blue = Arrangement::parse(&rules, Side::Blue, blue).unwrap();
    let red = Arrangement::parse(&rules, Side::Red, red).unwrap();
    HiddenGame::new(rules, blue, red).unwrap()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// Plays the moves, returning the public record of the last.
fn play(game: &mut HiddenGame, moves: &str) -> PublicMove {
    let mut last = None;
    for m in moves.split_whitespace() {
        last = Some(game.play(mv(m)).unwrap_or_else(|e| panic!("{m}: {e}")));
    }
    last.expect("at least one move")
}

/// Blue's piece on a3 walks up the a-file to attack Red's piece on a7 (Red shuffles its b8 piece meanwhile).
const MARCH_AND_ATTACK: &str = "a3a4 b8b9 a4a5 b9b8 a5a6 b8b9 a6a7";

#[test]
fn an_attacker_that_may_not_capture_is_captured_and_both_are_revealed() {
    // Blue's Cat on a3 against Red's Lion on a7.
    let mut g = game("TLEDCWPR", "LPWEDCRT");
    play(&mut g, "a3a4 b8b9 a4a5 b9b8 a5a6 b8b9");
    assert!(
        g.legal_moves().contains(mv("a6a7")),
        "an attack on a stronger piece is legal"
    );
    let public = play(&mut g, "a6a7");
    assert_eq!(public.mover, Some(Animal::Cat));
    assert_eq!(public.effect, Effect::Repelled(Animal::Lion));
    assert_eq!(public.to_string(), "a6a7=C/L");
    let red_view = g.view(Some(Side::Red));
    assert_eq!(red_view.piece_at(Square::A6), None, "the Cat is gone");
    let blue_view = g.view(Some(Side::Blue));
    assert_eq!(
        blue_view.piece_at(Square::A7).unwrap().animal,
        Some(Animal::Lion)
    );
    assert_eq!(
        blue_view.quiet_plies(),
        0,
        "a lost attack is a capture for the counters"
    );
    assert_eq!(blue_view.side_to_move(), Side::Red);
    assert!(!blue_view.unknown_animals(Side::Red).contains(&Animal::Lion));
    assert!(!red_view.unknown_animals(Side::Blue).contains(&Animal::Cat));
}

#[test]
fn an_attacker_that_may_capture_does() {
    // Blue's Lion on a3 against Red's Cat on a7.
    let mut g = game("TECDLWPR", "CPWEDLRT");
    let public = play(&mut g, MARCH_AND_ATTACK);
    assert_eq!(public.to_string(), "a6a7=LxC");
    let red_view = g.view(Some(Side::Red));
    let lion = red_view.piece_at(Square::A7).unwrap();
    assert_eq!(
        (lion.side, lion.animal, lion.origin),
        (Side::Blue, Some(Animal::Lion), Square::A3)
    );
}

#[test]
fn the_ordinary_capture_rules_decide_an_attack() {
    // Standard setups: Blue's Elephant (a3) meets Red's Rat (a7); by default an Elephant captures a Rat.
    let mut g = game("TLCDEWPR", "RPWEDCLT");
    assert_eq!(play(&mut g, MARCH_AND_ATTACK).to_string(), "a6a7=ExR");
    // Under elephant-captures-rat=false the same attack costs the Elephant.
    let rules: Rules = "elephant-captures-rat=false".parse().unwrap();
    let mut g = HiddenGame::new(
        rules.clone(),
        Arrangement::standard(&rules, Side::Blue),
        Arrangement::standard(&rules, Side::Red),
    )
    .unwrap();
    assert_eq!(play(&mut g, MARCH_AND_ATTACK).to_string(), "a6a7=E/R");
}

#[test]
fn quiet_steps_reveal_nothing_but_water_and_jumps_reveal_the_mover() {
    // Blue's Rat on c3, Lion on a3.
    let mut g = game("TECDLRPW", "RPWEDCLT");
    let step = play(&mut g, "a3a4");
    assert_eq!((step.mover, step.effect), (None, Effect::Quiet));
    assert_eq!(
        g.view(Some(Side::Red)).piece_at(Square::A4).unwrap().animal,
        None
    );
    assert_eq!(
        play(&mut g, "b8b9 a4d4").to_string(),
        "a4d4=L",
        "the Lion jumps"
    );
    assert_eq!(
        play(&mut g, "b9b8 c3c4").to_string(),
        "c3c4=R",
        "the Rat enters water"
    );
    // Once revealed, a piece's later moves name it.
    assert_eq!(play(&mut g, "b8b9 d4d5").to_string(), "d4d5=L");
    let red_view = g.view(Some(Side::Red));
    assert_eq!(
        red_view.fen(),
        "ld4t/5c1/r1p1w1e/7/3L3/2R4/4X1X/1X3X1/X5X b 7 4"
    );
}

#[test]
fn illegal_moves_get_reasons_that_name_no_enemy_animal() {
    let mut g = game("TLCDEWPR", "RPWEDCLT");
    assert_eq!(
        g.play(mv("d5d6")),
        Err(HiddenMoveError::NoPiece(Square::D5))
    );
    assert_eq!(
        g.play(mv("a7a6")),
        Err(HiddenMoveError::NotYourPiece(Square::A7))
    );
    let Err(HiddenMoveError::Illegal(error)) = g.play(mv("a1a3")) else {
        panic!("a1a3 should be illegal");
    };
    assert!(error.to_string().contains("a1a3"), "{error}");
    assert!(g.history().is_empty(), "errors leave the game unchanged");
    // No move into water for a non-swimmer: the Elephant on a3 to b3 is land, but b2's Cat to b4 is not a step.
    assert!(matches!(
        g.play(mv("b2b4")),
        Err(HiddenMoveError::Illegal(_))
    ));
}

#[test]
fn a_side_with_only_attacks_left_still_has_legal_moves() {
    // At the start the open game and the hidden game agree (no contact yet): 24 moves for Blue.
    let g = game("TLCDEWPR", "RPWEDCLT");
    assert_eq!(g.legal_moves().len(), 24);
    assert_eq!(
        g.view(Some(Side::Blue)).legal_moves().as_slice(),
        g.legal_moves().as_slice()
    );
    assert!(
        g.view(Some(Side::Red)).legal_moves().is_empty(),
        "not Red's move"
    );
    assert!(
        g.view(None).legal_moves().is_empty(),
        "spectators have no moves"
    );
}

#[test]
fn the_end_of_the_game_shows_every_animal() {
    let mut g = game("TECDLWPR", "RPWEDCLT");
    play(&mut g, "a3a4 a7b7 a4a5 b8b9");
    let spectator = g.view(None);
    assert!(
        spectator.pieces().any(|(_, s)| s.animal.is_none()),
        "mid-game spectators see unknown pieces"
    );
    g.declare(jungle_rules::Outcome::win(
        Side::Blue,
        jungle_rules::Termination::Resignation,
    ));
    let after = g.view(None);
    assert!(
        after.pieces().all(|(_, s)| s.animal.is_some()),
        "after the end everything is shown"
    );
    assert!(g.play(mv("g3g4")).is_err());
}

#[test]
fn records_reveal_setups_only_after_the_end_and_replay_from_both_views() {
    let mut g = game("TECDLWPR", "CPWEDLRT");
    play(&mut g, MARCH_AND_ATTACK);
    let tags = vec![("White".to_string(), "Ann \"A\"".to_string())];
    let spectator = Record::of(&g, None, &tags).to_pgn();
    assert!(!spectator.contains("Setup"), "{spectator}");
    let blue = Record::of(&g, Some(Side::Blue), &tags).to_pgn();
    assert!(
        blue.contains("[BlueSetup \"TECDLWPR\"]") && !blue.contains("RedSetup"),
        "{blue}"
    );
    assert!(blue.contains("4. a6a7=LxC *"), "{blue}");
    let read = Record::parse(&blue).unwrap();
    assert_eq!(
        read.view(Some(Side::Blue)).unwrap(),
        g.view(Some(Side::Blue))
    );
    assert_eq!(read.view(None).unwrap(), g.view(None));
    assert_eq!(read.tags, tags);

    g.declare(jungle_rules::Outcome::win(
        Side::Red,
        jungle_rules::Termination::Resignation,
    ));
    let full = Record::of(&g, None, &[]).to_pgn();
    assert!(
        full.contains("[BlueSetup \"TECDLWPR\"]") && full.contains("[RedSetup \"CPWEDLRT\"]"),
        "{full}"
    );
    let read = Record::parse(&full).unwrap();
    let replayed = read.game().unwrap();
    assert_eq!(replayed.history(), g.history());
    assert_eq!(replayed.view(Some(Side::Red)), g.view(Some(Side::Red)));
    assert_eq!(read.view(None).unwrap(), g.view(None));
}

#[test]
fn records_that_contradict_themselves_are_refused() {
    let mut g = game("TECDLWPR", "CPWEDLRT");
    play(&mut g, MARCH_AND_ATTACK);
    g.declare(jungle_rules::Outcome::win(
        Side::Red,
        jungle_rules::Termination::Resignation,
    ));
    let text = Record::of(&g, None, &[]).to_pgn();
    // The capture claimed the other way round, a wrong setup, a hidden attacker, a bad variant.
    for (from, to) in [
        ("a6a7=LxC", "a6a7=L/C"),
        ("[RedSetup \"CPWEDLRT\"]", "[RedSetup \"DPWECLRT\"]"),
        ("a6a7=LxC", "a6a7xC"),
        ("Hidden Jungle", "Jungle"),
    ] {
        let bad = text.replace(from, to);
        let refused = Record::parse(&bad).and_then(|r| r.game().map(|_| ()));
        assert!(refused.is_err(), "{to}");
    }
}

#[test]
fn a_public_move_must_name_its_mover_exactly_when_both_players_know_it() {
    // Blue's view of a game fed move by move, as the engine protocol feeds it (View::apply): Blue's Lion on
    // a3, Red's Tiger on a9.
    let rules = Rules::default();
    let blue = Arrangement::parse(&rules, Side::Blue, "TECDLWPR").unwrap();
    let start = View::start(&rules, Some(Side::Blue), Some(&blue)).unwrap();
    let text = |moves: &str, last: &str| {
        let mut view = start.clone();
        let mut side = Side::Blue;
        let all = format!("{moves} {last}");
        let mut result = Ok(());
        for token in all.split_whitespace() {
            let public = token.parse::<PublicMoveText>().unwrap().by(side);
            result = view.apply(&public).map_err(|e| e.to_string());
            if result.is_err() {
                break;
            }
            side = !side;
        }
        (view, result)
    };
    // A quiet step of a piece never revealed reveals nothing: naming its animal does not fit.
    let (view, refused) = text("a3a4", "a7a6=E");
    let error = refused.unwrap_err();
    assert!(error.contains("nothing reveals it"), "{error}");
    assert_eq!(view.history().len(), 1, "the view is unchanged");
    assert_eq!(text("a3a4", "a7a6").1, Ok(()));
    // A jump reveals the mover; its later steps name it, and leaving the name out does not fit.
    assert_eq!(text("a3a4", "a7a6 a4d4=L b8b9 d4d5=L").1, Ok(()));
    let error = text("a3a4 a7a6 a4d4=L b8b9", "d4d5").1.unwrap_err();
    assert!(error.contains("was revealed before"), "{error}");
    // A jump without its reveal, and a wrong animal for a known piece (with the right article).
    assert!(
        text("a3a4 a7a6", "a4d4")
            .1
            .unwrap_err()
            .contains("reveals the mover")
    );
    let error = text("a3a4 a7a6 a4d4=L b8b9", "d4d5=E").1.unwrap_err();
    assert!(
        error.contains("known to be the Lion, the move says the Elephant"),
        "{error}"
    );
}

#[test]
fn records_keep_their_comments() {
    let mut g = game("TECDLWPR", "CPWEDLRT");
    play(&mut g, MARCH_AND_ATTACK);
    g.declare(jungle_rules::Outcome::win(
        Side::Red,
        jungle_rules::Termination::Resignation,
    ));
    let mut record = Record::of(&g, None, &[]);
    record.add_comment(0, "opening note");
    record.add_comment(1, "? /3 0.020s");
    record.add_comment(7, "Blue resigns {really}");
    let text = record.to_pgn();
    assert!(
        text.contains("{opening note} 1. a3a4 {? /3 0.020s} b8b9"),
        "{text}"
    );
    assert!(
        text.contains("a6a7=LxC {Blue resigns {really)} 0-1"),
        "{text}"
    );
    let read = Record::parse(&text).unwrap();
    assert_eq!(read.comments, record.comments);
    assert_eq!(read.moves, record.moves);
    assert!(Record::parse(&text.replace("{opening note}", "{opening note")).is_err());
}
