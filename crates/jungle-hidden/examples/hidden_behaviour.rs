//! What the AI's opponent gives away about its animals: reads the records written by
//! `hidden_match --pgn FILE` and counts, for the side that is not the AI (tag `AI`), by animal,
//!
//! - its pieces still unrevealed at its moves, by phase (plies 0–19, 20–59, 60 on): which animals stay hidden;
//! - how often an unrevealed piece that may attack an enemy piece whose animal it does not know does so.
//!
//! ```sh
//! cargo run --profile ci -p jungle-hidden --example hidden_match -- --games 200 --nodes 10000 --seed 200 --pgn g.pgn
//! cargo run --profile ci -p jungle-hidden --example hidden_behaviour -- g.pgn
//! ```
//! Records without both setups (games cut at 300 plies) are skipped.

use jungle_hidden::HiddenGame;
use jungle_hidden::record::Record;
use jungle_rules::{Animal, Side};

/// Plies at which the phases after the first begin.
const PHASES: [usize; 2] = [20, 60];

#[derive(Default)]
struct Tally {
    /// Per animal and phase: the opponent's pieces still unrevealed, counted at each of its moves.
    hidden: [[u32; 3]; 8],
    /// Per animal: moves at which an unrevealed piece could attack an enemy piece unknown to it, and attacks.
    could_attack: [(u32, u32); 8],
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("hidden_behaviour: give the file written by hidden_match --pgn");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("hidden_behaviour: {path}: {e}");
            std::process::exit(2);
        }
    };
    let mut tally = Tally::default();
    let mut games = 0;
    for chunk in text.split("\n\n[") {
        let chunk = if chunk.starts_with('[') {
            chunk.to_string()
        } else {
            format!("[{chunk}")
        };
        if let Ok(record) = Record::parse(&chunk)
            && count(&record, &mut tally)
        {
            games += 1;
        }
    }
    println!("{games} games; the opponent of the AI, by animal:");
    for animal in Animal::ALL {
        let (chances, attacks) = tally.could_attack[animal.index()];
        println!(
            "{:<8} unrevealed at its moves by phase {:?}; could attack an unknown piece {chances} times, did {attacks} ({:.0} %)",
            animal.to_string(),
            tally.hidden[animal.index()],
            100.0 * f64::from(attacks) / f64::from(chances.max(1)),
        );
    }
}

/// Adds one record's moves to the tally; false when the record cannot be replayed (a setup missing).
fn count(record: &Record, tally: &mut Tally) -> bool {
    let ai = if record.tag("AI") == Some("Blue") {
        Side::Blue
    } else {
        Side::Red
    };
    let (Some(blue), Some(red)) = (&record.setups.blue, &record.setups.red) else {
        return false;
    };
    let Ok(mut game) = HiddenGame::new(record.rules.clone(), blue.clone(), red.clone()) else {
        return false;
    };
    for (ply, public) in record.moves.iter().enumerate() {
        let side = game.side_to_move();
        if side != ai {
            let view = game.view(Some(side));
            let legal = view.legal_moves();
            let phase = PHASES.iter().filter(|&&start| ply >= start).count();
            for (sq, seen) in view.pieces() {
                let Some(animal) = seen.animal.filter(|_| seen.side == side && !seen.revealed)
                else {
                    continue;
                };
                tally.hidden[animal.index()][phase] += 1;
                let blind_target = |to| {
                    view.piece_at(to)
                        .is_some_and(|enemy| enemy.side != side && enemy.animal.is_none())
                };
                let could = legal.iter().any(|m| m.from == sq && blind_target(m.to));
                if could {
                    let entry = &mut tally.could_attack[animal.index()];
                    entry.0 += 1;
                    if public.mv.from == sq && blind_target(public.mv.to) {
                        entry.1 += 1;
                    }
                }
            }
        }
        if game.play(public.mv).is_err() {
            return false;
        }
    }
    true
}
