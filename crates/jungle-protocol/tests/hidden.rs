//! The Hidden Jungle protocol extension: an engine session that gets its own setup and the public moves, and a
//! position line that never carries the other side's animals.

use jungle_hidden::ai::{Budget, HiddenAi};
use jungle_hidden::twins::Twins;
use jungle_hidden::{Arrangement, HiddenGame};
use jungle_protocol::{HiddenSession, game_seed, position_line};
use jungle_rules::{Move, Rules, Side};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn session(input: &str) -> String {
    let out = HiddenSession::new(input.as_bytes(), Vec::new())
        .run()
        .unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn an_engine_answers_setup_and_go_with_a_legal_choice() {
    let out = session(
        "uci\nisready\nsetoption name Skill Level value 2\nhidden setup red rules modern\nquit\n",
    );
    assert!(
        out.contains("id name") && out.contains("uciok") && out.contains("readyok"),
        "{out}"
    );
    let setup = out.lines().find_map(|l| l.strip_prefix("setup ")).unwrap();
    let rules: Rules = "modern".parse().unwrap();
    Arrangement::parse(&rules, Side::Red, setup).unwrap();

    let rules = Rules::default();
    let mut game = HiddenGame::new(
        rules.clone(),
        Arrangement::standard(&rules, Side::Blue),
        Arrangement::parse(&rules, Side::Red, "LPWEDCRT").unwrap(),
    )
    .unwrap();
    for m in ["a3a4", "b8b9", "a4a5"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    let view = game.view(Some(Side::Red));
    let line = position_line(&view, game.arrangement(Side::Red));
    assert_eq!(
        line,
        "hidden position red setup LPWEDCRT moves a3a4 b8b9 a4a5"
    );
    let out = session(&format!(
        "setoption name Skill Level value 1\n{line}\ngo movetime 50\n"
    ));
    let best: Move = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(view.legal_moves().contains(best), "{out}");
}

#[test]
fn go_nodes_bounds_the_work_so_the_answer_is_reproducible() {
    let input =
        "setoption name Seed value 5\nhidden position blue setup TLCDEWPR moves\ngo nodes 4000\n";
    let out = session(input);
    let info = out.lines().find(|l| l.starts_with("info depth")).unwrap();
    let nodes: u64 = info
        .split_whitespace()
        .skip_while(|&w| w != "nodes")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    // The engine checks its node count every 1,024 nodes, once per world.
    assert!((1..=4000 + 3 * 1024).contains(&nodes), "{out}");
    assert!(out.contains("bestmove "), "{out}");
    // The same work on the same view and seed: the same answer, however busy the machine is.
    assert_eq!(session(input), out);
}

#[test]
fn low_levels_search_every_move_one_ply_even_on_a_small_budget() {
    // 2,000 nodes are spent before level 5's worlds have all been searched one ply deep: the answer must still
    // come from the search (depth 1 at least), not be the first legal move (a1b1) unsearched.
    let out = session(
        "setoption name Seed value 1\nsetoption name Skill Level value 5\nhidden position blue setup RTWLPECD moves f2e2 g7f7 e3d3 e7d7 e2e3 a9b9\ngo nodes 2000\n",
    );
    let info = out.lines().find(|l| l.starts_with("info depth")).unwrap();
    let number = |key: &str| -> u64 {
        info.split_whitespace()
            .skip_while(|&w| w != key)
            .nth(1)
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(number("depth") >= 1 && number("nodes") > 0, "{out}");
}

#[test]
fn setups_are_drawn_afresh_each_run_unless_a_seed_is_given() {
    let setup_of = |input: &str| {
        let out = session(input);
        out.lines()
            .find_map(|l| l.strip_prefix("setup "))
            .unwrap_or_else(|| panic!("{out}"))
            .to_string()
    };
    // Unseeded, from the operating system: six runs drawing the same setup would be a chance of about 2^-40
    // (the likeliest setup comes up in 3 % of the draws).
    let unseeded: std::collections::HashSet<String> =
        (0..6).map(|_| setup_of("hidden setup blue\n")).collect();
    assert!(unseeded.len() > 1, "{unseeded:?}");
    // Seeded: every run the same, each game of a session its own, another seed another sequence.
    let games = |seed: &str| {
        let input = format!(
            "setoption name Seed value {seed}\nhidden setup blue\nucinewgame\nhidden setup blue\nucinewgame\nhidden setup blue\n"
        );
        let out = session(&input);
        out.lines()
            .filter_map(|l| l.strip_prefix("setup "))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let seeded = games("42");
    assert_eq!(seeded.len(), 3);
    assert_eq!(games("42"), seeded);
    assert_ne!(games("43"), seeded);
    assert!(
        seeded[0] != seeded[1] || seeded[1] != seeded[2],
        "{seeded:?}"
    );
    // Back to the operating system's randomness.
    let random: std::collections::HashSet<String> = (0..6)
        .map(|_| setup_of("setoption name Seed value 42\nsetoption name Seed value random\nhidden setup blue\n"))
        .collect();
    assert!(random.len() > 1, "{random:?}");
    assert!(session("setoption name Seed value -1\n").starts_with("info string error: Seed"));
}

#[test]
fn lines_that_cannot_be_obeyed_get_an_error_and_change_nothing() {
    for bad in [
        "hidden setup green",
        "hidden setup blue rules nonsense=1",
        "hidden position blue",
        "hidden position blue setup TLCDEWPRR",
        "hidden position blue setup TLCDEWPR moves a3a4 a3a4",
        "hidden position blue setup TLCDEWPR moves a3a4 a7a6=C/L",
        // A quiet step of a piece never revealed reveals nothing: naming it does not fit.
        "hidden position blue setup TLCDEWPR moves a3a4 a7a6=E",
        "hidden position blue setup TLCDEWPR moves zz",
        "hidden frobnicate",
        "go movetime 10",
        "position startpos",
        "setoption name Hash value 1",
        "setoption name Skill Level value 99",
        "gibberish",
    ] {
        let out = session(&format!("{bad}\n"));
        assert!(out.starts_with("info string error:"), "{bad}: {out}");
        assert!(!out.contains("bestmove"), "{bad}: {out}");
    }
    // Not the engine's move: Blue is to move at the start, the engine plays Red.
    let out = session("hidden position red setup RPWEDCLT\ngo movetime 10\n");
    assert!(out.contains("info string error: go: it is not"), "{out}");
    // An overlong line is refused, and the session goes on.
    let long = format!(
        "hidden position blue setup TLCDEWPR moves {}\nisready\n",
        "a3a4 ".repeat(jungle_protocol::MAX_LINE_BYTES / 5 + 1)
    );
    let out = session(&long);
    assert!(
        out.contains("longer than") && out.contains("readyok"),
        "{out}"
    );
}

#[test]
fn the_position_line_of_a_seat_does_not_depend_on_the_other_sides_secret() {
    let rules = Rules::default();
    let mut rng = StdRng::seed_from_u64(17);
    for _ in 0..30 {
        let mut twins = Twins::random(&rules, &mut rng);
        for _ in 0..120 {
            let games = &twins.games;
            if games.iter().any(HiddenGame::is_over) || games[0].history() != games[1].history() {
                break;
            }
            let lines: Vec<String> = games
                .iter()
                .map(|g| position_line(&g.view(Some(Side::Blue)), g.arrangement(Side::Blue)))
                .collect();
            assert_eq!(lines[0], lines[1]);
            let Some(m) = twins.shared_move(&mut rng) else {
                break;
            };
            for g in &mut twins.games {
                g.play(m).unwrap();
            }
        }
    }
}

#[test]
fn one_game_is_played_by_one_ai_kept_from_move_to_move() {
    // What the session must answer: one HiddenAi, with the seed of the session's first game, asked at each of
    // Blue's turns (it keeps its guessed world between them). A session that made a new AI for every `go` would
    // guess afresh each move and drift from these answers.
    let rules = Rules::default();
    let mut game = HiddenGame::new(
        rules.clone(),
        Arrangement::parse(&rules, Side::Blue, "TLCDEWPR").unwrap(),
        Arrangement::parse(&rules, Side::Red, "LPWEDCRT").unwrap(),
    )
    .unwrap();
    let budget = Budget {
        time: None,
        nodes: Some(3000),
    };
    let mut kept = HiddenAi::new(8, game_seed(9, 0));
    let mut script = "setoption name Seed value 9\n".to_string();
    let mut expected = Vec::new();
    for _ in 0..6 {
        let blue = game.view(Some(Side::Blue));
        let Some(best) = kept.choose_within(&blue, budget) else {
            break;
        };
        script += &position_line(&blue, game.arrangement(Side::Blue));
        script += "\ngo nodes 3000\n";
        expected.push(best.to_string());
        game.play(best).unwrap();
        let Some(reply) = game.legal_moves().as_slice().first().copied() else {
            break;
        };
        game.play(reply).unwrap();
    }
    let out = session(&script);
    let answers: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(answers, expected, "{out}");
}
