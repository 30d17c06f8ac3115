//! The opening explorer's second source: engine self-play games rather than the server's own (docs/server.md,
//! "Opening explorer"). A collection is made by `jungle explorer collect` ([`SelfPlay`]), kept as text
//! ([`collection`]) and shipped inside the binary compressed; the server reads it into an [`OpeningIndex`] the
//! first time the explorer is asked for it.

pub mod collection;
mod generate;
mod index;

use std::io::Read;
use std::sync::OnceLock;

pub use collection::{CollectedGame, Collection, CollectionError};
pub use generate::SelfPlay;
pub use index::OpeningIndex;

/// The collection shipped for the standard rules (`jungle explorer collect`, its header says how).
static STANDARD: &[u8] = include_bytes!("../../openings/standard.txt.zst");

/// The most bytes a compressed collection may unpack to (the shipped one is a few megabytes).
const MAX_TEXT_BYTES: u64 = 256 << 20;

/// Reads a zstd-compressed collection.
///
/// # Errors
/// When it does not unpack, is larger than 256 MiB unpacked or does not read.
pub fn unpack(bytes: &[u8]) -> Result<Collection, CollectionError> {
    let decoder = zstd::Decoder::new(bytes).map_err(|e| CollectionError::Unpack(e.to_string()))?;
    let mut text = String::new();
    decoder
        .take(MAX_TEXT_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| CollectionError::Unpack(e.to_string()))?;
    if text.len() as u64 > MAX_TEXT_BYTES {
        return Err(CollectionError::Unpack(format!(
            "more than {MAX_TEXT_BYTES} bytes unpacked"
        )));
    }
    collection::read(&text)
}

/// The shipped collection's index, built at the first call (about a second of a core) and kept. A shipped
/// collection that does not read (a build's defect the tests catch) gives an empty index and an error in the
/// log rather than a server that stops.
pub fn shipped() -> &'static OpeningIndex {
    static INDEX: OnceLock<OpeningIndex> = OnceLock::new();
    INDEX.get_or_init(|| match unpack(STANDARD) {
        Ok(collection) => OpeningIndex::new(&collection),
        Err(e) => {
            tracing::error!(error = %e, "the shipped self-play collection does not read");
            OpeningIndex::new(&Collection {
                rules: jungle_rules::Rules::default(),
                games: Vec::new(),
            })
        }
    })
}

#[cfg(test)]
mod tests {
    use jungle_rules::Position;

    use super::*;

    #[test]
    fn the_shipped_collection_reads_whole_and_its_start_counts_every_game() {
        let collection = unpack(STANDARD).unwrap();
        assert!(collection.rules.is_standard());
        assert!(
            collection.games.len() >= 1_000,
            "{}",
            collection.games.len()
        );
        let index = shipped();
        assert_eq!(index.games(), collection.games.len());
        let start = Position::start(&collection.rules).hash();
        let counted: u64 = index.moves_at(start).iter().map(|m| m.games).sum();
        assert_eq!(counted, collection.games.len() as u64);
        // The engine varied its first moves: more than one is played from the start.
        assert!(index.moves_at(start).len() > 1);
    }

    #[test]
    fn what_is_not_zstd_or_not_a_collection_is_refused() {
        assert!(matches!(
            unpack(b"blue a3a4"),
            Err(CollectionError::Unpack(_))
        ));
        let packed = zstd::encode_all(&b"blue a3a4\n"[..], 3).unwrap();
        assert_eq!(
            unpack(&packed).unwrap_err(),
            CollectionError::NotACollection
        );
    }
}
