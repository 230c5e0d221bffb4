//! What is written to a terminal: text with its control characters shown,
//! not obeyed, and progress bars on standard error.

/// Text as a terminal should show it: every control character but line
/// ends and tabs (escape sequences, carriage returns, C1 controls such as
/// CSI) written as `\u{1b}`, so that a card's text can't move the cursor,
/// recolour the screen or set the window's title.
///
/// ```
/// use swtcg_odds::cli::terminal_safe;
/// assert_eq!(terminal_safe("Vader\u{1b}]0;pwned\u{7}\n"), "Vader\\u{1b}]0;pwned\\u{7}\n");
/// assert_eq!(terminal_safe("a\tb\u{9b}2J"), "a\tb\\u{9b}2J");
/// assert_eq!(terminal_safe("Padmé"), "Padmé");
/// ```
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A progress bar on standard error, shown only when it is a terminal and
/// the work has taken more than a second.
pub(super) struct Progress {
    start: std::time::Instant,
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    pub(super) fn new() -> Progress {
        Progress {
            start: std::time::Instant::now(),
            bar: None,
        }
    }

    pub(super) fn tick(&mut self, done: usize, total: usize) {
        use std::io::IsTerminal;
        if self.bar.is_none()
            && self.start.elapsed().as_secs() >= 1
            && std::io::stderr().is_terminal()
        {
            let b = indicatif::ProgressBar::with_draw_target(
                Some(total as u64),
                indicatif::ProgressDrawTarget::stderr(),
            );
            self.bar = Some(b);
        }
        if let Some(b) = &self.bar {
            b.set_position(done as u64);
        }
    }

    pub(super) fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}
