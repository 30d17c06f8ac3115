//! The embedded course: it reads (every stage's solution reaches its goal and its wrong move does not, both
//! checked by `Course::from_text`), and a bad file is refused with a message naming the lesson and stage.

use jungle_platform::lessons::attempt::{AttemptError, Failure, Status, play, stars};
use jungle_platform::lessons::course::{COURSE, Course, CourseError};
use jungle_rules::{Outcome, Side, Termination};

fn course() -> Course {
    Course::from_text(COURSE).unwrap_or_else(|e| panic!("lessons.json: {e}"))
}

#[test]
fn every_stage_solution_reaches_its_goal_in_its_best_number_of_moves() {
    let course = course();
    assert!(
        course.lessons.len() >= 9,
        "the course teaches the whole game"
    );
    for lesson in &course.lessons {
        for (i, stage) in lesson.stages.iter().enumerate() {
            let attempt = play(stage, &stage.data.solution).unwrap();
            assert_eq!(
                attempt.status,
                Status::Done { stars: 3 },
                "{} stage {}",
                lesson.id,
                i + 1
            );
            // The wrong move is either refused or leaves the goal unreached.
            if let Ok(attempt) = play(stage, std::slice::from_ref(&stage.data.wrong)) {
                assert!(
                    !matches!(attempt.status, Status::Done { .. }),
                    "{} stage {}: the wrong move reaches the goal",
                    lesson.id,
                    i + 1
                );
            }
        }
    }
}

#[test]
fn the_rat_cannot_take_the_elephant_from_the_water() {
    let course = course();
    let stage = course.stage("rat-and-elephant", 2).unwrap();
    assert_eq!(
        play(stage, &["c5d5".to_string()]).unwrap_err(),
        AttemptError::Illegal {
            number: 1,
            text: "c5d5".into()
        }
    );
}

#[test]
fn a_longer_way_earns_fewer_stars() {
    assert_eq!(stars(2, 2), 3);
    assert_eq!(stars(4, 2), 2);
    assert_eq!(stars(5, 2), 1);
    let course = course();
    // The Cat walks round the long way: b3 a3 ... still reaching d5.
    let stage = course.stage("rat-swims", 3).unwrap();
    let long: Vec<String> = ["b3a3", "a3b3", "b3c3", "c3d3", "d3d4", "d4d5"]
        .map(String::from)
        .to_vec();
    assert_eq!(
        play(stage, &long).unwrap().status,
        Status::Done { stars: 2 }
    );
}

#[test]
fn moves_after_the_goal_and_unreadable_moves_are_refused() {
    let course = course();
    let stage = course.stage("rat-swims", 1).unwrap();
    let after = ["a4b4", "b4b5"].map(String::from);
    assert_eq!(
        play(stage, &after).unwrap_err(),
        AttemptError::Over { number: 2 }
    );
    assert!(matches!(
        play(stage, &["zz99".to_string()]).unwrap_err(),
        AttemptError::Unreadable { number: 1, .. }
    ));
}

#[test]
fn a_hidden_attack_lost_by_the_weaker_animal_shows_the_defender() {
    let course = course();
    let stage = course.stage("hidden-jungle", 2).unwrap();
    assert!(stage.data.hidden);
    assert!(
        play(stage, &[])
            .unwrap()
            .view_fen(stage)
            .starts_with("6x/7/4R2/3x3/3C3/")
    );
    // The Cat attacks the Elephant and is lost; the stage goes on with the Rat.
    let attempt = play(stage, &["d5d6".to_string()]).unwrap();
    assert_eq!(attempt.status, Status::Continue);
    assert!(attempt.position().piece_at("d5".parse().unwrap()).is_none());
    // The Elephant that won is shown now; the Dog far away stays face down.
    let view = attempt.view_fen(stage);
    assert!(view.contains("/3e3/"), "{view}");
    assert!(view.starts_with("7/6x/"), "{view}");
}

#[test]
fn a_stage_fails_when_the_game_ends_without_the_goal() {
    // A stage of its own: the Cat should step to a1; stepping onto c1 instead, beside the Elephant, loses it.
    let text = r#"{ "lessons": [ { "id": "test", "title": { "en": "t", "zh": "t" }, "intro": { "en": "i", "zh": "i" },
        "stages": [ { "fen": "7/7/7/7/7/7/7/2e4/1C5 w", "goal": { "kind": "reach", "animal": "C", "squares": ["a1"] },
            "text": { "en": "Step to a1.", "zh": "走到 a1。" }, "solution": ["b1a1"], "replies": ["c2c1"],
            "wrong": "b1c1" } ] } ] }"#;
    let course = Course::from_text(text).unwrap();
    let stage = course.stage("test", 1).unwrap();
    let attempt = play(stage, &["b1c1".to_string()]).unwrap();
    assert_eq!(attempt.replies, vec!["c2c1".parse().unwrap()]);
    assert_eq!(
        attempt.status,
        Status::Failed(Failure::GameOver(Outcome::win(
            Side::Red,
            Termination::AllCaptured
        )))
    );
    assert_eq!(
        play(stage, &["b1c1".to_string(), "c1d1".to_string()]).unwrap_err(),
        AttemptError::Over { number: 2 }
    );
}

fn broken(edit: impl FnOnce(&mut serde_json::Value)) -> CourseError {
    let mut value: serde_json::Value = serde_json::from_str(COURSE).unwrap();
    edit(&mut value);
    Course::from_text(&value.to_string()).unwrap_err()
}

#[test]
fn a_bad_course_file_says_what_is_wrong() {
    let error = broken(|v| v["lessons"][0]["stages"][1]["solution"] = serde_json::json!(["b3b4"]));
    assert!(
        error
            .to_string()
            .starts_with("lesson rat-swims, stage 2: after 1 move(s)"),
        "{error}"
    );
    let error = broken(|v| v["lessons"][2]["stages"][0]["wrong"] = serde_json::json!("d5d6"));
    assert_eq!(
        error.to_string(),
        "lesson rat-and-elephant, stage 1: the wrong move \"d5d6\" reaches the goal"
    );
    let error = broken(|v| v["lessons"][0]["stages"][0]["fen"] = serde_json::json!("7/7 w"));
    assert!(
        error
            .to_string()
            .starts_with("lesson rat-swims, stage 1: fen:"),
        "{error}"
    );
    let error = broken(|v| v["lessons"][1]["id"] = serde_json::json!("rat-swims"));
    assert_eq!(error.to_string(), "lesson rat-swims: the id is used twice");
    let error = broken(|v| v["lessons"][0]["stages"][0]["text"]["zh"] = serde_json::json!(""));
    assert!(
        error
            .to_string()
            .ends_with("the text is needed in both languages"),
        "{error}"
    );
    assert!(matches!(Course::from_text("{"), Err(CourseError::Json(_))));
}
