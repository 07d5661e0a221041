//! Output split into lines of bounded length.

use crate::events::script::lines::{Line, LineSplitter};

fn split(max: usize, chunks: &[&[u8]], finish: bool) -> Vec<(String, bool)> {
    let mut splitter = LineSplitter::new(max);
    let mut lines = Vec::new();
    let mut push = |line: Line<'_>| {
        lines.push((String::from_utf8_lossy(line.bytes).into_owned(), line.cut));
    };
    for chunk in chunks {
        splitter.feed(chunk, &mut push);
    }
    if finish {
        splitter.finish(&mut push);
    }
    lines
}

#[test]
fn lines_are_split_and_capped() {
    let line = |s: &str, cut| (s.to_owned(), cut);
    assert_eq!(
        split(8, &[b"ab\ncd", b"ef\n\ngh"], true),
        [
            line("ab", false),
            line("cdef", false),
            line("", false),
            line("gh", false)
        ]
    );
    assert!(split(16, &[b"no newline"], false).is_empty());
    // Cut as soon as it passes the limit, and the rest skipped up to the newline.
    assert_eq!(
        split(4, &[b"abc", b"defgh", b"ijk", b"lm\nok\n"], true),
        [line("abcd", true), line("ok", false)]
    );
    assert_eq!(
        split(4, &[b"abcdefgh\nxy"], true),
        [line("abcd", true), line("xy", false)]
    );
    assert_eq!(split(4, &[b"abcd\n"], true), [line("abcd", false)]);
    assert_eq!(split(4, &[b"ab", b"cd\n"], true), [line("abcd", false)]);
    // An endless line: one report, and nothing kept.
    let mut splitter = LineSplitter::new(64);
    let mut count = 0;
    for _ in 0..10_000 {
        splitter.feed(&[b'x'; 4096], |line| {
            assert!(line.cut && line.bytes.len() == 64);
            count += 1;
        });
    }
    splitter.finish(|_| count += 100);
    assert_eq!(count, 1);
}
