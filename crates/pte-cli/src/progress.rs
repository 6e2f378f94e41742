//! Progress on stderr for work that may take more than about a second
//! (rewrite, extract, pack, diff, shrink, batch verify and info). Shown
//! only when stderr is a terminal, so pipes, logs and tests see nothing.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress indicator: a bar when the amount of work is known, a spinner
/// otherwise; hidden when stderr is not a terminal.
pub(crate) struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar over `total` units (files, bytes), labelled `what`.
    pub(crate) fn bar(total: u64, what: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), target());
        if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({elapsed})") {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(what.to_string());
        Progress { bar }
    }

    /// A spinner for work of unknown length, labelled `what`.
    pub(crate) fn spinner(what: &str) -> Progress {
        let target = target();
        // the tick is a thread of its own: a hidden spinner must not start
        // one (nor be waited for at exit) in every piped or scripted run
        let shown = !target.is_hidden();
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_message(what.to_string());
        if shown {
            bar.enable_steady_tick(Duration::from_millis(120));
        }
        Progress { bar }
    }

    /// Counts `n` more units done.
    pub(crate) fn inc(&self, n: u64) {
        self.bar.inc(n);
    }

    /// Replaces the label (a command moving to its next phase).
    pub(crate) fn message(&self, what: &str) {
        self.bar.set_message(what.to_string());
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// Draw on stderr only when it is a terminal; indicatif also stays quiet
/// when the terminal cannot show it.
fn target() -> ProgressDrawTarget {
    if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}
