//! Splits an event stream (Hyprland's `.socket2.sock`, niri's event stream) into lines,
//! with a bound on their length.

/// Splits a byte stream into lines. A line longer than its cap is dropped whole (the
/// reader skips to its newline), so garbage cannot grow the buffer; odd bytes become
/// U+FFFD.
#[derive(Debug)]
pub struct LineReader {
    buf: Vec<u8>,
    max_line: usize,
    /// Inside a line that was too long: drop bytes up to the next newline.
    skipping: bool,
    /// Lines dropped for their length so far.
    dropped: u64,
}

impl LineReader {
    /// A reader that keeps lines of at most `max_line` bytes.
    pub fn new(max_line: usize) -> LineReader {
        LineReader {
            buf: Vec::new(),
            max_line,
            skipping: false,
            dropped: 0,
        }
    }

    /// How many lines were dropped for their length.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Takes `bytes` and calls `line` with each complete line, without its newline.
    pub fn push(&mut self, mut bytes: &[u8], mut line: impl FnMut(&str)) {
        while let Some(end) = bytes.iter().position(|&b| b == b'\n') {
            if std::mem::take(&mut self.skipping) || self.buf.len() + end > self.max_line {
                self.dropped += 1;
            } else {
                self.buf.extend_from_slice(&bytes[..end]);
                line(&String::from_utf8_lossy(&self.buf));
            }
            self.buf.clear();
            bytes = &bytes[end + 1..];
        }
        if self.skipping {
            return;
        }
        if self.buf.len() + bytes.len() > self.max_line {
            self.buf.clear();
            self.skipping = true;
        } else {
            self.buf.extend_from_slice(bytes);
        }
    }

    /// Bytes held for a line not yet complete.
    #[cfg(test)]
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX_LINE: usize = 8 << 10;

    #[test]
    fn lines_are_split_in_any_pieces_and_overlong_ones_dropped() {
        let stream =
            b"workspacev2>>2,2\nactivewindowv2>>abc\nwindowtitlev2>>abc,t\xffx\n".as_slice();
        for piece in [1, 2, 7, 100] {
            let mut reader = LineReader::new(MAX_LINE);
            let mut lines = Vec::new();
            for chunk in stream.chunks(piece) {
                reader.push(chunk, |l| lines.push(l.to_owned()));
            }
            assert_eq!(
                lines,
                [
                    "workspacev2>>2,2",
                    "activewindowv2>>abc",
                    "windowtitlev2>>abc,t\u{fffd}x"
                ],
                "pieces of {piece}"
            );
            assert_eq!(reader.buffered(), 0);
        }
        // Endless garbage without a newline stays bounded, and the next line is read again.
        let mut reader = LineReader::new(MAX_LINE);
        let mut lines = Vec::new();
        for _ in 0..100 {
            reader.push(&[b'x'; 1000], |l| lines.push(l.to_owned()));
            assert!(reader.buffered() <= MAX_LINE);
        }
        reader.push(b"yyy\nurgent>>abc\n", |l| lines.push(l.to_owned()));
        assert_eq!(lines, ["urgent>>abc"]);
        // A line of exactly the limit is kept; one byte more is not.
        let mut lines = Vec::new();
        let exact = [
            vec![b'a'; MAX_LINE],
            b"\n".to_vec(),
            vec![b'b'; MAX_LINE + 1],
            b"\nend\n".to_vec(),
        ]
        .concat();
        reader.push(&exact, |l| lines.push(l.len()));
        assert_eq!(lines, [MAX_LINE, 3]);
        // The garbage line and the long one.
        assert_eq!(reader.dropped(), 2);
    }
}
