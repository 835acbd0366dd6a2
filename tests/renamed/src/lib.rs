//! Tests only: see `tests/renamed_facade.rs`.
