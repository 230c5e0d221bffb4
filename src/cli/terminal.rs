//! Text written to a terminal: its control characters shown, not obeyed.

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
