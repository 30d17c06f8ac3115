//! Engine-vs-engine matches for Jungle: engines as processes, openings, clocks, adjudication, Elo and SPRT.
