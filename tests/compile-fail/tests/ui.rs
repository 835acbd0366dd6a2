//! Compile-fail tests: one mistake per file in `tests/compile-fail/ui/`,
//! named after the mistake, with the compiler's exact output beside it in a
//! `.stderr` file. trybuild checks them all in one cargo run, each case a
//! binary of its own.

#[test]
fn mistakes_are_compile_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}
