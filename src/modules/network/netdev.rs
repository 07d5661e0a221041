//! `/proc/net/dev`: two header lines, then one line per interface of the reader's network
//! namespace, `name: ` and 16 counters, the first eight received and the next eight
//! transmitted; the first of each is bytes.

/// One line's interface name and its (received, transmitted) bytes.
pub fn parse_line(line: &[u8]) -> Option<(&[u8], u64, u64)> {
    let colon = line.iter().position(|&b| b == b':')?;
    let name = line[..colon].trim_ascii();
    let mut counters = line[colon + 1..]
        .split(|&b| b == b' ' || b == b'\t')
        .filter(|f| !f.is_empty());
    let received = number(counters.next()?)?;
    let transmitted = number(counters.nth(7)?)?;
    (!name.is_empty()).then_some((name, received, transmitted))
}

fn number(field: &[u8]) -> Option<u64> {
    std::str::from_utf8(field).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_of_a_line() {
        let line = b"  eth0: 5296216   29301    0    0    0     0          0         0  1234567   29301    0    0    0     0       0          0";
        assert_eq!(parse_line(line), Some((&b"eth0"[..], 5_296_216, 1_234_567)));
        // Counters run into the colon once they are wide.
        let wide = b"wlp2s0:123456789012 1 0 0 0 0 0 0 987654321 1 0 0 0 0 0 0";
        assert_eq!(
            parse_line(wide),
            Some((&b"wlp2s0"[..], 123_456_789_012, 987_654_321))
        );
        assert_eq!(parse_line(b"Inter-|   Receive  |  Transmit"), None);
        assert_eq!(parse_line(b" face |bytes    packets errs"), None);
        assert_eq!(parse_line(b"eth0: 1 2 3"), None);
        assert_eq!(parse_line(b": 1 2 3 4 5 6 7 8 9 10"), None);
    }
}
