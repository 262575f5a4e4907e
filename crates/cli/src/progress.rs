//! Progress on standard error for what can take more than about a second
//! on a large collection (merge and publish of many inputs, conformance):
//! shown only on a terminal, never under `--quiet`, and cleared when done,
//! so a log or a pipe sees nothing of it.

use std::io::IsTerminal as _;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `total` steps, or nothing when no person is watching.
pub(crate) struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar for `total` steps of `what` (`reading`, `checking`).
    pub(crate) fn new(total: usize, what: &str) -> Progress {
        if crate::say::quiet() || !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(
            Some(total as u64),
            ProgressDrawTarget::stderr_with_hz(10),
        );
        let style = ProgressStyle::with_template(&format!("{what} {{pos}}/{{len}} {{wide_msg}}"))
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        Progress(Some(bar))
    }

    /// One step begins: `name` is what it works on.
    pub(crate) fn step(&self, name: &str) {
        if let Some(bar) = &self.0 {
            bar.set_message(name.to_string());
            bar.inc(1);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// The bar of a run whose steps the library reports through a plain
/// function (conformance): at most one at a time.
static RUNNING: Mutex<Option<Progress>> = Mutex::new(None);

/// Start the bar [`step_running`] advances.
pub(crate) fn start_running(total: usize, what: &str) {
    *RUNNING.lock().unwrap_or_else(|e| e.into_inner()) = Some(Progress::new(total, what));
}

/// A step of the running bar (`done` of `total`, on `name`).
pub(crate) fn step_running(_done: usize, total: usize, name: &str) {
    if let Some(p) = RUNNING.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
        if let Some(bar) = &p.0 {
            bar.set_length(total as u64);
        }
        p.step(name);
    }
}

/// End the running bar, clearing it.
pub(crate) fn stop_running() {
    RUNNING.lock().unwrap_or_else(|e| e.into_inner()).take();
}
