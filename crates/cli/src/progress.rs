//! Progress of the long runs (`selfplay`, `ladder`, `tune`): a bar on a
//! terminal (indicatif draws none elsewhere) or, with `--progress`, a plain
//! line on stderr each time another hundredth of the games is done, so that
//! a run of hours into a log shows how far it got. Lines are asked for, not
//! automatic off a terminal: stderr otherwise says only what went wrong.

use indicatif::{FormattedDuration, ProgressBar, ProgressStyle};
use std::sync::Mutex;

pub struct GamesProgress {
    bar: ProgressBar,
    /// What the lines name (the command); `None` for a bar.
    lines: Option<&'static str>,
    total: u64,
    /// Games done; counted and printed under one lock so that lines from
    /// several jobs come out in order.
    done: Mutex<u64>,
}

impl GamesProgress {
    /// Progress over `total` games of the command `what`, as lines if
    /// `lines`; with `message`, it shows [`GamesProgress::set_message`]'s text.
    pub fn new(what: &'static str, total: u64, message: bool, lines: bool) -> GamesProgress {
        let template = if message {
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} games  {msg}  eta {eta}"
        } else {
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} games  eta {eta}"
        };
        let bar = if lines { ProgressBar::hidden() } else { ProgressBar::new(total) };
        bar.set_style(ProgressStyle::with_template(template).expect("a valid template"));
        let lines = lines.then_some(what);
        GamesProgress { bar, lines, total, done: Mutex::new(0) }
    }

    /// One more game done.
    pub fn inc(&self) {
        self.bar.inc(1);
        let Some(what) = self.lines else { return };
        let mut count = self.done.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *count += 1;
        let done = *count;
        let total = self.total.max(1);
        if done * 100 / total != (done - 1) * 100 / total {
            let message = self.bar.message();
            let message = if message.is_empty() { String::new() } else { format!(" ({message})") };
            let elapsed = FormattedDuration(self.bar.elapsed());
            eprintln!("{what}: {done}/{total} games{message}, {elapsed} elapsed");
        }
    }

    /// A running score for the bar and the lines (set it before
    /// [`GamesProgress::inc`] to count the game just done).
    pub fn set_message(&self, message: String) {
        self.bar.set_message(message);
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
