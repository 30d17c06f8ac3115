//! The puzzle collection embedded in the binary (`crates/jungle-platform/puzzles/puzzles.jsonl`, made by
//! `jungle puzzles`, see docs/puzzles.md): read and replayed once, then looked up by id, theme and day.

use std::collections::HashMap;
use std::sync::LazyLock;

use jungle_puzzles::{Line, Puzzle, Theme, read_collection};

/// The collection file's text.
pub const COLLECTION: &str = include_str!("../../puzzles/puzzles.jsonl");

/// Every puzzle with its replayed line, in file order.
#[derive(Debug)]
pub struct Collection {
    puzzles: Vec<(Puzzle, Line)>,
    by_id: HashMap<String, usize>,
}

/// The embedded collection. A file that does not read back is a build mistake the tests catch; the server
/// then has no puzzles rather than failing to start.
pub static PUZZLES: LazyLock<Collection> = LazyLock::new(|| {
    Collection::from_text(COLLECTION).unwrap_or_else(|e| {
        tracing::error!(error = %e, "the embedded puzzle collection does not read");
        Collection::from_text("").expect("empty is valid")
    })
});

impl Collection {
    /// Reads a collection file's text.
    ///
    /// # Errors
    /// The first bad line.
    pub fn from_text(text: &str) -> Result<Collection, jungle_puzzles::CollectionError> {
        let puzzles = read_collection(text)?;
        let by_id = puzzles
            .iter()
            .enumerate()
            .map(|(i, (p, _))| (p.id.clone(), i))
            .collect();
        Ok(Collection { puzzles, by_id })
    }

    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.puzzles.is_empty()
    }

    pub fn get(&self, id: &str) -> Option<&(Puzzle, Line)> {
        self.by_id.get(id).map(|&i| &self.puzzles[i])
    }

    pub fn all(&self) -> &[(Puzzle, Line)] {
        &self.puzzles
    }

    /// The puzzles with a theme (every puzzle for `None`).
    pub fn with_theme(&self, theme: Option<Theme>) -> impl Iterator<Item = &(Puzzle, Line)> {
        self.puzzles
            .iter()
            .filter(move |(p, _)| theme.is_none_or(|t| p.themes.contains(&t)))
    }

    /// The puzzle of a UTC day (days since 1970-01-01): the same for everyone that day, spread over the
    /// collection by a multiplicative hash so that neighbouring days do not take neighbouring lines.
    pub fn daily(&self, day: i64) -> Option<&(Puzzle, Line)> {
        if self.puzzles.is_empty() {
            return None;
        }
        let spread = (day as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 17;
        self.puzzles
            .get((spread % self.puzzles.len() as u64) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_collection_reads_and_every_day_has_a_puzzle() {
        let c = Collection::from_text(COLLECTION).expect("the committed collection reads");
        assert!(c.len() >= 100, "{} puzzles", c.len());
        let today = c.daily(20_000).unwrap();
        assert_eq!(
            c.daily(20_000).unwrap().0.id,
            today.0.id,
            "the same all day"
        );
        let days: std::collections::HashSet<_> = (20_000..20_030)
            .map(|d| c.daily(d).unwrap().0.id.clone())
            .collect();
        assert!(
            days.len() > 20,
            "a month shows many puzzles: {}",
            days.len()
        );
        for theme in Theme::ALL {
            assert!(
                c.with_theme(Some(theme))
                    .all(|(p, _)| p.themes.contains(&theme))
            );
        }
    }
}
