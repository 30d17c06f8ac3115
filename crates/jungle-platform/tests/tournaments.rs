//! The tournament library against hand-made events (exact pairings, colours, byes, tie-breaks, arena points)
//! and random Swiss events checked against a slow exhaustive search (docs/tournaments.md).

use std::collections::{HashMap, HashSet};

use jungle_platform::tournaments::arena::{self, Free, GameResult};
use jungle_platform::tournaments::swiss::{self, Board, Pairing, PairingError, Player};
use jungle_platform::tournaments::tiebreaks::{self, Standing};
use jungle_platform::tournaments::{Crosstable, Game, Outcome, PlayerId, Round, Score};
use jungle_rules::Side::{self, Blue, Red};
use proptest::prelude::*;

fn board(blue: PlayerId, red: PlayerId) -> Board {
    Board { blue, red }
}

/// Entrants 1..=n rated 2000, 1900, … so that ids and ratings rank alike.
fn entrants(n: u64) -> Vec<(PlayerId, u32)> {
    (1..=n).map(|id| (id, 2100 - 100 * id as u32)).collect()
}

/// Records a round's pairing with the outcomes given board by board.
fn play(table: &mut Crosstable, pairing: &Pairing, outcomes: &[Outcome]) {
    assert_eq!(pairing.boards.len(), outcomes.len());
    table.rounds.push(Round {
        games: pairing
            .boards
            .iter()
            .zip(outcomes)
            .map(|(b, &outcome)| Game {
                blue: b.blue,
                red: b.red,
                outcome: Some(outcome),
            })
            .collect(),
        bye: pairing.bye,
    });
}

fn pair_next(table: &Crosstable, entrants: &[(PlayerId, u32)]) -> Pairing {
    swiss::pair(&table.players(entrants)).expect("a pairing exists")
}

#[test]
fn six_players_three_rounds() {
    let entrants = entrants(6);
    let mut table = Crosstable::default();

    // Round 1: top half against bottom half, colours alternating down the boards.
    let round1 = pair_next(&table, &entrants);
    assert_eq!(
        round1,
        Pairing {
            boards: vec![board(1, 4), board(5, 2), board(3, 6)],
            bye: None
        }
    );
    play(
        &mut table,
        &round1,
        &[Outcome::Won(Blue), Outcome::Won(Red), Outcome::Draw],
    );

    // Round 2: 1 and 2 lead; 3 and 6 drew each other, so both float down to meet 4 and 5 (the floater ranked
    // higher takes the higher resident); everyone alternates colour.
    let round2 = pair_next(&table, &entrants);
    assert_eq!(
        round2,
        Pairing {
            boards: vec![board(2, 1), board(4, 3), board(6, 5)],
            bye: None
        }
    );
    play(
        &mut table,
        &round2,
        &[Outcome::Draw, Outcome::Won(Red), Outcome::Won(Blue)],
    );

    // Round 3: four players on 1½ (1, 2, 3, 6): 1 v 3 and 2 v 6 avoid both repeats; 1 and 3 both want Blue
    // and the higher-ranked gets it.
    let round3 = pair_next(&table, &entrants);
    assert_eq!(
        round3,
        Pairing {
            boards: vec![board(1, 3), board(6, 2), board(5, 4)],
            bye: None
        }
    );
    play(
        &mut table,
        &round3,
        &[Outcome::Won(Blue), Outcome::Draw, Outcome::Won(Blue)],
    );

    // Tie-breaks on the finished crosstable, worked by hand:
    // 1: 2½, Buchholz 0 + 2 + 1½ = 3½, SB 0 + ½·2 + 1½ = 2½
    // 2: 2, Buchholz 1 + 2½ + 2 = 5½, SB 1 + ½·2½ + ½·2 = 3¼
    // 6: 2, Buchholz 1½ + 1 + 2 = 4½, SB ½·1½ + 1 + ½·2 = 2¾
    // 3: 1½, Buchholz 2 + 0 + 2½ = 4½, SB ½·2 + 0 = 1
    // 5: 1, Buchholz 2 + 2 + 0 = 4, SB 0
    // 4: 0, Buchholz 2½ + 1½ + 1 = 5, SB 0
    let line = |id, score, buchholz, sonneborn_berger| Standing {
        id,
        rating: 2100 - 100 * id as u32,
        score: Score(score),
        buchholz: Score(buchholz),
        sonneborn_berger,
    };
    assert_eq!(
        tiebreaks::standings(&table, &entrants),
        vec![
            line(1, 5, 7, 10),
            line(2, 4, 11, 13),
            line(6, 4, 9, 11),
            line(3, 3, 9, 4),
            line(5, 2, 8, 0),
            line(4, 0, 10, 0)
        ]
    );
}

