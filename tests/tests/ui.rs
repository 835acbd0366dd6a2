//! Compile-fail tests: one mistake per file in `tests/ui/`, named after the
//! mistake, with the compiler's exact output beside it in a `.stderr` file.

#[test]
fn mistakes_are_compile_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}
