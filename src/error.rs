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

    /// The same error, said of `what` (a file, a flag): `what: message`.
    pub fn about(self, what: &str) -> Self {
        Error::input(format!("{what}: {}", self.message))
    }
}

/// Reads a whole file as text (invalid UTF-8 replaced), or says which file
/// could not be read and why.
pub fn read_file(path: &str) -> Result<String> {
    let bytes =
        std::fs::read(path).map_err(|e| Error::input(format!("{path}: cannot read: {e}")))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Result with the crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
