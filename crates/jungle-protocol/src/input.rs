//! Reading command lines with a bound: a line longer than [`MAX_LINE_BYTES`] is read to its end but not kept,
//! so a client cannot make the session hold (or echo back) an unbounded line.

use std::io::{self, BufRead};

/// The longest line kept: a `position … moves …` of a 100,000-ply game fits.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line read from the input.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// The line without its end-of-line characters (bytes that are not UTF-8 replaced).
    Text(String),
    /// A line of this many bytes, longer than the bound; it was skipped.
    TooLong(usize),
}

/// The next line of `input`, or `None` at the end of the input.
pub(crate) fn read_line(input: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    let mut kept = Vec::new();
    let mut length = 0usize;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        let (chunk, ends) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        let room = (max + 1).saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        length = length.saturating_add(chunk.len());
        let consumed = chunk.len() + usize::from(ends);
        input.consume(consumed);
        if ends {
            return Ok(Some(finish(kept, length, max)));
        }
    }
    Ok((length > 0).then(|| finish(kept, length, max)))
}

fn finish(mut kept: Vec<u8>, length: usize, max: usize) -> Line {
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    if length > max {
        Line::TooLong(length)
    } else {
        Line::Text(String::from_utf8_lossy(&kept).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<Line> {
        let mut reader = io::BufReader::with_capacity(4, input);
        std::iter::from_fn(|| read_line(&mut reader, max).unwrap()).collect()
    }

    #[test]
    fn lines_are_split_and_long_ones_skipped_whole() {
        assert_eq!(
            lines(b"uci\r\nisready\n\nquit", 8),
            vec![
                Line::Text("uci".into()),
                Line::Text("isready".into()),
                Line::Text(String::new()),
                Line::Text("quit".into())
            ]
        );
        assert_eq!(
            lines(b"12345678\n123456789\nisready\n", 8),
            vec![
                Line::Text("12345678".into()),
                Line::TooLong(9),
                Line::Text("isready".into())
            ]
        );
        assert_eq!(lines(b"", 8), vec![]);
    }
}
