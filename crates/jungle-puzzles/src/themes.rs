//! Themes: what a puzzle's solution does, read off its moves (never guessed from the position).

use jungle_rules::terrain::DENS;
use jungle_rules::{Animal, Move, Position, Rules};
use serde::{Deserialize, Serialize};

use crate::Line;

/// A theme of a puzzle, in the order the collection lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// The line ends with the solver's animal entering the enemy den.
    DenRace,
    /// The solver captures on the way.
    Capture,
    /// The solver captures an animal that outranks the capturer, weakened on one of the solver's traps.
    Trap,
    /// The solver's Lion or Tiger leaps a river.
    RiverJump,
    /// The solver's Rat takes an Elephant, or the solver's Elephant takes a Rat.
    RatAndElephant,
}

impl Theme {
    pub const ALL: [Theme; 5] = [
        Theme::DenRace,
        Theme::Capture,
        Theme::Trap,
        Theme::RiverJump,
        Theme::RatAndElephant,
    ];

    /// The name in the collection file and the API (`den-race`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Theme::DenRace => "den-race",
            Theme::Capture => "capture",
            Theme::Trap => "trap",
            Theme::RiverJump => "river-jump",
            Theme::RatAndElephant => "rat-and-elephant",
        }
    }

    /// The theme of a name, if it is one.
    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

/// The themes the solver's moves of a line show, sorted, each once.
pub fn themes_of(line: &Line) -> Vec<Theme> {
    let mut themes = Vec::new();
    let solver_moves = line
        .moves
        .iter()
        .zip(&line.positions)
        .filter(|(_, pos)| pos.side_to_move() == line.solver);
    for (&m, pos) in solver_moves {
        themes.extend(move_themes(pos, &line.rules, m));
    }
    themes.sort();
    themes.dedup();
    themes
}

/// The themes one move of the side to move shows.
fn move_themes(pos: &Position, rules: &Rules, m: Move) -> Vec<Theme> {
    let mover = pos.side_to_move();
    let Some(piece) = pos.piece_at(m.from) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if m.to == DENS[!mover] {
        out.push(Theme::DenRace);
    }
    if let Some(victim) = pos.piece_at(m.to).filter(|v| v.side != mover) {
        out.push(Theme::Capture);
        let outranked = rules.rank(victim.animal) > rules.rank(piece.animal);
        let rat_takes_elephant = piece.animal == Animal::Rat && victim.animal == Animal::Elephant;
        if outranked && !rat_takes_elephant && rules.weakening_squares(mover).contains(m.to) {
            out.push(Theme::Trap);
        }
        if matches!(
            (piece.animal, victim.animal),
            (Animal::Rat, Animal::Elephant) | (Animal::Elephant, Animal::Rat)
        ) {
            out.push(Theme::RatAndElephant);
        }
    }
    let distance = m.from.file().abs_diff(m.to.file()) + m.from.rank().abs_diff(m.to.rank());
    if distance > 1 {
        out.push(Theme::RiverJump);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle_rules::Side;

    fn line(fen: &str, moves: &[&str]) -> Line {
        let rules = Rules::default();
        let start = Position::from_fen(fen, &rules).unwrap();
        let mut positions = vec![start];
        let mut played = Vec::new();
        for text in moves {
            let pos = *positions.last().unwrap();
            let m = pos.parse_move(&rules, text).unwrap();
            played.push(m);
            positions.push(pos.after(m));
        }
        Line {
            rules,
            solver: start.side_to_move(),
            moves: played,
            positions,
        }
    }

    #[test]
    fn themes_come_from_the_solvers_moves() {
        // Blue's Lion steps into the den.
        assert_eq!(
            themes_of(&line("7/3L3/7/7/7/7/7/7/r6 w", &["d8d9"])),
            [Theme::DenRace]
        );
        // Blue's Lion on b3 leaps the river to b7.
        assert_eq!(
            themes_of(&line("7/7/7/7/7/7/1L5/7/r6 w", &["b3b7"])),
            [Theme::RiverJump]
        );
        // Blue's Rat on a1 takes the Red Elephant on a2.
        assert_eq!(
            themes_of(&line("7/7/7/7/7/7/7/e6/R6 w", &["a1a2"])),
            [Theme::Capture, Theme::RatAndElephant]
        );
        // Blue's Cat takes a Red Lion standing on Blue's trap c1.
        assert_eq!(
            themes_of(&line("7/7/7/7/7/7/7/7/1Cl4 w", &["b1c1"])),
            [Theme::Capture, Theme::Trap]
        );
        // The defender's capture (the Red Elephant takes the Cat) is not the solver's theme.
        let defended = line("7/7/7/7/7/7/7/e6/C5R w", &["g1g2", "a2a1"]);
        assert_eq!(defended.solver, Side::Blue);
        assert!(themes_of(&defended).is_empty());
    }

    #[test]
    fn theme_names_round_trip() {
        for t in Theme::ALL {
            assert_eq!(Theme::from_name(t.as_str()), Some(t));
            assert_eq!(
                serde_json::to_string(&t).unwrap(),
                format!("\"{}\"", t.as_str())
            );
        }
        assert_eq!(Theme::from_name("mate"), None);
    }
}
