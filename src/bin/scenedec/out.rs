//! Lines on standard output that end the command quietly when the reader
//! has gone (`scenedec inspect --json | head -c 10`).
//!
//! `println!` panics on a closed pipe (Rust ignores SIGPIPE, so the write
//! fails with EPIPE), which printed a backtrace and exited 101. A closed
//! pipe is not the command's failure but it did stop before every file was
//! reported, so it exits 141, the status a shell reports for a program
//! ended by SIGPIPE (128 + 13): `set -o pipefail` scripts see what they see
//! for `cat` or `grep` in the same place, and 0 keeps meaning "every file
//! loaded".

use std::io::Write;

/// Status for "the reader closed the pipe" (128 + SIGPIPE).
pub const BROKEN_PIPE_STATUS: i32 = 141;

/// Writes one line to standard output; on a closed pipe, exits with
/// [`BROKEN_PIPE_STATUS`] without a message; on any other write error, exits 1.
pub fn line(args: std::fmt::Arguments<'_>) {
    text(format_args!("{args}\n"));
}

/// Writes `args` to standard output as [`line`] does, without adding a newline.
pub fn text(args: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| out.flush());
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(BROKEN_PIPE_STATUS);
        }
        eprintln!("scenedec: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// ` (at WHERE)` for an error with a location, nothing for one without:
/// an error never prints an empty `(at )`.
pub fn at_suffix(e: &scenedec::Error) -> String {
    let at = e.at().to_string();
    if at.is_empty() {
        String::new()
    } else {
        format!(" (at {at})")
    }
}

/// `println!` through [`line`].
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out::line(format_args!($($arg)*))
    };
}
pub(crate) use outln;
