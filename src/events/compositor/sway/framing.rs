//! The i3-ipc framing: the magic `i3-ipc`, the payload's length and the message type
//! (both u32 in the machine's byte order), then the payload.

pub const MAGIC: &[u8; 6] = b"i3-ipc";
/// Magic, length and type.
pub const HEADER_LEN: usize = 14;
/// The longest payload accepted: a tree of thousands of windows is a few MiB.
pub const MAX_PAYLOAD: usize = 16 << 20;

/// One framed message.
pub fn encode(kind: u32, payload: &[u8]) -> Vec<u8> {
    let mut message = Vec::with_capacity(HEADER_LEN + payload.len());
    message.extend_from_slice(MAGIC);
    // A payload never comes near 4 GiB: ours are commands and subscriptions.
    let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
    message.extend_from_slice(&len.to_ne_bytes());
    message.extend_from_slice(&kind.to_ne_bytes());
    message.extend_from_slice(payload);
    message
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The bytes do not start with `i3-ipc`: not sway, or out of step.
    BadMagic,
    /// A payload longer than [`MAX_PAYLOAD`].
    TooLong(usize),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::BadMagic => write!(f, "not an i3-ipc message"),
            DecodeError::TooLong(len) => write!(f, "a message of {len} bytes is too long"),
        }
    }
}

/// Takes bytes as they arrive and yields whole messages. After an error the stream is
/// out of step for good: drop the connection (the decoder keeps failing).
#[derive(Debug, Default)]
pub struct Decoder {
    buf: Vec<u8>,
    /// Where the next message starts in `buf`.
    at: usize,
    failed: Option<DecodeError>,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    pub fn push(&mut self, bytes: &[u8]) {
        if self.failed.is_none() {
            self.buf.extend_from_slice(bytes);
        }
    }

    /// Bytes held for messages not yet complete.
    pub fn buffered(&self) -> usize {
        self.buf.len() - self.at
    }

    /// The next complete message, `Ok(None)` until one has arrived whole.
    pub fn next_message(&mut self) -> Result<Option<(u32, Vec<u8>)>, DecodeError> {
        if let Some(err) = &self.failed {
            return Err(err.clone());
        }
        let rest = &self.buf[self.at..];
        // Check the magic as soon as its bytes are there, not only with a whole header.
        let seen = rest.len().min(MAGIC.len());
        if rest[..seen] != MAGIC[..seen] {
            return Err(self.fail(DecodeError::BadMagic));
        }
        let Some(header) = rest.get(..HEADER_LEN) else {
            return Ok(None);
        };
        let word = |range: std::ops::Range<usize>| {
            let mut bytes = [0; 4];
            bytes.copy_from_slice(&header[range]);
            u32::from_ne_bytes(bytes)
        };
        let len = word(6..10) as usize;
        let kind = word(10..14);
        if len > MAX_PAYLOAD {
            return Err(self.fail(DecodeError::TooLong(len)));
        }
        let Some(payload) = rest.get(HEADER_LEN..HEADER_LEN + len) else {
            return Ok(None);
        };
        let payload = payload.to_vec();
        self.at += HEADER_LEN + len;
        if self.at == self.buf.len() {
            self.buf.clear();
            self.at = 0;
        } else if self.at > 64 << 10 {
            self.buf.drain(..self.at);
            self.at = 0;
        }
        Ok(Some((kind, payload)))
    }

    fn fail(&mut self, err: DecodeError) -> DecodeError {
        self.buf = Vec::new();
        self.at = 0;
        self.failed = Some(err.clone());
        err
    }
}
