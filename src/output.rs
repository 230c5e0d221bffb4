//! Writing a result to a file the user named (`--output`, `--plot`): whole
//! or not at all, without replacing what should not be replaced.
//!
//! - A new path, or a regular file: the output is streamed to a temporary
//!   file beside the target, then renamed over it, so a failed run never
//!   leaves a half-written file. A new file gets mode 0666 less the umask
//!   (0644 with the usual umask); an existing file keeps its mode.
//! - A regular file with other hard links: written to the temporary file
//!   first (the run can fail without touching it), then copied into the
//!   target in place, so every link still sees the new content; only when
//!   the disk has room for what the file grows by ([`copy_in`]), else the
//!   target is left whole and the output kept beside it as `<file>.new`.
//! - A symbolic link: followed; its target is written as above.
//! - A device node or a FIFO (`/dev/null`, `/dev/stdout`, a pipe): written
//!   directly, never replaced.
//! - A folder, or a file that is read-only: refused.
//!
//! ```
//! use std::io::Write;
//! let dir = std::env::temp_dir().join(format!("swtcg-output-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("out.txt");
//! let mut f = swtcg_odds::output::OutputFile::create(path.to_str().unwrap()).unwrap();
//! f.write_all(b"hello\n").unwrap();
//! f.commit().unwrap();
//! assert_eq!(std::fs::read_to_string(&path).unwrap(), "hello\n");
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use swtcg_engine::error::{Error, ErrorKind, Result, quote};

/// Refuses to write `path` when it is one of the `inputs` the command reads
/// (a file, or a file in a folder given), the same file by another name or
/// link included: writing it would destroy what is being read.
pub fn refuse_inputs(path: &str, inputs: &[String]) -> Result<()> {
    let Some(target) = identity(Path::new(path)) else {
        // A new file can't be an input.
        return Ok(());
    };
    for input in inputs {
        let p = Path::new(input);
        let same = if p.is_dir() {
            std::fs::read_dir(p).is_ok_and(|entries| {
                entries
                    .flatten()
                    .any(|e| identity(&e.path()) == Some(target))
            })
        } else {
            identity(p) == Some(target)
        };
        if same {
            return Err(Error::new(
                ErrorKind::Conflict,
                format!(
                    "{}: is an input of this command ({}): refused, it would be overwritten",
                    quote(path),
                    quote(input)
                ),
            ));
        }
    }
    Ok(())
}

