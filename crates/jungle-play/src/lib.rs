//! The Jungle terminal game: ratatui board, keyboard play, engine opponents, line mode.
