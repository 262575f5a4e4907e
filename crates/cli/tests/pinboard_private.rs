//! A Pinboard post whose `shared` is anything but exactly "yes" never
//! reaches a published page.

use assert_cmd::Command;
use predicates::prelude::*;

#[test]
fn a_post_not_shared_as_yes_is_not_in_xfolk_output() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("pinboard.json");
    std::fs::write(
        &json,
        r#"[{"href":"https://public.example/","description":"Public","hash":"a","shared":"yes","toread":"no","tags":"t"},
{"href":"https://false.example/","description":"False","hash":"b","shared":false,"toread":"no","tags":"t"},
{"href":"https://upper.example/","description":"Upper","hash":"c","shared":"NO","toread":"no","tags":"t"},
{"href":"https://zero.example/","description":"Zero","hash":"d","shared":0,"toread":"no","tags":["t"]}]"#,
    )
    .unwrap();
    let out = Command::cargo_bin("markport")
        .unwrap()
        .args(["convert", "--from", "pinboard", "--to", "xfolk"])
        .arg(&json)
        .assert()
        .success()
        .stderr(predicate::str::contains("2:").and(predicate::str::contains("private")))
        .get_output()
        .stdout
        .clone();
    let page = String::from_utf8(out).unwrap();
    assert!(page.contains("https://public.example/"), "{page}");
    for private in ["false.example", "upper.example", "zero.example"] {
        assert!(!page.contains(private), "{private} published:\n{page}");
    }
}
