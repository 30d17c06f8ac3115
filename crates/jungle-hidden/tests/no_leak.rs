//! Hidden information never leaks: over many random games under every preset, nothing a seat or a spectator
//! receives (views, view FEN, public moves, records) depends on an animal that has not been revealed to it.

use jungle_hidden::moves::reveals_mover;
use jungle_hidden::record::Record;
use jungle_hidden::twins::Twins;
use jungle_hidden::{Effect, HiddenGame};
use jungle_rules::{Preset, Rules, Side};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;

/// Everything `viewer` is sent at one moment, as text.
fn sent_to(game: &HiddenGame, viewer: Option<Side>) -> String {
    let view = game.view(viewer);
    let moves: Vec<String> = view.history().iter().map(ToString::to_string).collect();
    format!(
        "{}\n{}\n{:?}\n{}",
        view.fen(),
        moves.join(" "),
        view.legal_moves().as_slice(),
        Record::of(game, viewer, &[]).to_pgn()
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Two games that differ only in Red's arrangement look the same to Blue and to a spectator for as long as
    /// their public moves agree, and the public moves name a mover only when the rules reveal it.
    #[test]
    fn what_blue_and_spectators_receive_does_not_depend_on_reds_secret(seed in any::<u64>(), preset in 0..Preset::ALL.len()) {
        let rules = Rules::preset(Preset::ALL[preset]);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut twins = Twins::random(&rules, &mut rng);
        for _ in 0..200 {
            if twins.games.iter().any(HiddenGame::is_over) {
                // The end shows every animal: from here the twins may differ.
                break;
            }
            for viewer in [Some(Side::Blue), None] {
                prop_assert_eq!(sent_to(&twins.games[0], viewer), sent_to(&twins.games[1], viewer));
            }
            let Some(m) = twins.shared_move(&mut rng) else {
                break;
            };
            let mut publics = Vec::new();
            for game in &mut twins.games {
                let opponent_view = game.view(Some(!game.side_to_move()));
                let known_before = opponent_view.piece_at(m.from).and_then(|s| s.animal).is_some();
                let public = game.play(m).unwrap();
                let attack = public.effect != Effect::Quiet;
                prop_assert_eq!(
                    public.mover.is_some(),
                    attack || reveals_mover(&rules, m) || known_before,
                    "{} names its mover without a reveal", public
                );
                publics.push(public);
            }
            if publics[0] != publics[1] {
                // An attack or a reveal made the difference public: the games may now look different.
                prop_assert!(publics[0].mover.is_some() && publics[1].mover.is_some());
                break;
            }
        }
        // Mid-game, a record held by Blue or a spectator never carries Red's setup.
        if !twins.games[0].is_over() {
            prop_assert!(!Record::of(&twins.games[0], Some(Side::Blue), &[]).to_pgn().contains("RedSetup"));
            prop_assert!(!Record::of(&twins.games[0], None, &[]).to_pgn().contains("Setup"));
        }
    }
}
