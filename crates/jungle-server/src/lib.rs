//! The Jungle web platform: axum router, game rooms, websockets, SQLite storage, embedded front end.
