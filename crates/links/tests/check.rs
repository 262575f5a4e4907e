//! The checker against a scripted server on loopback: every class, the
//! politeness rules, redirects, retries and the state. No request leaves
//! 127.0.0.0/8.

use std::time::{Duration, Instant};

use markport_links::loopback::{closed_port, Server};
use markport_links::{check, collect, Checked, Options, State, Status};
use markport_model::{Bookmark, Document};

fn doc(links: &[String]) -> Document {
    let mut doc = Document::new();
    for l in links {
        doc.push(None, Bookmark::new(l.as_str()));
    }
    doc
}

fn quick() -> Options {
    let mut o = Options::default();
    o.timeout = Duration::from_millis(500);
    o.backoff = Duration::from_millis(20);
    o
}

fn run(links: &[String], opts: &Options) -> Vec<Checked> {
    let mut state = State::in_memory();
    check(&collect(&doc(links)), opts, &mut state, |_, _| {})
        .unwrap()
        .results
}

fn one(link: String, opts: &Options) -> Checked {
    run(&[link], opts).remove(0)
}

#[test]
fn each_class_from_its_answer() {
    let s = Server::start("127.0.0.1");
    let cases = [
        ("/ok", Status::Ok, Some(200)),
        ("/code/204", Status::Ok, Some(204)),
        ("/code/404", Status::Gone, Some(404)),
        ("/code/410", Status::Gone, Some(410)),
        ("/code/401", Status::Blocked, Some(401)),
        ("/code/403", Status::Blocked, Some(403)),
        ("/wall", Status::Blocked, Some(403)),
        ("/code/400", Status::Broken, Some(400)),
        ("/code/500", Status::Broken, Some(500)),
        ("/code/300", Status::Broken, Some(300)),
    ];
    let links: Vec<String> = cases.iter().map(|(p, ..)| s.url(p)).collect();
    let got = run(&links, &quick());
    for ((path, status, code), c) in cases.iter().zip(&got) {
        assert_eq!(c.url, s.url(path));
        assert_eq!((c.status, c.code), (*status, *code), "{path}: {c:?}");
    }
    assert!(got[6].reason.as_deref().unwrap().contains("bot wall"));
}

#[test]
fn skipped_links_are_never_asked() {
    let s = Server::start("127.0.0.1");
    let got = run(
        &[
            "place:sort=8".into(),
            "javascript:alert(1)".into(),
            format!("file:///{}", s.addr()),
        ],
        &quick(),
    );
    assert!(got.iter().all(|c| c.status == Status::Skipped), "{got:?}");
    assert_eq!(s.count(), 0);
}

#[test]
fn a_link_in_the_collection_twice_is_asked_once() {
    let s = Server::start("127.0.0.1");
    let got = run(&[s.url("/ok"), s.url("/ok#top"), s.url("/ok")], &quick());
    assert_eq!(got.len(), 1);
    assert_eq!(s.requests(), ["HEAD /ok"]);
}

#[test]
fn head_not_allowed_then_get() {
    let s = Server::start("127.0.0.1");
    let c = one(s.url("/nohead/ok"), &quick());
    assert_eq!((c.status, c.code), (Status::Ok, Some(200)));
    assert_eq!(s.requests(), ["HEAD /nohead/ok", "GET /nohead/ok"]);
}

#[test]
fn a_404_to_head_is_confirmed_by_get() {
    let s = Server::start("127.0.0.1");
    let c = one(s.url("/code/404"), &quick());
    assert_eq!(c.status, Status::Gone);
    assert_eq!(s.requests(), ["HEAD /code/404", "GET /code/404"]);
}

#[test]
fn permanent_redirects_to_a_2xx_are_redirected_with_the_final_link() {
    let s = Server::start("127.0.0.1");
    for code in [301, 308] {
        let c = one(s.url(&format!("/go/{code}/go/{code}/ok")), &quick());
        assert_eq!(c.status, Status::Redirected, "{c:?}");
        assert_eq!(c.final_url.as_deref(), Some(s.url("/ok").as_str()));
        assert_eq!(c.code, Some(200));
    }
}