#[test]
fn a_score_group_whose_natural_pairing_is_a_repeat_is_transposed() {
    let entrants = entrants(8);
    let mut table = Crosstable::default();
    let round1 = pair_next(&table, &entrants);
    assert_eq!(
        round1.boards,
        vec![board(1, 5), board(6, 2), board(3, 7), board(8, 4)]
    );
    play(
        &mut table,
        &round1,
        &[
            Outcome::Draw,
            Outcome::Draw,
            Outcome::Won(Blue),
            Outcome::Won(Red),
        ],
    );
    // The ½ group is 1, 2, 5, 6: 1 v 5 and 2 v 6 were round 1's games, so 1 v 6 and 2 v 5.
    let round2 = pair_next(&table, &entrants);
    assert_eq!(
        round2.boards,
        vec![board(4, 3), board(6, 1), board(2, 5), board(7, 8)]
    );
}

#[test]
fn odd_numbers_give_the_bye_to_the_lowest_ranked_without_one() {
    let entrants = entrants(5);
    let mut table = Crosstable::default();
    let round1 = pair_next(&table, &entrants);
    assert_eq!(
        round1,
        Pairing {
            boards: vec![board(1, 3), board(4, 2)],
            bye: Some(5)
        }
    );
    play(
        &mut table,
        &round1,
        &[Outcome::Won(Blue), Outcome::Won(Red)],
    );
    assert_eq!(table.score(5), Score::WIN, "a bye scores a win");

    // 1, 2 and 5 on one point, 3 and 4 on none: 4 is lowest and sits out; 5 floats down to meet 3, and
    // having no colour yet takes the one 3 does not want.
    let round2 = pair_next(&table, &entrants);
    assert_eq!(
        round2,
        Pairing {
            boards: vec![board(2, 1), board(3, 5)],
            bye: Some(4)
        }
    );
}

#[test]
fn three_players_take_the_bye_in_turn_then_run_out() {
    let entrants = entrants(3);
    let mut table = Crosstable::default();
    let round1 = pair_next(&table, &entrants);
    assert_eq!(
        round1,
        Pairing {
            boards: vec![board(1, 2)],
            bye: Some(3)
        }
    );
    play(&mut table, &round1, &[Outcome::Won(Blue)]);
    // 1 and 3 on a point, 2 on none: 2 is lowest without a bye.
    let round2 = pair_next(&table, &entrants);
    assert_eq!(
        round2,
        Pairing {
            boards: vec![board(3, 1)],
            bye: Some(2)
        }
    );
    play(&mut table, &round2, &[Outcome::Won(Blue)]);
    // Only 1 has not had a bye, and 2 v 3 is new.
    let round3 = pair_next(&table, &entrants);
    assert_eq!(round3.bye, Some(1));
    assert_eq!(round3.boards.len(), 1);
    play(&mut table, &round3, &[Outcome::Draw]);
    // Everyone has met everyone.
    assert_eq!(
        swiss::pair(&table.players(&entrants)),
        Err(PairingError::Exhausted(3))
    );
}

/// A player on one point after two games against players outside the list.
fn player(id: PlayerId, colours: &[Side]) -> Player {
    Player {
        id,
        rating: 2100 - 100 * id as u32,
        score: Score(2),
        colours: colours.to_vec(),
        opponents: vec![100 + 2 * id, 101 + 2 * id],
        had_bye: false,
    }
}

