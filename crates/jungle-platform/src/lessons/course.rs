//! The course: lessons → stages, read from the embedded data file and checked once at load, so a stage that
//! is served is known to be playable: its position valid under its rules, its goal well formed, its solution
//! legal and reaching the goal, its wrong move not reaching it.

use std::collections::HashMap;
use std::sync::LazyLock;

use jungle_rules::{Animal, Position, Rules};
use serde::Deserialize;

use super::attempt::{Status, play};
pub use super::stage::{Goal, LessonData, MAX_LEARNER_MOVES, Stage, StageData, Target, Words};

/// The course file's text.
pub const COURSE: &str = include_str!("../../lessons/lessons.json");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CourseFile {
    lessons: Vec<LessonData>,
}

/// A lesson read and checked.
#[derive(Clone, Debug)]
pub struct Lesson {
    pub id: String,
    pub title: Words,
    pub intro: Words,
    pub stages: Vec<Stage>,
}

/// The whole course, in teaching order.
#[derive(Debug)]
pub struct Course {
    pub lessons: Vec<Lesson>,
    by_id: HashMap<String, usize>,
}

/// Why a course file cannot be used; each message names the lesson and stage.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CourseError {
    #[error("the course file is not valid: {0}")]
    Json(String),
    #[error("lesson {lesson}: {message}")]
    Lesson { lesson: String, message: String },
    #[error("lesson {lesson}, stage {stage}: {message}")]
    Stage {
        lesson: String,
        stage: usize,
        message: String,
    },
}

/// The embedded course. The tests read the file with [`Course::from_text`] and fail on any error; should a bad
/// file still be built, the server serves no lessons rather than failing to start.
pub static COURSE_LESSONS: LazyLock<Course> = LazyLock::new(|| {
    Course::from_text(COURSE).unwrap_or_else(|e| {
        tracing::error!(error = %e, "the embedded lessons do not read");
        Course {
            lessons: Vec::new(),
            by_id: HashMap::new(),
        }
    })
});

/// A lesson id: lowercase letters, digits and `-`, at most this long (ids are part of URLs and progress keys).
pub const MAX_ID_LEN: usize = 40;

pub fn is_lesson_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

impl Course {
    /// Reads and checks a course file.
    ///
    /// # Errors
    /// The first problem found, naming its lesson and stage.
    pub fn from_text(text: &str) -> Result<Course, CourseError> {
        let file: CourseFile =
            serde_json::from_str(text).map_err(|e| CourseError::Json(e.to_string()))?;
        let mut lessons = Vec::new();
        let mut by_id = HashMap::new();
        for data in file.lessons {
            let lesson_error = |message: &str| CourseError::Lesson {
                lesson: data.id.clone(),
                message: message.to_string(),
            };
            if !is_lesson_id(&data.id) {
                return Err(lesson_error(
                    "the id must be 1-40 lowercase letters, digits and '-'",
                ));
            }
            if by_id.insert(data.id.clone(), lessons.len()).is_some() {
                return Err(lesson_error("the id is used twice"));
            }
            if data.stages.is_empty() {
                return Err(lesson_error("a lesson needs at least one stage"));
            }
            let stages = data
                .stages
                .iter()
                .enumerate()
                .map(|(i, stage)| {
                    read_stage(stage).map_err(|message| CourseError::Stage {
                        lesson: data.id.clone(),
                        stage: i + 1,
                        message,
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            lessons.push(Lesson {
                id: data.id,
                title: data.title,
                intro: data.intro,
                stages,
            });
        }
        Ok(Course { lessons, by_id })
    }

    pub fn get(&self, id: &str) -> Option<&Lesson> {
        self.by_id.get(id).map(|&i| &self.lessons[i])
    }

    /// The stage `number` (counted from 1) of lesson `id`.
    pub fn stage(&self, id: &str, number: usize) -> Option<&Stage> {
        self.get(id)?.stages.get(number.checked_sub(1)?)
    }
}

fn animal(letter: char) -> Result<Animal, String> {
    Animal::from_letter(letter.to_ascii_uppercase())
        .ok_or_else(|| format!("\"{letter}\" is not an animal letter (E L T P D W C R)"))
}

fn moves(texts: &[String]) -> Result<Vec<jungle_rules::Move>, String> {
    texts
        .iter()
        .map(|t| t.parse().map_err(|e| format!("move \"{t}\": {e}")))
        .collect()
}

/// Reads a stage, then plays its solution (it must reach the goal, and not before its last move) and its wrong
/// move (it must not).
fn read_stage(data: &StageData) -> Result<Stage, String> {
    let rules: Rules = data.rules.parse().map_err(|e| format!("rules: {e}"))?;
    let start = Position::from_fen(&data.fen, &rules).map_err(|e| e.to_string())?;
    let target = match &data.goal {
        Goal::Reach { animal: a, squares } => Target::Reach {
            animal: animal(*a)?,
            squares: squares
                .iter()
                .map(|s| s.parse().map_err(|e| format!("goal square \"{s}\": {e}")))
                .collect::<Result<_, String>>()?,
        },
        Goal::Capture { animals } => Target::Capture {
            animals: animals
                .iter()
                .map(|&a| animal(a))
                .collect::<Result<_, _>>()?,
        },
        Goal::Win => Target::Win,
        Goal::Draw => Target::Draw,
    };
    if matches!(&target, Target::Reach { squares, .. } if squares.is_empty())
        || matches!(&target, Target::Capture { animals } if animals.is_empty())
    {
        return Err("the goal names nothing to reach or capture".into());
    }
    if data.text.en.trim().is_empty() || data.text.zh.trim().is_empty() {
        return Err("the text is needed in both languages".into());
    }
    if data.solution.is_empty() || data.solution.len() > MAX_LEARNER_MOVES {
        return Err(format!(
            "the solution must have 1 to {MAX_LEARNER_MOVES} moves"
        ));
    }
    let stage = Stage {
        learner: start.side_to_move(),
        replies: moves(&data.replies)?,
        data: data.clone(),
        rules,
        start,
        target,
    };
    for n in 1..=stage.data.solution.len() {
        let attempt = play(&stage, &stage.data.solution[..n])
            .map_err(|e| format!("the solution does not play: {e}"))?;
        match (attempt.status, n == stage.best()) {
            (Status::Continue, false) => {}
            (Status::Done { .. }, true) => {}
            (status, _) => {
                return Err(format!(
                    "after {n} move(s) of the solution the stage is {status:?}, \
                     expected the goal reached after exactly {} move(s)",
                    stage.best()
                ));
            }
        }
    }
    if let Ok(attempt) = play(&stage, std::slice::from_ref(&stage.data.wrong))
        && matches!(attempt.status, Status::Done { .. })
    {
        return Err(format!(
            "the wrong move \"{}\" reaches the goal",
            stage.data.wrong
        ));
    }
    Ok(stage)
}