#[test]
fn temporary_redirects_are_ok_and_a_later_temporary_hop_is_not_written_back() {
    let s = Server::start("127.0.0.1");
    for code in [302, 303, 307] {
        let c = one(s.url(&format!("/go/{code}/ok")), &quick());
        assert_eq!(c.status, Status::Ok, "{code}: {c:?}");
    }
    // Moved for good to /go/302/ok, which sends on for now: the link to
    // keep is where the permanent move ends.
    let c = one(s.url("/go/301/go/302/ok"), &quick());
    assert_eq!(c.status, Status::Redirected);
    assert_eq!(c.final_url.as_deref(), Some(s.url("/go/302/ok").as_str()));
    // A permanent move after a temporary one is the temporary one's.
    let c = one(s.url("/go/302/go/301/ok"), &quick());
    assert_eq!(c.status, Status::Ok);
}

#[test]
fn a_permanent_redirect_to_a_404_is_gone() {
    let s = Server::start("127.0.0.1");
    let c = one(s.url("/go/301/code/404"), &quick());
    assert_eq!((c.status, c.code), (Status::Gone, Some(404)));
}

#[test]
fn a_redirect_loop_is_broken_and_the_limit_holds() {
    let s = Server::start("127.0.0.1");
    let c = one(s.url("/loop/a"), &quick());
    assert_eq!(c.status, Status::Broken);
    assert_eq!(c.reason.as_deref(), Some("redirect loop"));
    assert!(s.count() <= 3, "{:?}", s.requests());
    let mut opts = quick();
    opts.max_redirects = 2;
    let c = one(s.url("/go/301/go/301/go/301/ok"), &opts);
    assert_eq!(c.status, Status::Broken);
    assert_eq!(c.reason.as_deref(), Some("more than 2 redirects"));
}

#[test]
fn a_refused_port_is_unreachable() {
    let port = closed_port("127.0.0.1");
    let c = one(format!("http://127.0.0.1:{port}/"), &quick());
    assert_eq!(c.status, Status::Unreachable);
    assert_eq!(c.reason.as_deref(), Some("connection refused"));
    assert_eq!(c.code, None);
}

#[test]
fn an_answer_slower_than_the_timeout_is_unreachable() {
    let s = Server::start("127.0.0.1");
    let mut opts = quick();
    opts.timeout = Duration::from_millis(200);
    opts.retries = 1;
    let began = Instant::now();
    let c = one(s.url("/slow/1500/ok"), &opts);
    assert_eq!(c.status, Status::Unreachable);
    assert_eq!(c.reason.as_deref(), Some("timed out"));
    // Retried once after the backoff, and not waited out.
    assert_eq!(s.count(), 2);
    assert!(began.elapsed() < Duration::from_millis(1200));
}

#[test]
fn retry_after_on_429_is_honoured_for_the_whole_host() {
    let s = Server::start("127.0.0.1");
    let began = Instant::now();
    let got = run(&[s.url("/busy/1/1/ok"), s.url("/ok2")], &quick());
    assert_eq!(got[0].status, Status::Ok, "{got:?}");
    assert!(began.elapsed() >= Duration::from_secs(1));
    let reqs = s.requests();
    assert_eq!(
        reqs.iter().filter(|r| r.ends_with("/busy/1/1/ok")).count(),
        2
    );
}