#[test]
fn no_third_game_on_one_side_when_another_pairing_avoids_it() {
    // 1 v 3 and 2 v 4 would each put two players who both need the same side together.
    let players = [
        player(1, &[Blue, Blue]),
        player(2, &[Red, Red]),
        player(3, &[Blue, Blue]),
        player(4, &[Red, Red]),
    ];
    let pairing = swiss::pair(&players).unwrap();
    assert_eq!(pairing.boards, vec![board(4, 1), board(2, 3)]);
}

#[test]
fn the_stronger_colour_need_wins_over_rank() {
    // 1 would like Blue after Blue, Red; 2 must have Blue after two Reds.
    let players = [player(1, &[Blue, Red]), player(2, &[Red, Red])];
    assert_eq!(swiss::pair(&players).unwrap().boards, vec![board(2, 1)]);
    // 1 has had Blue once more than Red; 2 alternates from Blue: both want Red, the imbalance wins.
    let players = [
        player(1, &[Blue, Red, Blue]),
        player(2, &[Red, Blue, Red, Blue]),
    ];
    assert_eq!(swiss::pair(&players).unwrap().boards, vec![board(2, 1)]);
    // Equal needs: the higher-ranked gets the side.
    let players = [player(1, &[Red, Blue]), player(2, &[Red, Blue])];
    assert_eq!(swiss::pair(&players).unwrap().boards, vec![board(2, 1)]);
}

#[test]
fn bad_input_is_an_error() {
    assert_eq!(swiss::pair(&[]), Err(PairingError::NoPlayers));
    let players = [player(1, &[]), player(1, &[])];
    assert_eq!(swiss::pair(&players), Err(PairingError::DuplicatePlayer(1)));
    assert_eq!(
        PairingError::DuplicatePlayer(1).to_string(),
        "player 1 is entered twice"
    );
}

#[test]
fn sonneborn_berger_separates_equal_score_and_buchholz() {
    // A beats X and loses to Y; B draws U and V. Both on 1 with Buchholz 2, but A's win was against X on ½
    // (SB ½) and B's draws against players on 1 (SB 1).
    let (a, b, x, y, u, v) = (1, 2, 3, 4, 5, 6);
    let game = |blue, red, outcome| Game {
        blue,
        red,
        outcome: Some(outcome),
    };
    let table = Crosstable {
        rounds: vec![
            Round {
                games: vec![
                    game(a, x, Outcome::Won(Blue)),
                    game(b, u, Outcome::Draw),
                    game(y, v, Outcome::Draw),
                ],
                bye: None,
            },
            Round {
                games: vec![
                    game(a, y, Outcome::Won(Red)),
                    game(b, v, Outcome::Draw),
                    game(x, u, Outcome::Draw),
                ],
                bye: None,
            },
        ],
        ..Crosstable::default()
    };
    let entrants: Vec<(PlayerId, u32)> = (1..=6).map(|id| (id, 1500)).collect();
    let order: Vec<(PlayerId, Score, Score, u32)> = tiebreaks::standings(&table, &entrants)
        .iter()
        .map(|s| (s.id, s.score, s.buchholz, s.sonneborn_berger))
        .collect();
    assert_eq!(
        order,
        vec![
            (y, Score(3), Score(4), 6),
            (v, Score(2), Score(5), 5),
            (b, Score(2), Score(4), 4),
            (a, Score(2), Score(4), 2),
            (u, Score(2), Score(3), 3),
            (x, Score(1), Score(4), 2),
        ]
    );
}

#[test]
fn arena_streaks_double_until_a_game_is_not_won() {
    let game = |result| arena::Game {
        result,
        berserk: false,
    };
    let (w, d, l) = (
        game(GameResult::Win),
        game(GameResult::Draw),
        game(GameResult::Loss),
    );
    let points = arena::points(&[w, w, w, d, w, l]);
    assert_eq!(points.per_game, vec![2, 2, 4, 2, 2, 0]);
    assert_eq!(points.total, 12);
    assert!(!points.on_fire);
    let points = arena::points(&[d, w, w, w, w]);
    assert_eq!(points.per_game, vec![1, 2, 2, 4, 4]);
    assert!(points.on_fire);
    // A berserk win earns one more point, not doubled; a berserk loss earns nothing.
    let berserk = |result| arena::Game {
        result,
        berserk: true,
    };
    let points = arena::points(&[
        w,
        w,
        berserk(GameResult::Win),
        berserk(GameResult::Loss),
        berserk(GameResult::Win),
    ]);
    assert_eq!(points.per_game, vec![2, 2, 5, 0, 3]);
    assert_eq!(points.total, 12);
}

