//! Compile-fail tests through the renamed facade: one mistake per file in
//! `ui/`, with the compiler's exact output beside it in a `.stderr` file.

#[test]
fn mistakes_through_a_renamed_facade_are_reported_alone() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}
