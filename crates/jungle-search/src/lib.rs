//! The Jungle engine: search, evaluation, transposition table, time management, bench, skill levels.
