//! Wayfire's framing: each message is its length (four bytes, little-endian) and then
//! that many bytes of JSON, both ways.

use serde_json::Value;

/// The longest message kept: `list-views` of a few thousand views is a few MiB. A longer
/// length is a broken or hostile peer, and ends the connection.
pub const MAX_MESSAGE: usize = 16 << 20;

/// The request `method` with `data`, framed.
pub fn message(method: &str, data: Value) -> Vec<u8> {
    let json = serde_json::json!({ "method": method, "data": data }).to_string();
    let length = u32::try_from(json.len()).unwrap_or(u32::MAX);
    let mut framed = length.to_le_bytes().to_vec();
    framed.extend_from_slice(json.as_bytes());
    framed
}

/// Cuts a byte stream into messages.
#[derive(Debug, Default)]
pub struct Frames {
    buffer: Vec<u8>,
}

impl Frames {
    /// Takes `bytes` and hands each message completed to `message`; `Err` when a length
    /// is over [`MAX_MESSAGE`] (nothing after it can be trusted).
    pub fn push(&mut self, bytes: &[u8], mut message: impl FnMut(&[u8])) -> Result<(), String> {
        self.buffer.extend_from_slice(bytes);
        let mut start = 0;
        while let Some(head) = self.buffer.get(start..start + 4) {
            let length = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
            if length > MAX_MESSAGE {
                self.buffer.clear();
                return Err(format!(
                    "a message of {length} bytes (at most {MAX_MESSAGE})"
                ));
            }
            let Some(body) = self.buffer.get(start + 4..start + 4 + length) else {
                break;
            };
            message(body);
            start += 4 + length;
        }
        self.buffer.drain(..start);
        Ok(())
    }
}
