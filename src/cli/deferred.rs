//! Subcommands whose arguments clap builds only when they are used.

use clap::Args;

/// A subcommand's arguments, built only when that subcommand is parsed or
/// its help shown (`Command::defer`): clap otherwise builds every
/// subcommand's arguments at start-up, two thirds of the instructions of
/// `--version` and of every command's start.
#[derive(Debug)]
pub(super) struct Deferred<T>(pub(super) T);

impl<T> std::ops::Deref for Deferred<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// `cmd` with `T`'s arguments, keeping what the subcommand says of itself
/// (its about and after-help, which a flattened struct's would replace).
fn keep_own_words(cmd: clap::Command, add: fn(clap::Command) -> clap::Command) -> clap::Command {
    let about = cmd.get_about().cloned();
    let long_about = cmd.get_long_about().cloned();
    let after = cmd.get_after_help().cloned();
    let mut cmd = add(cmd);
    if let Some(a) = about {
        cmd = cmd.about(a);
    }
    if let Some(a) = long_about {
        cmd = cmd.long_about(a);
    }
    if let Some(a) = after {
        cmd = cmd.after_help(a);
    }
    cmd
}

impl<T: Args> Args for Deferred<T> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(|c| keep_own_words(c, T::augment_args))
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(|c| keep_own_words(c, T::augment_args_for_update))
    }
    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }
}

impl<T: clap::FromArgMatches> clap::FromArgMatches for Deferred<T> {
    fn from_arg_matches(m: &clap::ArgMatches) -> std::result::Result<Self, clap::Error> {
        T::from_arg_matches(m).map(Deferred)
    }
    fn from_arg_matches_mut(m: &mut clap::ArgMatches) -> std::result::Result<Self, clap::Error> {
        T::from_arg_matches_mut(m).map(Deferred)
    }
    fn update_from_arg_matches(
        &mut self,
        m: &clap::ArgMatches,
    ) -> std::result::Result<(), clap::Error> {
        self.0.update_from_arg_matches(m)
    }
    fn update_from_arg_matches_mut(
        &mut self,
        m: &mut clap::ArgMatches,
    ) -> std::result::Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(m)
    }
}
