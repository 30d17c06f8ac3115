-- Puzzles (docs/puzzles.md): the Glicko-2 rating of each puzzle and of each signed-in solver, and the one
-- rated attempt of each solver at each puzzle. The puzzles themselves are embedded in the binary; a puzzle
-- without a row here has the newcomer rating.
CREATE TABLE puzzle_ratings (
    puzzle_id TEXT PRIMARY KEY,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts INTEGER NOT NULL,
    solved INTEGER NOT NULL
);

CREATE TABLE puzzle_solvers (
    user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts INTEGER NOT NULL,
    solved INTEGER NOT NULL
);

CREATE TABLE puzzle_attempts (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    puzzle_id TEXT NOT NULL,
    solved INTEGER NOT NULL,
    played_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
);
