//! docs/loss-matrix.md is what the registry says.

#[test]
fn the_loss_matrix_doc_is_current() {
    let path = markport_tests::root().join("docs/loss-matrix.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_default();
    let now = markport::matrix::markdown();
    assert!(
        doc == now,
        "{} is stale: regenerate it with `cargo run -q -p markport-cli -- formats --markdown > docs/loss-matrix.md`",
        path.display()
    );
}
