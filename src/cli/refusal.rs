//! A command line clap refuses (or answers itself: help, the version),
//! said as the binary says it and typed as the library's errors are.

use super::Ran;
use swtcg_engine::error::Error;

/// A command line clap refused, as a typed error: its kind from clap's,
/// and the flag (without `--`) and value it names as the origin.
fn clap_error(e: &clap::Error, text: String) -> Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind as Clap};
    let kind = match e.kind() {
        Clap::UnknownArgument | Clap::InvalidSubcommand => swtcg_engine::error::ErrorKind::Unknown,
        Clap::InvalidValue | Clap::ValueValidation | Clap::InvalidUtf8 => {
            swtcg_engine::error::ErrorKind::Syntax
        }
        Clap::MissingRequiredArgument
        | Clap::MissingSubcommand
        | Clap::DisplayHelpOnMissingArgumentOrSubcommand => swtcg_engine::error::ErrorKind::Missing,
        Clap::ArgumentConflict => swtcg_engine::error::ErrorKind::Conflict,
        Clap::TooManyValues | Clap::TooFewValues | Clap::WrongNumberOfValues => {
            swtcg_engine::error::ErrorKind::Range
        }
        _ => swtcg_engine::error::ErrorKind::Syntax,
    };
    let context = |k: ContextKind| match e.get(k) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => v.first().cloned(),
        _ => None,
    };
    let error = Error::new(kind, text);
    match context(ContextKind::InvalidArg) {
        Some(arg) => {
            // "--format <FORMAT>" or "--bogus": the flag's name.
            let flag = arg.split_whitespace().next().unwrap_or(&arg);
            let param = flag.trim_start_matches('-');
            let value = context(ContextKind::InvalidValue);
            error.at_param(param, value.as_deref())
        }
        None => match context(ContextKind::InvalidSubcommand) {
            Some(word) => error.at_param("command", Some(&word)),
            None => error,
        },
    }
}

/// What a command line clap didn't run says: help and the version on
/// standard output (status 0), anything else one line on standard error
/// with its typed error (status 2).
pub(super) fn refused(e: &clap::Error) -> Ran {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => Ran {
            stdout: e.render().to_string(),
            stderr: String::new(),
            status: 0,
            error: None,
        },
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => Ran {
            stdout: String::new(),
            stderr: e.render().to_string(),
            status: 2,
            error: Some(clap_error(e, "a command is needed".into())),
        },
        _ => {
            // One line: clap's first paragraph says what is wrong,
            // and its tips ("a similar argument exists: '--power'")
            // say what was meant.
            let text = e.render().to_string();
            let mut paragraphs = text.split("\n\n");
            let first = paragraphs.next().unwrap_or("error: bad arguments");
            let mut parts: Vec<String> =
                vec![first.lines().map(str::trim).collect::<Vec<_>>().join(" ")];
            for p in paragraphs {
                for l in p.lines().map(str::trim) {
                    if let Some(tip) = l.strip_prefix("tip:") {
                        parts.push(tip.trim().to_string());
                    }
                }
            }
            let line = swtcg_engine::error::one_line(&format!("{} (see --help)", parts.join("; ")));
            let words = line.strip_prefix("error: ").unwrap_or(&line).to_string();
            Ran {
                stdout: String::new(),
                stderr: line + "\n",
                status: 2,
                error: Some(clap_error(e, words)),
            }
        }
    }
}
