//! Line input on its own thread, so a search can run while commands keep arriving.
//!
//! Both the console and the xboard front end read stdin through [`spawn_reader`]: a thread
//! reads raw bytes, cuts them into lines, and sends each line as an [`InputEvent`]. Bytes
//! that are not UTF-8 are replaced, control characters become `?`, and a line longer than
//! [`MAX_LINE`] bytes is discarded with an [`InputEvent::TooLong`] notice so that no input,
//! however hostile, can exhaust memory or stop the program.

use std::io::{BufRead, Read};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

/// Longest accepted input line in bytes (a FEN or PGN tag fits many times over).
pub const MAX_LINE: usize = 4096;

/// What the reader thread delivers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputEvent {
    /// One line, without its line ending, cleaned of control characters.
    Line(String),
    /// A line of this many bytes was too long and was dropped.
    TooLong(usize),
    /// End of input (or a read error, which is treated the same way).
    Eof,
}

/// Starts a thread reading lines from stdin.
pub fn spawn_stdin() -> Receiver<InputEvent> {
    let (tx, rx) = mpsc::channel();
    spawn_into(std::io::stdin(), tx);
    rx
}

/// Starts a thread reading lines from any reader (tests use in-memory readers).
pub fn spawn_reader<R: Read + Send + 'static>(reader: R) -> Receiver<InputEvent> {
    let (tx, rx) = mpsc::channel();
    spawn_into(reader, tx);
    rx
}

/// Starts a thread that reads `reader` and sends its lines into `tx` (any sender type that
/// can be built from an [`InputEvent`]).
pub fn spawn_into<R, T>(reader: R, tx: Sender<T>)
where
    R: Read + Send + 'static,
    T: From<InputEvent> + Send + 'static,
{
    let spawned = thread::Builder::new()
        .name("wily-input".into())
        .spawn(move || {
            let mut reader = std::io::BufReader::new(reader);
            loop {
                let event = read_line(&mut reader);
                let eof = event == InputEvent::Eof;
                if tx.send(T::from(event)).is_err() || eof {
                    break;
                }
            }
        });
    if let Err(e) = spawned {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "wily: cannot start the input thread: {e}"
        );
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes from `reader`.
pub fn read_line<R: BufRead>(reader: &mut R) -> InputEvent {
    let mut line: Vec<u8> = Vec::new();
    let mut total = 0usize;
    loop {
        let (consumed, done) = {
            let buf = match reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return InputEvent::Eof,
            };
            if buf.is_empty() {
                // End of input: deliver a last unterminated line first.
                if total == 0 {
                    return InputEvent::Eof;
                }
                (0, true)
            } else {
                match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => {
                        if total + i <= MAX_LINE {
                            line.extend_from_slice(&buf[..i]);
                        }
                        total += i;
                        (i + 1, true)
                    }
                    None => {
                        if total + buf.len() <= MAX_LINE {
                            line.extend_from_slice(buf);
                        }
                        total += buf.len();
                        (buf.len(), false)
                    }
                }
            }
        };
        reader.consume(consumed);
        if done {
            break;
        }
    }
    if total > MAX_LINE {
        return InputEvent::TooLong(total);
    }
    InputEvent::Line(clean(&line))
}

/// Turns raw bytes into a printable line: invalid UTF-8 is replaced, a trailing `\r` is
/// dropped, tabs become spaces and other control characters become `?`.
pub fn clean(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_suffix('\r').unwrap_or(&text);
    text.chars()
        .map(|c| match c {
            '\t' => ' ',
            c if c.is_control() => '?',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn all(input: &[u8]) -> Vec<InputEvent> {
        let mut r = Cursor::new(input.to_vec());
        let mut out = Vec::new();
        loop {
            let e = read_line(&mut r);
            let eof = e == InputEvent::Eof;
            out.push(e);
            if eof {
                break;
            }
        }
        out
    }

    #[test]
    fn splits_lines_and_strips_cr() {
        let ev = all(b"e4\r\n\nquit");
        assert_eq!(
            ev,
            vec![
                InputEvent::Line("e4".into()),
                InputEvent::Line(String::new()),
                InputEvent::Line("quit".into()),
                InputEvent::Eof
            ]
        );
    }

    #[test]
    fn long_line_is_dropped_and_next_line_survives() {
        let mut input = vec![b'x'; 10 * 1024];
        input.extend_from_slice(b"\nnew\n");
        let ev = all(&input);
        assert_eq!(ev[0], InputEvent::TooLong(10 * 1024));
        assert_eq!(ev[1], InputEvent::Line("new".into()));
    }

    #[test]
    fn binary_bytes_become_printable() {
        let ev = all(b"\x00\xff\x07go\n");
        match &ev[0] {
            InputEvent::Line(s) => {
                assert!(s.ends_with("go"));
                assert!(!s.chars().any(|c| c.is_control()));
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn reader_thread_delivers_everything() {
        let rx = spawn_reader(Cursor::new(b"a\nb\n".to_vec()));
        let got: Vec<InputEvent> = rx.iter().collect();
        assert_eq!(
            got,
            vec![
                InputEvent::Line("a".into()),
                InputEvent::Line("b".into()),
                InputEvent::Eof
            ]
        );
    }
}
