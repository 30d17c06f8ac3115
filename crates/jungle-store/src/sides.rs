//! Sides as the database and the API write them: `"blue"` and `"red"`, and pairs of values per side.

use jungle_rules::Side;
use serde::Serialize;

/// `blue` / `red`, as the API and the database write sides.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::Blue => "blue",
        Side::Red => "red",
    }
}

pub fn side_from_name(name: &str) -> Option<Side> {
    match name {
        "blue" => Some(Side::Blue),
        "red" => Some(Side::Red),
        _ => None,
    }
}

/// Something per side, as `{"blue": ..., "red": ...}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PerSide<T> {
    pub blue: T,
    pub red: T,
}

impl<T> PerSide<T> {
    pub fn from_fn(mut f: impl FnMut(Side) -> T) -> PerSide<T> {
        PerSide {
            blue: f(Side::Blue),
            red: f(Side::Red),
        }
    }
}
