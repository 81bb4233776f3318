//! Reading a file no further than a limit: the size from its metadata
//! first, then at most `limit + 1` bytes through `Read::take`, so neither a
//! huge file nor one that grows while it is read can make the command hold
//! more than the limit (a 3 GB file is refused before any byte is read).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// The file holds more than the limit: its size (at least `limit + 1`).
    TooLarge {
        /// Bytes the file has (from its metadata, or `limit + 1` when it grew).
        len: u64,
        /// The limit it passed.
        limit: u64,
    },
    /// The file could not be opened or read.
    Io(io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TooLarge { len, limit } => {
                write!(f, "too large: {len} bytes, over the limit of {limit}")
            }
            Self::Io(e) => write!(f, "unreadable: {e}"),
        }
    }
}

/// The first `n` bytes of `path` (fewer when it is shorter): enough to
/// tell what a file is before deciding how much of it to read.
pub fn head(path: &Path, n: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    File::open(path)?.take(n).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The most of an archive file read: the RARC limit on an archive's size,
/// `maxArchiveBytes` (its stored bytes are at most that, give or take a
/// Yaz0 wrapper's header). Archives have their own table and are not
/// models, so `maxFileBytes` does not bound them.
pub fn archive_limit(limits: &scenedec::RarcLimits) -> u64 {
    limits.max_archive_bytes
}

/// An archive file's bytes, bounded by [`archive_limit`]; the error as text.
pub fn read_archive(path: &Path, limits: &scenedec::RarcLimits) -> Result<Vec<u8>, String> {
    read_bounded(path, archive_limit(limits))
        .map_err(|e| format!("{}: {}", path.display(), archive_unread(&e)))
}

/// Why an archive was not read, naming the limit when it was too large.
pub fn archive_unread(e: &ReadError) -> String {
    match e {
        ReadError::TooLarge { .. } => {
            format!("{e} (maxArchiveBytes; --limit maxArchiveBytes=N raises it)")
        }
        ReadError::Io(_) => e.to_string(),
    }
}

/// The bytes of `path`, or why not: never more than `limit` bytes held.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let file = File::open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    // Pipes and devices report 0: the `take` below bounds them.
    if meta.is_file() && meta.len() > limit {
        return Err(ReadError::TooLarge {
            len: meta.len(),
            limit,
        });
    }
    // Reserve what the metadata promises (at most the limit); a file that
    // grows past it is caught by the one byte past the limit.
    let expected = usize::try_from(meta.len().min(limit)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(expected.saturating_add(1));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            len: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("scenedec-bounded-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn reads_up_to_the_limit_and_refuses_one_byte_past() {
        let path = temp("ten", &[7u8; 10]);
        assert_eq!(read_bounded(&path, 10).unwrap(), vec![7u8; 10]);
        match read_bounded(&path, 9) {
            Err(ReadError::TooLarge { len, limit }) => assert_eq!((len, limit), (10, 9)),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            read_bounded(&path.with_extension("absent"), 10),
            Err(ReadError::Io(_))
        ));
        assert!(matches!(
            read_bounded(path.parent().unwrap(), 10),
            Err(ReadError::Io(_))
        ));
    }

    #[test]
    fn a_stream_longer_than_its_metadata_says_stops_one_byte_past_the_limit() {
        // A FIFO reports length 0, like a file that grows after the
        // metadata was read: only `take` stands between it and memory.
        let fifo = temp("unused", b"").with_file_name("growing");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        if !made {
            eprintln!("no mkfifo here: the growing-file bound was not checked");
            return;
        }
        let writer_path = fifo.clone();
        let writer = std::thread::spawn(move || {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(&writer_path)
                .unwrap();
            // Ends with EPIPE once the reader has stopped: that is the point.
            let _ = f.write_all(&[1u8; 1 << 20]);
        });
        match read_bounded(&fifo, 1000) {
            Err(ReadError::TooLarge { len, limit }) => assert_eq!((len, limit), (1001, 1000)),
            other => panic!("{other:?}"),
        }
        writer.join().unwrap();
        std::fs::remove_file(&fifo).unwrap();
    }
}
