//! The crate's error type: one line that says what is wrong with the input.

use std::fmt;

/// An error for the user: bad input (a flag, a unit, a keyword, a file row)
/// or a file that could not be read. Its `Display` is one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    message: String,
}

impl Error {
    /// An error about the input, with a one-line message.
    pub fn input(message: impl Into<String>) -> Self {
        let message: String = message.into();
        Error {
            message: message.replace('\n', " "),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Result with the crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