fn free(id: PlayerId, points: u32, rating: u32, last_opponent: Option<PlayerId>) -> Free {
    Free {
        id,
        points,
        rating,
        last_opponent,
    }
}

#[test]
fn arena_pairs_close_players_but_not_last_opponents() {
    // By points then rating: 1, 2, 3, 4. 1 just played 2.
    let pool = [
        free(4, 2, 1500, None),
        free(3, 8, 1500, None),
        free(2, 8, 1600, Some(1)),
        free(1, 10, 1500, Some(2)),
    ];
    assert_eq!(arena::pair(&pool), vec![(1, 3), (2, 4)]);
    // 3 and 4 just played each other: pairing 1 v 2 first would force their rematch.
    let pool = [
        free(1, 4, 1500, None),
        free(2, 3, 1500, None),
        free(3, 2, 1500, Some(4)),
        free(4, 1, 1500, Some(3)),
    ];
    assert_eq!(arena::pair(&pool), vec![(1, 3), (2, 4)]);
    // Odd: the lowest who can waits; here 2 must, since 1 and 2 just met.
    let pool = [
        free(1, 3, 1500, Some(2)),
        free(2, 2, 1500, Some(1)),
        free(3, 1, 1500, None),
    ];
    assert_eq!(arena::pair(&pool), vec![(1, 3)]);
    // Nobody else is free: the rematch is played.
    let pool = [free(1, 3, 1500, Some(2)), free(2, 2, 1500, Some(1))];
    assert_eq!(arena::pair(&pool), vec![(1, 2)]);
    // Equal players pair in the order given.
    let pool = [
        free(7, 0, 1500, None),
        free(5, 0, 1500, None),
        free(9, 0, 1500, None),
    ];
    assert_eq!(arena::pair(&pool), vec![(7, 5)]);
}

/// The rules the pairer must keep, by exhaustive search with a memo of the sets found unpairable: can
/// `players` be paired without a repeat, with the bye (when odd) going to someone `may_sit_out` accepts,
/// and (`strict`) no two players who both need the same side against each other?
fn pairable(players: &[Player], may_sit_out: &dyn Fn(&Player) -> bool, strict: bool) -> bool {
    let needs = |p: &Player| match p.colours[..] {
        [.., a, b] if a == b => Some(!b),
        _ => None,
    };
    let allowed = |a: &Player, b: &Player| {
        let clash = needs(a).is_some() && needs(a) == needs(b);
        let repeat = a.opponents.contains(&b.id);
        !repeat && (!strict || !clash)
    };
    fn search(
        players: &[Player],
        allowed: &dyn Fn(&Player, &Player) -> bool,
        left: u32,
        dead: &mut HashSet<u32>,
    ) -> bool {
        if left == 0 {
            return true;
        }
        if dead.contains(&left) {
            return false;
        }
        let a = left.trailing_zeros() as usize;
        let found = (a + 1..players.len()).any(|b| {
            left & (1 << b) != 0
                && allowed(&players[a], &players[b])
                && search(players, allowed, left & !(1 << a) & !(1 << b), dead)
        });
        if !found {
            dead.insert(left);
        }
        found
    }
    let everyone = (1u32 << players.len()) - 1;
    let mut dead = HashSet::new();
    if players.len().is_multiple_of(2) {
        return search(players, &allowed, everyone, &mut dead);
    }
    (0..players.len()).any(|i| {
        may_sit_out(&players[i]) && search(players, &allowed, everyone & !(1 << i), &mut dead)
    })
}

