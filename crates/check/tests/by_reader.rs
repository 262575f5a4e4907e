//! Where a reader already finds a problem, it tags its diagnostic with
//! check's rule and position, and check lists that: Pinboard's rules live
//! in its reader, check carries no second parser of it.

use markport::ReadOptions;

const POSTS: &str = r#"[
  {"href": "https://a.example/", "time": "2023-11-14 22:13:20", "shared": "yes"},
  {"href": "https://b.example/", "time": 5, "shared": "true"},
  {"href": "  ", "shared": "no", "toread": 1},
  {"description": "no link", "shared": "no"},
  "https://c.example/"
]"#;

#[test]
fn pinboard_problems_come_from_its_reader_by_rule_and_place() {
    let pinboard = markport::format("pinboard").unwrap();
    let problems = markport_check::check(POSTS.as_bytes(), pinboard);
    let found: Vec<(u32, u32, &str)> = problems
        .iter()
        .map(|p| (p.line, p.column, p.rule))
        .collect();
    assert_eq!(
        found,
        [
            // A time Pinboard does not write, read all the same.
            (2, 42, "pinboard/bad-date"),
            (3, 42, "pinboard/structure"),
            (3, 55, "pinboard/bad-flag"),
            (4, 3, "pinboard/missing-href"),
            (4, 44, "pinboard/structure"),
            (5, 3, "pinboard/missing-href"),
            (6, 3, "pinboard/structure"),
        ],
        "{problems:#?}"
    );
    // The reader says the same, tagged: one parser.
    let read = (pinboard.read)(POSTS.as_bytes(), &ReadOptions::default()).unwrap();
    let tagged = read.diagnostics.iter().filter(|d| d.rule.is_some()).count();
    assert_eq!(tagged, problems.len());
    // Not JSON: the reader's error, under the format's rule.
    let cut = markport_check::check(&POSTS.as_bytes()[..60], pinboard);
    assert_eq!(cut.len(), 1);
    assert_eq!(cut[0].rule, "pinboard/not-json");
}
