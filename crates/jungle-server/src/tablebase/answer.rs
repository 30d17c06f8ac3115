//! What the tablebase explorer says about one position: its value and every legal move's value, best first,
//! or why the tables do not cover it.

use jungle_platform::protocol::BoardView;
use jungle_rules::{Position, Rules};
use jungle_tb::{Material, Probe, Tablebases, file::table_rules};
use serde::Serialize;

/// The explorer's answer for a position that could be read.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    /// Whether the tables give the position's value (and every move's).
    pub covered: bool,
    /// Why not, in words, when not covered.
    pub reason: Option<String>,
    /// Why not, as a word a page can translate: `no_tables`, `other_rules`, `too_many_pieces`, `missing_table`.
    pub reason_code: Option<&'static str>,
    /// The rules the server's tables were made under (`null` without tables): the only rules answered for.
    pub rules: Option<String>,
    /// The position, canonical.
    pub fen: String,
    pub turn: &'static str,
    /// `win`, `draw` or `loss` for the side to move, when covered.
    pub result: Option<&'static str>,
    /// Plies to the end of the game with perfect play (the winner hurrying, the loser delaying); `null` for a
    /// draw.
    pub distance: Option<u32>,
    /// Why the game is already over in this position, if it is (then there are no moves).
    pub over: Option<String>,
    /// Every legal move, best first for the side to move, when covered.
    pub moves: Vec<MoveValue>,
    /// What the rules make of the board, for drawing it.
    pub board: BoardView,
}

/// One legal move and what it leads to, in the mover's view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveValue {
    pub uci: String,
    /// `win`, `draw` or `loss` for the player making the move.
    pub result: &'static str,
    /// Plies to the end after the move, counting the move itself; `null` for a draw.
    pub distance: Option<u32>,
    pub capture: bool,
    /// The position after the move, so a page can go there.
    pub fen: String,
}

impl MoveValue {
    fn new(pos: &Position, m: jungle_rules::Move, value: Probe) -> MoveValue {
        MoveValue {
            uci: m.to_string(),
            result: value.wdl.as_str(),
            distance: value.plies,
            capture: pos.is_capture(m),
            fen: jungle_rules::fen::to_fen(&pos.after(m)),
        }
    }
}

/// Looks a position up. `rules` is the rule set the page plays under (`None`: the tables' own); `Err` says
/// what is wrong with the FEN or the rules (a bad request).
///
/// # Errors
/// The FEN or the rules cannot be read (too long, malformed, an impossible position).
pub fn explore(
    tables: Option<&Tablebases>,
    fen: &str,
    rules: Option<&str>,
) -> Result<Answer, String> {
    let tables_rules = tables.map(|t| t.rules().to_string());
    let wanted = rules
        .map(str::to_string)
        .or_else(|| tables_rules.clone())
        .unwrap_or_else(|| Rules::default().to_string());
    let game = jungle_platform::analysis::read_position(fen, &wanted)?;
    let (pos, rules) = (game.position(), game.rules());
    let blank = Answer {
        covered: false,
        reason: None,
        reason_code: None,
        rules: tables_rules.clone(),
        fen: jungle_rules::fen::to_fen(pos),
        turn: jungle_platform::side_name(pos.side_to_move()),
        result: None,
        distance: None,
        over: None,
        moves: Vec::new(),
        board: BoardView::of(rules),
    };
    let not_covered = |code: &'static str, reason: String| Answer {
        reason: Some(reason),
        reason_code: Some(code),
        ..blank.clone()
    };
    let Some(tables) = tables else {
        return Ok(not_covered(
            "no_tables",
            "this server has no tablebases".into(),
        ));
    };
    // The draw options never change a table, so a game under `quiet-ply-limit=100` is still answered.
    if table_rules(rules) != table_rules(tables.rules()) {
        return Ok(not_covered(
            "other_rules",
            format!(
                "the tables are for the rules \"{}\", not \"{rules}\"",
                tables.rules()
            ),
        ));
    }
    let pieces = pos.occupied().count() as usize;
    if pieces > tables.max_pieces() {
        return Ok(not_covered(
            "too_many_pieces",
            format!(
                "{pieces} pieces; the tables here have at most {}",
                tables.max_pieces()
            ),
        ));
    }
    let missing = |material: Material| {
        not_covered(
            "missing_table",
            format!("no table for the material {}", material.canonical()),
        )
    };
    let Some(value) = tables.probe(pos) else {
        return Ok(missing(Material::of(pos)));
    };
    let over = pos.outcome(rules);
    let moves = if over.is_some() {
        Vec::new()
    } else {
        match tables.probe_moves(pos) {
            Some(moves) => moves
                .into_iter()
                .map(|(m, value)| MoveValue::new(pos, m, value))
                .collect(),
            // A capture leads into a smaller material whose table is not here.
            None => return Ok(missing(first_missing(tables, pos))),
        }
    };
    Ok(Answer {
        covered: true,
        result: Some(value.wdl.as_str()),
        distance: value.plies,
        over: over.map(|o| o.to_string()),
        moves,
        ..blank
    })
}