#[test]
fn a_429_that_stays_is_blocked_and_a_5xx_that_stays_is_broken() {
    let s = Server::start("127.0.0.1");
    let mut opts = quick();
    opts.retries = 2;
    let c = one(s.url("/busy/9/0/ok"), &opts);
    assert_eq!((c.status, c.code), (Status::Blocked, Some(429)));
    assert_eq!(s.count(), 3, "asked, then retried twice");
    let c = one(s.url("/down/9/ok"), &opts);
    assert_eq!((c.status, c.code), (Status::Broken, Some(503)));
    // HEAD's 503 is not trusted: each try is HEAD then GET.
    assert_eq!(s.count(), 3 + 6);
    // A Retry-After longer than the longest honoured is not waited for.
    opts.max_retry_after = Duration::from_secs(5);
    let began = Instant::now();
    let c = one(s.url("/busy/9/3600/ok"), &opts);
    assert_eq!(c.status, Status::Blocked);
    assert!(began.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_503_then_ok_is_ok_after_backoff() {
    let s = Server::start("127.0.0.1");
    let mut opts = quick();
    opts.backoff = Duration::from_millis(100);
    let began = Instant::now();
    // HEAD and GET each count: two tries fail, the third answers.
    let c = one(s.url("/down/4/ok"), &opts);
    assert_eq!(c.status, Status::Ok);
    // Waits of 100 ms then 200 ms: the retries are spaced.
    assert!(began.elapsed() >= Duration::from_millis(300));
}

#[test]
fn at_most_per_host_requests_at_once_to_one_host() {
    let a = Server::start_with_delay("127.0.0.2", Duration::from_millis(40));
    let b = Server::start_with_delay("127.0.0.3", Duration::from_millis(40));
    let links: Vec<String> = (0..12)
        .flat_map(|i| [a.url(&format!("/ok{i}")), b.url(&format!("/ok{i}"))])
        .collect();
    let got = run(&links, &quick());
    assert!(got.iter().all(|c| c.status == Status::Ok));
    assert_eq!(a.most_in_flight(), 2);
    assert_eq!(b.most_in_flight(), 2);
    let mut opts = quick();
    opts.per_host = 1;
    let c = Server::start_with_delay("127.0.0.4", Duration::from_millis(20));
    let links: Vec<String> = (0..6).map(|i| c.url(&format!("/ok{i}"))).collect();
    run(&links, &opts);
    assert_eq!(c.most_in_flight(), 1);
}

#[test]
fn the_state_keeps_results_and_a_stopped_run_goes_on() {
    let s = Server::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("links.state");
    let links: Vec<String> = (0..10).map(|i| s.url(&format!("/ok{i}"))).collect();
    let collected = collect(&doc(&links));
    let mut opts = quick();
    opts.stop_after = Some(4);
    let mut state = State::open(&path).unwrap();
    let first = check(&collected, &opts, &mut state, |_, _| {}).unwrap();
    assert!(first.interrupted);
    // With 2 at once to the host, one more was in flight, and is kept.
    assert!((4..=5).contains(&first.asked), "{}", first.asked);
    assert_eq!(s.count(), first.asked);
    drop(state);
    assert!(!path.exists(), "an interrupted run leaves its journal only");
    opts.stop_after = None;
    let mut state = State::open(&path).unwrap();
    let second = check(&collected, &opts, &mut state, |_, _| {}).unwrap();
    assert_eq!(second.asked, 10 - first.asked);
    assert_eq!(second.results.len(), 10);
    assert_eq!(s.count(), 10, "only the rest was asked");
    assert!(path.exists());
    // Fresh results are not asked again; past --recheck-after they are.
    let mut state = State::open(&path).unwrap();
    let third = check(&collected, &opts, &mut state, |_, _| {}).unwrap();
    assert_eq!((third.asked, s.count()), (0, 10));
    assert!(third
        .results
        .iter()
        .all(|c| !c.asked && c.status == Status::Ok));
    opts.recheck_after = Duration::ZERO;
    let fourth = check(&collected, &opts, &mut state, |_, _| {}).unwrap();
    assert_eq!((fourth.asked, s.count()), (10, 20));
}

#[test]
fn confirm_after_keeps_a_first_failure_suspect() {
    let s = Server::start("127.0.0.1");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("links.state");
    let collected = collect(&doc(&[s.url("/code/404"), s.url("/ok")]));
    let mut opts = quick();
    opts.confirm_after = Some(Duration::from_secs(3600));
    let mut state = State::open(&path).unwrap();
    let first = check(&collected, &opts, &mut state, |_, _| {}).unwrap();
    assert_eq!(first.results[0].status, Status::Suspect);
    assert_eq!(first.results[0].code, Some(404));
    assert_eq!(first.results[1].status, Status::Ok);
    // Within the hour it is not asked again, and stays suspect.
    let second = check(&collected, &opts, &mut state, |_, _| {}).unwrap();
    assert_eq!(
        (second.asked, second.results[0].status),
        (0, Status::Suspect)
    );
    // A failure at least --confirm-after after the first confirms it.
    opts.confirm_after = Some(Duration::ZERO);
    let third = check(&collected, &opts, &mut state, |_, _| {}).unwrap();
    assert_eq!(third.results[0].status, Status::Gone);
}

#[test]
fn a_tls_failure_is_unreachable() {
    // An https link to a server that speaks plain HTTP: the handshake fails.
    let s = Server::start("127.0.0.1");
    let c = one(format!("https://{}/ok", s.addr()), &quick());
    assert_eq!(c.status, Status::Unreachable, "{c:?}");
    assert!(c.reason.as_deref().unwrap().starts_with("TLS: "), "{c:?}");
}
