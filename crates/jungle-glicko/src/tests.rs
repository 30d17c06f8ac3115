use super::*;

fn rating(r: f64, rd: f64) -> Rating {
    Rating::new(r, rd, 0.06).unwrap()
}

fn game(opponent: Rating, outcome: Outcome) -> Game {
    Game { opponent, outcome }
}

/// Glickman's "Example of the Glicko-2 system": 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300,
/// with τ = 0.5. The paper prints 1464.06 / 151.52 / 0.05999, rounding its intermediate steps; exact
/// arithmetic gives 1464.05.
#[test]
fn glickmans_worked_example() {
    let settings = Settings {
        tau: 0.5,
        ..Settings::GAMES
    };
    let after = settings.update(
        rating(1500.0, 200.0),
        &[
            game(rating(1400.0, 30.0), Outcome::Win),
            game(rating(1550.0, 100.0), Outcome::Loss),
            game(rating(1700.0, 300.0), Outcome::Loss),
        ],
    );
    assert!((after.rating() - 1464.06).abs() < 0.02, "{after:?}");
    assert!((after.deviation() - 151.52).abs() < 0.01, "{after:?}");
    assert!((after.volatility() - 0.05999).abs() < 0.000_01, "{after:?}");
}

#[test]
fn the_example_s_intermediate_quantities() {
    // Step 3: v = 1.7785, step 4: Δ = −0.4834 (the paper's figures, from g and E rounded to four places;
    // unrounded, v = 1.77898).
    let (mu, _) = rating(1500.0, 200.0).to_internal();
    let opponents = [
        (rating(1400.0, 30.0), 1.0),
        (rating(1550.0, 100.0), 0.0),
        (rating(1700.0, 300.0), 0.0),
    ];
    let (mut inverse_variance, mut surprise) = (0.0, 0.0);
    for (opponent, score) in opponents {
        let (mu_j, phi_j) = opponent.to_internal();
        let expected = expectation(mu, mu_j, g(phi_j));
        inverse_variance += g(phi_j).powi(2) * expected * (1.0 - expected);
        surprise += g(phi_j) * (score - expected);
    }
    let v = 1.0 / inverse_variance;
    assert!((v - 1.7785).abs() < 0.001, "v = {v}");
    assert!(
        (v * surprise + 0.4834).abs() < 0.001,
        "delta = {}",
        v * surprise
    );
}

#[test]
fn a_win_raises_a_loss_lowers_a_draw_with_an_equal_leaves_the_rating() {
    let settings = Settings::GAMES;
    let player = rating(1500.0, 200.0);
    let opponent = rating(1500.0, 200.0);
    let won = settings.update(player, &[game(opponent, Outcome::Win)]);
    let lost = settings.update(player, &[game(opponent, Outcome::Loss)]);
    let drew = settings.update(player, &[game(opponent, Outcome::Draw)]);
    assert!(won.rating() > 1500.0);
    assert!(lost.rating() < 1500.0);
    assert!((drew.rating() - 1500.0).abs() < 1e-9);
}

#[test]
fn equal_players_move_symmetrically() {
    let settings = Settings::GAMES;
    let a = rating(1620.0, 120.0);
    let b = rating(1620.0, 120.0);
    let winner = settings.update(a, &[game(b, Outcome::Win)]);
    let loser = settings.update(b, &[game(a, Outcome::Loss)]);
    assert!((winner.rating() - 1620.0 + loser.rating() - 1620.0).abs() < 1e-9);
    assert!((winner.deviation() - loser.deviation()).abs() < 1e-9);
}

#[test]
fn beating_a_stronger_player_gains_more_than_beating_a_weaker_one() {
    let settings = Settings::GAMES;
    let player = rating(1500.0, 100.0);
    let upset = settings.update(player, &[game(rating(1800.0, 100.0), Outcome::Win)]);
    let expected = settings.update(player, &[game(rating(1200.0, 100.0), Outcome::Win)]);
    assert!(upset.rating() - 1500.0 > expected.rating() - 1500.0);
}

#[test]
fn games_shrink_the_deviation_and_idleness_grows_it() {
    let settings = Settings::GAMES;
    let mut player = settings.initial;
    let opponent = rating(1500.0, 60.0);
    for i in 0..30 {
        let outcome = [Outcome::Win, Outcome::Loss, Outcome::Draw][i % 3];
        let next = settings.update(player, &[game(opponent, outcome)]);
        assert!(
            next.deviation() <= player.deviation(),
            "game {i}: {next:?} after {player:?}"
        );
        player = next;
    }
    assert!(!player.is_provisional(), "{player:?}");
    let rested = settings.idle(player, 50.0);
    assert!(rested.deviation() > player.deviation());
    assert_eq!(rested.rating(), player.rating());
    assert_eq!(rested.volatility(), player.volatility());
    assert_eq!(settings.update(player, &[]), settings.idle(player, 1.0));
}

#[test]
fn deviation_and_volatility_stay_within_bounds() {
    let settings = Settings::GAMES;
    let newcomer = settings.initial;
    assert!(newcomer.is_provisional());
    assert_eq!(settings.idle(newcomer, 1000.0).deviation(), 350.0);
    let mut veteran = Rating::new(2000.0, 45.0, 0.06).unwrap();
    for _ in 0..200 {
        veteran = settings.update(veteran, &[game(rating(2000.0, 45.0), Outcome::Draw)]);
        assert!(veteran.deviation() >= 45.0);
    }
    // A long run of enormous upsets pushes the volatility up, but never beyond its cap.
    let mut erratic = rating(1000.0, 60.0);
    for i in 0..50 {
        let (opponent, outcome) = if i % 2 == 0 {
            (rating(2500.0, 45.0), Outcome::Win)
        } else {
            (rating(500.0, 45.0), Outcome::Loss)
        };
        erratic = settings.update(erratic, &[game(opponent, outcome)]);
        assert!(erratic.volatility() <= 0.1 && erratic.rating().is_finite());
    }
}

#[test]
fn nonsense_numbers_are_not_ratings() {
    assert!(Rating::new(f64::NAN, 100.0, 0.06).is_err());
    assert!(Rating::new(1500.0, 0.0, 0.06).is_err());
    assert!(Rating::new(1500.0, 100.0, -0.1).is_err());
    assert!(Rating::new(1500.0, f64::INFINITY, 0.06).is_err());
    let settings = Settings::GAMES;
    let player = rating(1500.0, 100.0);
    assert_eq!(settings.idle(player, f64::NAN), player);
    assert_eq!(settings.idle(player, -3.0), player);
}

#[test]
fn expected_score_is_a_probability_that_favours_the_stronger() {
    let strong = rating(1900.0, 80.0);
    let weak = rating(1500.0, 80.0);
    let e = strong.expected_score(&weak);
    assert!(e > 0.5 && e < 1.0);
    assert!((e + weak.expected_score(&strong) - 1.0).abs() < 1e-12);
    assert_eq!(Outcome::Win.reversed(), Outcome::Loss);
    assert_eq!(Outcome::Draw.reversed().score(), 0.5);
}