/// The material of the first successor of `pos` the tables cannot value.
fn first_missing(tables: &Tablebases, pos: &Position) -> Material {
    pos.legal_moves(tables.rules())
        .as_slice()
        .iter()
        .map(|&m| pos.after(m))
        .find(|next| tables.probe(next).is_none())
        .map_or_else(|| Material::of(pos), |next| Material::of(&next))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::OnceLock;

    use jungle_tb::BuildOptions;

    use super::*;

    /// Blue Lion a6 and Rat e1 against the Red Elephant a7, Blue to move: some moves win, some draw, some
    /// lose (found with `jungle tb probe`).
    const MIXED: &str = "7/7/e6/L6/7/7/7/7/4R2 w";

    /// The standard tables of `LR-e` and the materials its captures lead to, made once per test run.
    fn tables() -> &'static Tablebases {
        static TABLES: OnceLock<Tablebases> = OnceLock::new();
        TABLES.get_or_init(|| {
            let dir: PathBuf = std::env::temp_dir().join(format!(
                "jungle-server-explorer-unit-{}",
                std::process::id()
            ));
            let _ = std::fs::remove_dir_all(&dir);
            let options = BuildOptions {
                out: dir.clone(),
                materials: vec!["LR-e".parse().unwrap()],
                with_smaller_materials: true,
                memory_limit: 1 << 30,
                threads: 1,
                dtz: false,
            };
            jungle_tb::build(&Rules::default(), &options, &|_| {}).unwrap();
            Tablebases::open_dir(&dir).unwrap()
        })
    }

    /// How good a move is for its mover, independently of the tables' own ordering: any win beats any draw
    /// beats any loss, a quicker win and a slower loss are better.
    fn goodness(m: &MoveValue) -> (u8, i64) {
        let plies = i64::from(m.distance.unwrap_or(0));
        match m.result {
            "win" => (2, -plies),
            "draw" => (1, 0),
            "loss" => (0, plies),
            other => panic!("unknown result {other}"),
        }
    }

    #[test]
    fn moves_come_best_first_wins_by_shortest_then_draws_then_losses_by_longest() {
        let answer = explore(Some(tables()), MIXED, None).unwrap();
        assert!(answer.covered, "{answer:?}");
        let results: Vec<&str> = answer.moves.iter().map(|m| m.result).collect();
        for kind in ["win", "draw", "loss"] {
            assert!(results.contains(&kind), "{kind} among {results:?}");
        }
        for pair in answer.moves.windows(2) {
            assert!(
                goodness(&pair[0]) >= goodness(&pair[1]),
                "{:?} before {:?}",
                pair[0],
                pair[1]
            );
        }
        // The position's own value is its best move's.
        assert_eq!(answer.result, Some(answer.moves[0].result));
        assert_eq!(answer.distance, answer.moves[0].distance);
        assert_eq!(answer.rules.as_deref(), Some("standard"));
    }

    #[test]
    fn every_legal_move_is_listed_once_with_its_capture_flag_and_position() {
        let rules = Rules::default();
        // Red to move: the Elephant a7 can take the Lion a6.
        let fen = MIXED.replace(" w", " b");
        let answer = explore(Some(tables()), &fen, None).unwrap();
        let pos = Position::from_fen(&fen, &rules).unwrap();
        let mut listed: Vec<&str> = answer.moves.iter().map(|m| m.uci.as_str()).collect();
        listed.sort_unstable();
        let mut legal: Vec<String> = pos
            .legal_moves(&rules)
            .as_slice()
            .iter()
            .map(ToString::to_string)
            .collect();
        legal.sort_unstable();
        assert_eq!(listed, legal);
        let take = answer.moves.iter().find(|m| m.uci == "a7a6").unwrap();
        assert!(take.capture);
        assert!(
            take.fen.starts_with("7/7/7/e6/7/7/7/7/4R2 w "),
            "{}",
            take.fen
        );
        assert_eq!(answer.moves.iter().filter(|m| m.capture).count(), 1);
    }

    #[test]
    fn positions_the_tables_do_not_cover_say_why() {
        let code = |tables: Option<&Tablebases>, fen: &str, rules: Option<&str>| {
            let answer = explore(tables, fen, rules).unwrap();
            assert!(!answer.covered && answer.moves.is_empty(), "{answer:?}");
            answer.reason_code.unwrap()
        };
        assert_eq!(code(None, MIXED, None), "no_tables");
        assert_eq!(code(Some(tables()), MIXED, Some("modern")), "other_rules");
        let start = jungle_rules::START_FEN;
        assert_eq!(code(Some(tables()), start, None), "too_many_pieces");
        // A Tiger against a Cat: two pieces, but no table for them was made.
        assert_eq!(
            code(Some(tables()), "7/7/7/3t3/7/7/7/7/2C4 w", None),
            "missing_table"
        );
        // The draw options do not change a table: a game with a shorter quiet-ply limit is answered.
        let answer = explore(Some(tables()), MIXED, Some("standard,quiet-ply-limit=100")).unwrap();
        assert!(answer.covered);
    }

    #[test]
    fn a_finished_game_is_a_loss_in_zero_without_moves() {
        // The Blue Lion stands in Red's den.
        let answer = explore(Some(tables()), "3L3/7/e6/7/7/7/7/7/4R2 b", None).unwrap();
        assert!(answer.covered);
        assert_eq!((answer.result, answer.distance), (Some("loss"), Some(0)));
        assert!(answer.over.is_some() && answer.moves.is_empty());
    }

    #[test]
    fn unreadable_input_is_an_error() {
        assert!(explore(Some(tables()), "7/7/e6/L6 w", None).is_err());
        assert!(explore(Some(tables()), MIXED, Some("no-such-rule")).is_err());
        assert!(explore(None, &"7/".repeat(400), None).is_err());
    }
}