/// Checks one round's pairing against the rules of docs/tournaments.md §1.
fn check_round(players: &[Player], pairing: &Pairing) -> Result<(), TestCaseError> {
    let by_id: HashMap<PlayerId, &Player> = players.iter().map(|p| (p.id, p)).collect();
    // Everyone plays exactly once or has the bye, and the bye exactly when the number is odd.
    let mut seen: Vec<PlayerId> = pairing
        .boards
        .iter()
        .flat_map(|b| [b.blue, b.red])
        .chain(pairing.bye)
        .collect();
    seen.sort_unstable();
    prop_assert_eq!(seen, {
        let mut ids: Vec<PlayerId> = players.iter().map(|p| p.id).collect();
        ids.sort_unstable();
        ids
    });
    prop_assert_eq!(pairing.bye.is_some(), players.len() % 2 == 1);

    // No game is played twice.
    for b in &pairing.boards {
        prop_assert!(
            !by_id[&b.blue].opponents.contains(&b.red),
            "{} v {} repeated",
            b.blue,
            b.red
        );
    }
    // A second bye only when every pairing needs one.
    let second_bye = pairing.bye.is_some_and(|id| by_id[&id].had_bye);
    if second_bye {
        prop_assert!(
            !pairable(players, &|p| !p.had_bye, false),
            "a bye went to {:?} again",
            pairing.bye
        );
    }
    // A third game on one side in a row only when every pairing (with the bye as fair as ours) needs one.
    let third = pairing.boards.iter().any(|b| {
        by_id[&b.blue].colours.ends_with(&[Blue, Blue])
            || by_id[&b.red].colours.ends_with(&[Red, Red])
    });
    if third {
        prop_assert!(
            !pairable(players, &|p| p.had_bye == second_bye, true),
            "three in a row was avoidable"
        );
    }

    Ok(())
}

/// Plays a random Swiss event, checking every round's pairing against the rules.
fn check_event(ratings: &[u32], rounds: usize, outcomes: &[u8]) -> Result<(), TestCaseError> {
    let entrants: Vec<(PlayerId, u32)> = ratings
        .iter()
        .enumerate()
        .map(|(i, &r)| (i as u64 + 1, r))
        .collect();
    let mut table = Crosstable::default();
    let mut next_outcome = outcomes.iter().cycle();
    for _ in 0..rounds {
        let players = table.players(&entrants);
        let pairing = match swiss::pair(&players) {
            Ok(pairing) => pairing,
            Err(error) => {
                prop_assert_eq!(error, PairingError::Exhausted(players.len()));
                prop_assert!(
                    !pairable(&players, &|_| true, false),
                    "a pairing without repeats exists"
                );
                return Ok(());
            }
        };
        // The same players in another order give the same pairing.
        let reversed: Vec<Player> = players.iter().rev().cloned().collect();
        prop_assert_eq!(swiss::pair(&reversed), Ok(pairing.clone()));
        // The fallback for a search out of budget keeps the rules too.
        let fallback = swiss::pair_with_budget(&players, 0);
        prop_assert!(fallback.is_ok());
        check_round(&players, &fallback.unwrap())?;
        check_round(&players, &pairing)?;

        let results: Vec<Outcome> = pairing
            .boards
            .iter()
            .map(|_| match next_outcome.next().copied().unwrap_or(0) % 3 {
                0 => Outcome::Won(Blue),
                1 => Outcome::Won(Red),
                _ => Outcome::Draw,
            })
            .collect();
        play(&mut table, &pairing, &results);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_swiss_events_keep_the_pairing_rules(
        ratings in prop::collection::vec(1000u32..2200, 2..=30),
        rounds in 1usize..=7,
        outcomes in prop::collection::vec(0u8..3, 1..120),
    ) {
        check_event(&ratings, rounds, &outcomes)?;
    }

    /// Small events run out of new opponents: every round must be paired until none can be.
    #[test]
    fn small_events_are_paired_until_no_pairing_is_left(
        ratings in prop::collection::vec(1000u32..2200, 2..=9),
        outcomes in prop::collection::vec(0u8..3, 1..60),
    ) {
        check_event(&ratings, 9, &outcomes)?;
    }
}
