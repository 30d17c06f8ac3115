//! Lessons without the web: the embedded course (`lessons/lessons.json`, see docs/lessons.md) of lessons made of
//! short stages, and the judge that plays a learner's moves through the rules, answers the opponent's scripted
//! replies and says when a stage's goal is reached and with how many stars.

pub mod attempt;
pub mod course;
pub mod stage;
