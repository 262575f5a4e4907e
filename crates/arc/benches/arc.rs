//! Reading a generated StorableSidebar.json of 100,000 pinned tabs in 20
//! spaces (a list of 50 tabs in each group of 100, renamed titles on every
//! third, Arc's pretty layout and its other keys), plus as many unpinned
//! Today tabs as one in ten, as `markport convert StorableSidebar.json`
//! reads it.

use std::fmt::Write;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const N: usize = 100_000;
const SPACES: usize = 20;

fn item(
    out: &mut String,
    id: &str,
    parent: &str,
    children: &[String],
    title: Option<&str>,
    data: &str,
) {
    let kids = children
        .iter()
        .map(|c| format!("\"{c}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let title = title.map_or("null".to_string(), |t| format!("\"{t}\""));
    write!(
        out,
        "\"{id}\",\n{{\n  \"id\" : \"{id}\",\n  \"parentID\" : \"{parent}\",\n  \"childrenIds\" : [ {kids} ],\n  \"title\" : {title},\n  \"createdAt\" : 719151798.50738,\n  \"isUnread\" : false,\n  \"originatingDevice\" : \"773F23F6-3FCD-4312-A3E2-F081415126D9\",\n  \"data\" : {data}\n}},\n"
    )
    .unwrap();
}

fn tab(i: usize) -> String {
    format!(
        "{{ \"tab\" : {{ \"savedURL\" : \"https:\\/\\/example.org\\/{}\\/page-{i}?q=markport\", \"savedTitle\" : \"A pinned page titled {i}\", \"savedMuteStatus\" : \"allowAudio\", \"timeLastActiveAt\" : 732306943.556624 }} }}",
        i % 1000
    )
}

fn generate() -> Vec<u8> {
    let mut spaces = String::new();
    let mut items = String::new();
    let per_space = N / SPACES;
    let mut n = 0;
    for s in 0..SPACES {
        let (pinned, unpinned) = (format!("P{s}"), format!("U{s}"));
        writeln!(
            spaces,
            "\"S{s}\", {{ \"id\" : \"S{s}\", \"title\" : \"Space {s}\", \"newContainerIDs\" : [ {{ \"pinned\" : {{ }} }}, \"{pinned}\", {{ \"unpinned\" : {{ }} }}, \"{unpinned}\" ] }},"
        )
        .unwrap();
        let mut top = Vec::new();
        let mut i = 0;
        while i < per_space {
            // A list of 50 in each 100.
            let list = format!("L{n}");
            let kids: Vec<String> = (0..50).map(|k| format!("T{}", n + k)).collect();
            item(
                &mut items,
                &list,
                &pinned,
                &kids,
                Some("A folder"),
                "{ \"list\" : { } }",
            );
            for k in &kids {
                let t = n;
                item(
                    &mut items,
                    k,
                    &list,
                    &[],
                    (t % 3 == 0).then_some("Renamed"),
                    &tab(t),
                );
                n += 1;
            }
            top.push(list);
            for _ in 0..50 {
                let id = format!("T{n}");
                item(&mut items, &id, &pinned, &[], None, &tab(n));
                top.push(id);
                n += 1;
            }
            i += 100;
        }
        item(
            &mut items,
            &pinned,
            "null",
            &top,
            None,
            "{ \"itemContainer\" : { } }",
        );
        let today: Vec<String> = (0..per_space / 10).map(|k| format!("D{s}-{k}")).collect();
        for k in &today {
            item(&mut items, k, &unpinned, &[], None, &tab(0));
        }
        item(
            &mut items,
            &unpinned,
            "null",
            &today,
            None,
            "{ \"itemContainer\" : { } }",
        );
    }
    spaces.truncate(spaces.len() - 2);
    items.truncate(items.len() - 2);
    format!(
        "{{\n\"sidebar\" : {{ \"containers\" : [ {{ \"global\" : {{ }} }}, {{ \"spaces\" : [\n{spaces}\n], \"items\" : [\n{items}\n], \"topAppsContainerIDs\" : [ ] }} ] }},\n\"version\" : 1\n}}\n"
    )
    .into_bytes()
}

fn bench(c: &mut Criterion) {
    let bytes = generate();
    let mut group = c.benchmark_group("arc");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(10);
    let parsed = markport_arc::read(&bytes, &Default::default()).unwrap();
    assert_eq!(parsed.document.census().bookmarks, N);
    group.bench_function("read 100,000 pinned tabs", |b| {
        b.iter_with_large_drop(|| markport_arc::read(&bytes, &Default::default()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
