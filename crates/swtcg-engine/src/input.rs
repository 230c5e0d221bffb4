//! Reading an input file: regular files only, bounded in size, and never
//! waiting on a file whose reads block.

use crate::error::{Error, Result};

/// Most bytes read from one input file.
pub(crate) const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a whole file as text (invalid UTF-8 replaced, a UTF-8 byte order
/// mark dropped), or says which file could not be read and why. Files above
/// `MAX_FILE_BYTES` are refused, and only regular files are read (never a
/// FIFO or a device that could block or never end).
pub fn read_file(path: &str) -> Result<String> {
    use std::io::Read;
    let io = |message: String| Error::io(path, message);
    let meta = std::fs::metadata(path).map_err(|e| io(e.to_string()).caused_by(e))?;
    if !meta.is_file() {
        return Err(io(if meta.is_dir() {
            "a folder, not a file".into()
        } else {
            "not a regular file".into()
        }));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(io(format!(
            "{} bytes is above the limit of {MAX_FILE_BYTES}",
            meta.len()
        )));
    }
    let mut bytes = Vec::new();
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    // A file that says it is regular but whose reads wait (`/proc/kmsg`)
    // answers "would block" at once instead of hanging.
    #[cfg(all(
        target_os = "linux",
        not(any(
            target_arch = "mips",
            target_arch = "mips64",
            target_arch = "sparc",
            target_arch = "sparc64"
        ))
    ))]
    {
        use std::os::unix::fs::OpenOptionsExt;
        const O_NONBLOCK: i32 = 0o4000;
        open.custom_flags(O_NONBLOCK);
    }
    open.open(path)
        .map_err(|e| io(e.to_string()).caused_by(e))?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| {
            io(if e.kind() == std::io::ErrorKind::WouldBlock {
                "its reads wait for data (not a file of text)".into()
            } else {
                e.to_string()
            })
            .caused_by(e)
        })?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io(format!("above the limit of {MAX_FILE_BYTES} bytes")));
    }
    let text = String::from_utf8_lossy(&bytes);
    Ok(strip_bom(&text).to_string())
}

/// The text without a leading UTF-8 byte order mark.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}