/// A file's identity: its device and inode (the same file whatever its
/// name or link), or its canonical path where there are none.
#[cfg(unix)]
fn identity(p: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(p: &Path) -> Option<(u64, u64)> {
    use std::hash::{Hash, Hasher};
    let c = std::fs::canonicalize(p).ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    c.hash(&mut h);
    Some((0, h.finish()))
}

/// How the output reaches its target.
enum How {
    /// Renamed over the target (a new path, or a regular file with one
    /// link).
    Rename,
    /// Copied into the target in place (a regular file with other links).
    CopyIn,
    /// Written straight to the target (a device or a FIFO).
    Direct,
}

/// A file being written for the user: see the module's documentation.
pub struct OutputFile {
    /// The path as the user gave it (for messages).
    shown: String,
    /// The file the content goes to (symbolic links followed).
    target: PathBuf,
    /// The temporary file beside it, when there is one (removed when
    /// dropped unpersisted).
    temp: Option<tempfile::TempPath>,
    out: Option<BufWriter<File>>,
    how: How,
    /// Bytes written so far.
    written: u64,
}

/// An error writing `path`: its kind, and the path quoted.
fn io_error(path: &str, e: &std::io::Error) -> Error {
    Error::new(
        ErrorKind::Io,
        format!("{}: cannot write: {}", quote(path), e.kind()),
    )
}

impl OutputFile {
    /// Opens `path` for writing as the module's documentation says.
    pub fn create(path: &str) -> Result<OutputFile> {
        let shown = path.to_string();
        let refuse = |why: &str| {
            Error::new(
                ErrorKind::Io,
                format!("{}: cannot write: {why}", quote(path)),
            )
        };
        if path.is_empty() {
            return Err(refuse("an empty path"));
        }
        let given = Path::new(path);
        // Follow a symbolic link (a dangling one names the file to create).
        let target = match std::fs::canonicalize(given) {
            Ok(t) => t,
            Err(_) => match std::fs::read_link(given) {
                Ok(t) if t.is_absolute() => t,
                Ok(t) => given.parent().unwrap_or(Path::new(".")).join(t),
                Err(_) => given.to_path_buf(),
            },
        };
        let meta = std::fs::metadata(&target).ok();
        let how = match &meta {
            None => How::Rename,
            Some(m) if m.is_dir() => return Err(refuse("a folder, not a file")),
            Some(m) if m.is_file() => {
                if m.permissions().readonly() {
                    return Err(refuse("the file is read-only"));
                }
                if links(m) > 1 {
                    How::CopyIn
                } else {
                    How::Rename
                }
            }
            Some(_) => How::Direct,
        };
        if let How::Direct = how {
            let f = OpenOptions::new()
                .write(true)
                .open(&target)
                .map_err(|e| io_error(path, &e))?;
            return Ok(OutputFile {
                shown,
                target,
                temp: None,
                out: Some(BufWriter::new(f)),
                how,
                written: 0,
            });
        }
        let dir = target
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let stem = target
            .file_name()
            .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
        let (file, temp) = temp_beside(&dir, &stem)
            .map_err(|e| io_error(path, &e))?
            .into_parts();
        if let (Some(m), How::Rename) = (&meta, &how) {
            // An existing file keeps its mode.
            let _ = std::fs::set_permissions(&temp, m.permissions());
        }
        Ok(OutputFile {
            shown,
            target,
            temp: Some(temp),
            out: Some(BufWriter::new(file)),
            how,
            written: 0,
        })
    }

    /// Bytes written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// The path as given.
    pub fn path(&self) -> &str {
        &self.shown
    }

    /// Puts the whole output in place.
    pub fn commit(mut self) -> Result<()> {
        let shown = self.shown.clone();
        let mut out = self.out.take().expect("open until committed");
        out.flush().map_err(|e| io_error(&shown, &e))?;
        let file = out.into_inner().map_err(|e| io_error(&shown, e.error()))?;
        match self.how {
            How::Direct => Ok(()),
            How::Rename => {
                file.sync_all().map_err(|e| io_error(&shown, &e))?;
                drop(file);
                let temp = self.temp.take().expect("a temporary file");
                // Renamed over the target; on failure the temporary file
                // is removed as it drops.
                temp.persist(&self.target)
                    .map_err(|e| io_error(&shown, &e.error))
            }
            How::CopyIn => {
                drop(file);
                let temp = self.temp.take().expect("a temporary file");
                let free = available_space(&temp);
                let result = copy_in(&temp, &self.target, free, &shown);
                if let Err(e) = result {
                    // The output is whole: kept beside the target.
                    let mut beside = self.target.clone().into_os_string();
                    beside.push(".new");
                    let kept = temp.persist(&beside).is_ok();
                    return Err(if kept {
                        Error::new(
                            e.kind(),
                            format!(
                                "{e}; the whole output is in {}",
                                quote(&beside.to_string_lossy())
                            ),
                        )
                    } else {
                        e
                    });
                }
                Ok(())
            }
        }
    }

    /// Gives up: the target is left as it was. With `keep`, what was
    /// written is kept beside it as `<file>.partial`, returned with the
    /// bytes it really holds (on a full disk, fewer than were written to
    /// its buffer), else removed.
    pub fn abandon(mut self, keep: bool) -> Option<(PathBuf, u64)> {
        let out = self.out.take();
        drop(out);
        let temp = self.temp.take()?;
        if keep {
            let mut partial = self.target.clone().into_os_string();
            partial.push(".partial");
            let partial = PathBuf::from(partial);
            if temp.persist(&partial).is_ok() {
                let bytes = std::fs::metadata(&partial).map_or(0, |m| m.len());
                return Some((partial, bytes));
            }
        }
        // Not kept: removed as it drops.
        None
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self
            .out
            .as_mut()
            .expect("open until committed")
            .write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.as_mut().expect("open until committed").flush()
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        // Never committed: the writer is closed before its temporary file
        // is removed (the `TempPath` removes it as it drops).
        drop(self.out.take());
        drop(self.temp.take());
    }
}

/// Bytes free to an unprivileged writer on the file system holding
/// `path`; `u64::MAX` where it can't be asked.
#[cfg(unix)]
fn available_space(path: &Path) -> u64 {
    rustix::fs::statvfs(path).map_or(u64::MAX, |s| s.f_bavail.saturating_mul(s.f_frsize))
}

#[cfg(not(unix))]
fn available_space(_: &Path) -> u64 {
    u64::MAX
}

/// Room kept free beyond the new bytes when a file is rewritten in place:
/// blocks round up, and metadata grows.
const IN_PLACE_SLACK: u64 = 1 << 20;

/// Copies the whole output `temp` into `target` in place (a file with
/// other hard links, so that every link sees the new content), when the
/// file system has room for it: `free` bytes beside `temp`, which is
/// already written. Rewriting frees the old content only as it goes, so a
/// copy that grows the file by more than `free` (less a margin) is
/// refused before the target is touched: it is left whole, never cut
/// mid-row.
pub fn copy_in(temp: &Path, target: &Path, free: u64, shown: &str) -> Result<()> {
    let len = |p: &Path| std::fs::metadata(p).map(|m| m.len());
    let (new, old) = (
        len(temp).map_err(|e| io_error(shown, &e))?,
        len(target).map_err(|e| io_error(shown, &e))?,
    );
    let grows = new.saturating_sub(old);
    if grows > 0 && grows.saturating_add(IN_PLACE_SLACK) > free {
        return Err(Error::new(
            ErrorKind::Io,
            format!(
                "{}: not rewritten: it has other hard links, so it is rewritten in place, and the disk has {free} bytes free where it grows by {grows}; it is unchanged (free some space, or remove the other links)",
                quote(shown)
            ),
        ));
    }
    std::fs::File::open(temp)
        .and_then(|mut from| {
            let mut to = OpenOptions::new().write(true).truncate(true).open(target)?;
            std::io::copy(&mut from, &mut to)?;
            to.sync_all()
        })
        .map_err(|e| io_error(shown, &e))
}

/// The number of hard links of a file.
#[cfg(unix)]
fn links(m: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    m.nlink()
}

#[cfg(not(unix))]
fn links(_: &std::fs::Metadata) -> u64 {
    1
}

/// A new file in `dir` named after `stem` (hidden, `.tmp`), created with
/// mode 0666 less the umask, removed unless persisted.
fn temp_beside(dir: &Path, stem: &str) -> std::io::Result<tempfile::NamedTempFile> {
    let prefix = format!(".{}.", stem.chars().take(64).collect::<String>());
    let mut b = tempfile::Builder::new();
    b.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b.tempfile_in(dir)
}

/// Writes `text` to `path` whole or not at all (see [`OutputFile`]).
pub fn write_file(path: &str, text: &str) -> Result<()> {
    let mut f = OutputFile::create(path)?;
    f.write_all(text.as_bytes())
        .map_err(|e| io_error(path, &e))?;
    f.commit()
}
