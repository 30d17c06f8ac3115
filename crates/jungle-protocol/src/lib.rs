//! The UCI-shaped Jungle engine protocol: commands and responses as types, and a Session driving an Engine.
