//! What a stage is: the file's words for it (texts, goal, position, solution) and the stage once read, shared
//! by the course that reads and checks it and the judge that plays it.

use jungle_rules::{Animal, Position, Rules, Side, Square};
use serde::{Deserialize, Serialize};

/// Most moves a learner may make in one stage before it counts as failed (stages need a handful).
pub const MAX_LEARNER_MOVES: usize = 30;

/// A text in each language of the interface.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Words {
    pub en: String,
    pub zh: String,
}

/// What the learner must do in a stage (the learner is the side to move in the stage's position).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Goal {
    /// One of the learner's animals of this kind (FEN letter) stands on any of these squares.
    Reach { animal: char, squares: Vec<String> },
    /// None of the opponent's animals of these kinds (FEN letters) is left on the board.
    Capture { animals: Vec<char> },
    /// The game ends with the learner's win (den, last piece, opponent without a move).
    Win,
    /// The game ends in a draw by the draw rules.
    Draw,
}

/// One stage as written in the file.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct StageData {
    pub fen: String,
    #[serde(default)]
    pub rules: String,
    /// Hidden Jungle: the opponent's animals are shown face down until revealed, and a move onto an enemy
    /// piece is an attack that the weaker animal loses (docs/rules.md §9).
    #[serde(default)]
    pub hidden: bool,
    pub goal: Goal,
    pub text: Words,
    /// The learner's moves of a shortest way to the goal; its length is the stage's best (three stars).
    pub solution: Vec<String>,
    /// The opponent's replies, one after each learner move, played when legal (else the first legal move).
    #[serde(default)]
    pub replies: Vec<String>,
    /// A tempting move that must not reach the goal: illegal, or legal and leaving the goal unreached.
    pub wrong: String,
}

/// One lesson as written in the file.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LessonData {
    pub id: String,
    pub title: Words,
    pub intro: Words,
    pub stages: Vec<StageData>,
}

/// A stage read and checked: the data with its rules and start position.
#[derive(Clone, Debug)]
pub struct Stage {
    pub data: StageData,
    pub rules: Rules,
    pub start: Position,
    pub learner: Side,
    /// The goal's squares and animals, read.
    pub target: Target,
    pub replies: Vec<jungle_rules::Move>,
}

/// A goal with its squares and animals read.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    Reach {
        animal: Animal,
        squares: Vec<Square>,
    },
    Capture {
        animals: Vec<Animal>,
    },
    Win,
    Draw,
}

impl Stage {
    /// How many learner moves the stage's best way takes.
    pub fn best(&self) -> usize {
        self.data.solution.len()
    }
}
