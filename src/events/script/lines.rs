//! Splits a byte stream into lines of bounded length, so that a script printing an endless
//! line cannot grow ringbar's memory: a line longer than the limit is reported once, cut,
//! as soon as it passes the limit, and the rest of it is skipped up to its newline.

/// One line of output, without its newline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    pub bytes: &'a [u8],
    /// The line was longer than the limit; `bytes` are its beginning.
    pub cut: bool,
}

#[derive(Debug)]
pub struct LineSplitter {
    max: usize,
    /// The beginning of a line whose newline has not arrived yet.
    partial: Vec<u8>,
    /// Skipping the rest of a line that was cut.
    skipping: bool,
}

impl LineSplitter {
    /// Lines of at most `max` bytes (`max` ≥ 1).
    pub fn new(max: usize) -> LineSplitter {
        LineSplitter {
            max: max.max(1),
            partial: Vec::new(),
            skipping: false,
        }
    }

    /// Feeds a chunk; calls `on_line` for each line it completes or cuts.
    pub fn feed(&mut self, mut bytes: &[u8], mut on_line: impl FnMut(Line<'_>)) {
        while !bytes.is_empty() {
            let newline = bytes.iter().position(|&b| b == b'\n');
            let piece = &bytes[..newline.unwrap_or(bytes.len())];
            bytes = newline.map_or(&[], |i| &bytes[i + 1..]);
            if self.skipping {
                self.skipping = newline.is_none();
                continue;
            }
            let room = self.max - self.partial.len();
            if piece.len() > room {
                // Cut now: the rest of this line is never stored.
                self.partial.extend_from_slice(&piece[..room]);
                on_line(Line {
                    bytes: &self.partial,
                    cut: true,
                });
                self.partial.clear();
                self.skipping = newline.is_none();
            } else if newline.is_none() {
                self.partial.extend_from_slice(piece);
            } else if self.partial.is_empty() {
                on_line(Line {
                    bytes: piece,
                    cut: false,
                });
            } else {
                self.partial.extend_from_slice(piece);
                on_line(Line {
                    bytes: &self.partial,
                    cut: false,
                });
                self.partial.clear();
            }
        }
    }

    /// The end of the stream: a last line without a newline counts as a line.
    pub fn finish(&mut self, mut on_line: impl FnMut(Line<'_>)) {
        if !self.partial.is_empty() {
            on_line(Line {
                bytes: &self.partial,
                cut: false,
            });
        }
        self.partial = Vec::new();
        self.skipping = false;
    }
}
