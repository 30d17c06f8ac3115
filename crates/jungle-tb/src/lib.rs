//! Jungle endgame tablebases: material keys, indexing, retrograde generation, file format, probing.
