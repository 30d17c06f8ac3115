//! The AI plays from its view only, reads behaviour into its belief, and beats random play.

use jungle_hidden::ai::setup::SetupTable;
use jungle_hidden::ai::{
    Assignment, Belief, Budget, HiddenAi, OneWorld, QuietStretch, sample_world_keeping,
};
use jungle_hidden::{Arrangement, HiddenGame};
use jungle_rules::{Animal, Rules, Side, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn game(blue: &str, red: &str) -> HiddenGame {
    let rules = Rules::default();
    HiddenGame::new(
        rules.clone(),
        Arrangement::parse(&rules, Side::Blue, blue).unwrap(),
        Arrangement::parse(&rules, Side::Red, red).unwrap(),
    )
    .unwrap()
}

fn play(game: &mut HiddenGame, moves: &str) {
    for m in moves.split_whitespace() {
        game.play(m.parse().unwrap())
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

#[test]
fn the_choice_does_not_change_when_only_hidden_information_does() {
    // Blue's view is the same in both games (Red's setups differ, nothing of Red has been revealed).
    let mut a = game("TECDLWPR", "RPWEDCLT");
    let mut b = game("TECDLWPR", "LTWEDCRP");
    for g in [&mut a, &mut b] {
        play(g, "a3a4 b8b9 a4a5 b9b8 g3g4 g9g8");
    }
    assert_eq!(a.view(Some(Side::Blue)), b.view(Some(Side::Blue)));
    for level in [3, 6, 7] {
        let choice_a = HiddenAi::new(level, 11).choose(&a.view(Some(Side::Blue)), None);
        let choice_b = HiddenAi::new(level, 11).choose(&b.view(Some(Side::Blue)), None);
        assert!(choice_a.is_some());
        assert_eq!(choice_a, choice_b, "level {level}");
    }
}

#[test]
fn the_choices_of_an_ai_kept_over_moves_do_not_change_when_only_hidden_information_does() {
    // The top levels keep last move's world: what they keep must come from the views alone too.
    let mut a = game("TECDLWPR", "RPWEDCLT");
    let mut b = game("TECDLWPR", "LTWEDCRP");
    let mut ai_a = HiddenAi::new(8, 5);
    let mut ai_b = HiddenAi::new(8, 5);
    for moves in ["a3a4 b8b9", "a4a5 b9b8", "g3g4 g9g8"] {
        choose_alike(&mut a, &mut b, &mut ai_a, &mut ai_b, moves);
    }
}

/// Plays `moves` in both games, whose Blue views must then agree, and has each AI (kept from earlier choices)
/// choose in its own game's view: the choices must agree.
fn choose_alike(
    a: &mut HiddenGame,
    b: &mut HiddenGame,
    ai_a: &mut HiddenAi,
    ai_b: &mut HiddenAi,
    moves: &str,
) {
    for g in [&mut *a, &mut *b] {
        play(g, moves);
    }
    let view = a.view(Some(Side::Blue));
    assert_eq!(view, b.view(Some(Side::Blue)));
    let choice_a = ai_a.choose_within(&view, Budget::nodes(20_000));
    let choice_b = ai_b.choose_within(&b.view(Some(Side::Blue)), Budget::nodes(20_000));
    assert!(choice_a.is_some());
    assert_eq!(choice_a, choice_b, "after {moves}");
}

fn sorted(mut assignment: Assignment) -> Assignment {
    assignment.sort_unstable();
    assignment
}

/// Blue's world after `moves` are played on from `game`, keeping the animals of `first` where it can, with the
/// assignment it made.
fn kept_after(
    game: &HiddenGame,
    moves: &str,
    first: &Assignment,
    seed: u64,
) -> (jungle_rules::Position, Assignment, jungle_hidden::View) {
    let mut later = game.clone();
    play(&mut later, moves);
    let view = later.view(Some(Side::Blue));
    let belief = Belief::of(&view, Side::Red, true);
    let (world, kept) =
        sample_world_keeping(&view, &belief, first, &mut StdRng::seed_from_u64(seed)).unwrap();
    (world, kept, view)
}

#[test]
fn a_kept_world_changes_only_where_the_game_contradicts_it() {
    // Red: a7 Rat, c7 Leopard, e7 Wolf, g7 Elephant, b8 Dog, f8 Cat, a9 Lion, g9 Tiger; Blue knows none of them.
    let mut g = game("TECDLWPR", "RPWEDCLT");
    play(&mut g, "g3g4 a7a6");
    let view = g.view(Some(Side::Blue));
    let belief = Belief::of(&view, Side::Red, true);
    for seed in 0..20 {
        let (_, first) =
            sample_world_keeping(&view, &belief, &[], &mut StdRng::seed_from_u64(seed)).unwrap();
        assert_eq!(first.len(), 8);
        // Quiet moves contradict nothing: the same animals, whatever the random draws.
        let (world, kept, later) = kept_after(&g, "g4g5 b8b9", &first, seed + 100);
        assert_eq!(sorted(kept.clone()), sorted(first.clone()));
        for (origin, animal) in &kept {
            let (square, _) = later.pieces().find(|(_, s)| s.origin == *origin).unwrap();
            assert_eq!(world.piece_at(square).unwrap().animal, *animal);
        }
        // The piece from a7 swims (b6 is water): it is the Rat. The piece the world made the Rat takes the
        // animal the world had given the a7 piece; every other piece keeps its animal.
        let (_, kept, _) = kept_after(&g, "g4g5 a6b6", &first, seed + 200);
        let a7_animal = first.iter().find(|(o, _)| *o == Square::A7).unwrap().1;
        let swapped = |animal| {
            if animal == Animal::Rat {
                a7_animal
            } else {
                animal
            }
        };
        let expected: Assignment = first
            .iter()
            .filter(|(origin, _)| *origin != Square::A7)
            .map(|&(origin, animal)| (origin, swapped(animal)))
            .collect();
        assert_eq!(sorted(kept), sorted(expected), "seed {seed}");
    }
}

#[test]
fn a_node_budget_bounds_the_work_of_every_level_and_repeats_its_choice() {
    let mut g = game("TECDLWPR", "RPWEDCLT");
    play(&mut g, "a3a4 b8b9 a4a5 b9b8");
    let view = g.view(Some(Side::Blue));
    for level in [2, 5, 8] {
        let mut ai = HiddenAi::new(level, 7);
        let first = ai.choose_within(&view, Budget::nodes(6_000));
        let report = ai.report().clone();
        // Each engine search checks its count every 1,024 nodes and completes depth 1 whatever the budget.
        assert!(
            report.nodes > 0 && report.nodes <= 6_000 + 4 * 1024,
            "level {level}: {report:?}"
        );
        let again = HiddenAi::new(level, 7).choose_within(&view, Budget::nodes(6_000));
        assert_eq!(first, again, "level {level}");
        assert!(view.legal_moves().contains(first.unwrap()));
    }
    let m = OneWorld::new(3).choose_within(&view, Budget::nodes(3_000));
    assert!(view.legal_moves().contains(m.unwrap()));
}

#[test]
fn levels_one_to_six_search_every_move_at_least_one_ply_however_small_the_budget() {
    // A budget spent before the first depth is done must not leave the choice to the order of the legal moves.
    let mut g = game("RTWLPECD", "RPWEDCLT");
    play(&mut g, "f2e2 g7f7 e3d3 e7d7 e2e3 a9b9");
    let view = g.view(Some(Side::Blue));
    let legal = view.legal_moves();
    for level in 1..=6 {
        for nodes in [1, 2_000] {
            let mut ai = HiddenAi::new(level, 3);
            let chosen = ai.choose_within(&view, Budget::nodes(nodes)).unwrap();
            let report = ai.report();
            assert!(
                report.depth >= 1 && report.nodes > 0,
                "level {level}: {report:?}"
            );
            if nodes == 1 {
                assert_eq!(report.scores.len(), legal.len(), "level {level}");
            }
            assert!(report.scores.iter().any(|&(m, _)| m == chosen));
        }
    }
}

#[test]
fn a_world_is_searched_with_the_quiet_moves_that_led_to_it() {
    // Red shuffles back and forth: a world's search must see those positions to know a repetition is near.
    let mut g = game("TECDLWPR", "RPWEDCLT");
    play(&mut g, "a3a4 a7a6 a4a3 a6a7 g3g4");
    let view = g.view(Some(Side::Red));
    let belief = Belief::of(&view, Side::Blue, true);
    let mut rng = StdRng::seed_from_u64(9);
    let stretch = QuietStretch::of(&view);
    for _ in 0..10 {
        let world = jungle_hidden::ai::sample_world(&view, &belief, &mut rng).unwrap();
        let replayed = stretch.game(&view, &world);
        assert_eq!(replayed.position(), &world);
        assert_eq!(replayed.moves().len(), 5);
    }
}

#[test]
fn a_piece_that_stops_next_to_a_revealed_lion_is_probably_stronger_than_a_cat() {
    // Blue's Lion jumps (revealed) to d4 and walks to d6; Red then steps its e7 piece next to it, to d7.
    let mut g = game("TECDLWPR", "RPWEDCLT");
    play(&mut g, "a3a4 b8b9 a4d4 b9b8 d4d5 b8b9 d5d6 e7d7");
    let view = g.view(Some(Side::Blue));
    let belief = Belief::of(&view, Side::Red, true);
    let p = belief.probabilities(Square::D7).unwrap();
    assert!(
        p[Animal::Elephant.index()] > 2.0 * p[Animal::Cat.index()],
        "{p:?}"
    );
    // Without reading behaviour every remaining animal is as likely.
    let plain = Belief::of(&view, Side::Red, false)
        .probabilities(Square::D7)
        .unwrap();
    assert_eq!(plain[Animal::Elephant.index()], plain[Animal::Cat.index()]);
    // A piece that has not moved next to the Lion keeps even odds.
    let far = belief.probabilities(Square::A7).unwrap();
    assert_eq!(far[Animal::Elephant.index()], far[Animal::Cat.index()]);
}

/// The probability of `animal` standing on `square` in `side`'s setups drawn from `table`, given that the
/// setup puts each animal of `known` on its square (by brute force over all 8! setups).
fn table_conditional(
    table: &SetupTable,
    side: Side,
    known: &[(Square, Animal)],
    square: Square,
    animal: Animal,
) -> f64 {
    let rules = Rules::default();
    let squares = Arrangement::start_squares(&rules, side);
    let at = |sq: Square| squares.iter().position(|&s| s == sq).unwrap();
    let setups = table.distribution(&rules, side).unwrap();
    let agrees = |animals: &[Animal; 8]| known.iter().all(|&(sq, a)| animals[at(sq)] == a);
    let given: f64 = setups
        .iter()
        .filter(|(a, _)| agrees(a))
        .map(|&(_, p)| p)
        .sum();
    let both: f64 = setups
        .iter()
        .filter(|(a, _)| agrees(a) && a[at(square)] == animal)
        .map(|&(_, p)| p)
        .sum();
    both / given
}

#[test]
fn the_belief_starts_from_the_setup_tables_prior_and_conditions_it_on_every_reveal() {
    let table = SetupTable::FITTED;
    let mut g = game("TECDLWPR", "RPWEDCLT");
    play(&mut g, "g3g4");
    // Before any reveal, the posterior is the table's draw: Red's Elephant stands on c7 or e7 in about 89 % of
    // its setups.
    let view = g.view(Some(Side::Blue));
    let marginals = Belief::posterior(&view, Side::Red, &table, 100)
        .marginals()
        .unwrap();
    assert_eq!(marginals.len(), 8);
    for &(sq, m) in &marginals {
        for animal in Animal::ALL {
            let expected = table_conditional(&table, Side::Red, &[], sq, animal);
            assert!(
                (m[animal.index()] - expected).abs() < 1e-9,
                "{sq} {animal}: {m:?}"
            );
        }
    }
    let c7 = marginals
        .iter()
        .find(|(sq, _)| *sq == Square::C7)
        .unwrap()
        .1;
    let e7 = marginals
        .iter()
        .find(|(sq, _)| *sq == Square::E7)
        .unwrap()
        .1;
    let inner = c7[Animal::Elephant.index()] + e7[Animal::Elephant.index()];
    assert!((inner - 0.89).abs() < 0.01, "{inner}");
    // The piece from a7 swims (b6 is water): it is the Rat; the others' posterior is the table's given that.
    play(&mut g, "a7a6 g4g5 a6b6");
    let view = g.view(Some(Side::Blue));
    let belief = Belief::posterior(&view, Side::Red, &table, 100);
    let marginals = belief.marginals().unwrap();
    assert_eq!(marginals.len(), 7);
    for &(sq, m) in &marginals {
        assert_eq!(m[Animal::Rat.index()], 0.0);
        let origin = view.piece_at(sq).unwrap().origin;
        for animal in Animal::ALL {
            let expected = table_conditional(
                &table,
                Side::Red,
                &[(Square::A7, Animal::Rat)],
                origin,
                animal,
            );
            assert!(
                (m[animal.index()] - expected).abs() < 1e-9,
                "{sq} {animal}: {m:?}"
            );
        }
    }
    // A uniform prior (strength 0) gives every remaining animal the same chance.
    let uniform = Belief::posterior(&view, Side::Red, &table, 0)
        .marginals()
        .unwrap();
    for (_, m) in uniform {
        assert!(
            (m[Animal::Elephant.index()] - 1.0 / 7.0).abs() < 1e-9,
            "{m:?}"
        );
    }
    // Worlds drawn from it follow it: the Elephant on c7 or e7 in about 89 % of them (the kept-nothing draw).
    let mut rng = StdRng::seed_from_u64(4);
    let draws = 2000;
    let view = {
        let mut start = game("TECDLWPR", "RPWEDCLT");
        play(&mut start, "g3g4");
        start.view(Some(Side::Blue))
    };
    let belief = Belief::posterior(&view, Side::Red, &table, 100);
    let inner_drawn = (0..draws)
        .filter(|_| {
            let world = jungle_hidden::ai::sample_world(&view, &belief, &mut rng).unwrap();
            [Square::C7, Square::E7]
                .iter()
                .any(|&sq| world.piece_at(sq).unwrap().animal == Animal::Elephant)
        })
        .count();
    let share = inner_drawn as f64 / f64::from(draws);
    assert!((share - inner).abs() < 0.03, "{share} against {inner}");
}

#[test]
fn sampled_worlds_agree_with_the_view() {
    let mut g = game("TECDLWPR", "RPWEDCLT");
    play(&mut g, "a3a4 b8b9 a4d4 b9b8 d4d5 b8b9 d5d6 e7d7");
    let view = g.view(Some(Side::Blue));
    let belief = Belief::of(&view, Side::Red, true);
    let mut rng = StdRng::seed_from_u64(3);
    for _ in 0..50 {
        let world = jungle_hidden::ai::sample_world(&view, &belief, &mut rng).unwrap();
        for (sq, seen) in view.pieces() {
            let piece = world.piece_at(sq).unwrap();
            assert_eq!(piece.side, seen.side);
            if let Some(animal) = seen.animal {
                assert_eq!(piece.animal, animal);
            }
        }
        assert_eq!(world.occupied(), view.occupied());
    }
}

#[test]
fn the_ai_beats_random_moves() {
    let rules = Rules::default();
    let mut rng = StdRng::seed_from_u64(5);
    for (i, ai_side) in [Side::Blue, Side::Red].into_iter().enumerate() {
        let mut ai = HiddenAi::new(3, i as u64);
        let blue = Arrangement::random(&rules, Side::Blue, &mut rng);
        let red = Arrangement::random(&rules, Side::Red, &mut rng);
        let mut g = HiddenGame::new(rules.clone(), blue, red).unwrap();
        while !g.is_over() && g.history().len() < 400 {
            let side = g.side_to_move();
            let m = if side == ai_side {
                ai.choose(&g.view(Some(side)), None).unwrap()
            } else {
                let moves = g.legal_moves();
                moves.as_slice()[rng.random_range(0..moves.len())]
            };
            g.play(m).unwrap();
        }
        assert_eq!(
            g.outcome().and_then(|o| o.winner),
            Some(ai_side),
            "{:?}",
            g.outcome()
        );
    }
}

#[test]
fn every_level_sets_up_at_random() {
    // A setup known in advance (the ordinary start position's, say) would hand the opponent every identity.
    for preset in ["standard", "animal-checkers"] {
        let rules: Rules = preset.parse().unwrap();
        for level in 1..=8 {
            let setups: Vec<Arrangement> = (0..6)
                .map(|seed| HiddenAi::new(level, seed).choose_setup(&rules, Side::Blue))
                .collect();
            assert!(
                setups.iter().any(|s| *s != setups[0]),
                "{preset} level {level}: {setups:?}"
            );
        }
    }
}
