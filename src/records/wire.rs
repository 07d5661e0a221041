//! The messages between `ringbar-probe` (the probe service) and its clients, over a Unix
//! `SOCK_SEQPACKET` socket, where every message arrives whole or not at all.
//!
//! Each side is untrusted input for the other: every message starts with a magic and a
//! version, has an exact size for its kind, and record counts are bounded before anything
//! is read. The fds that travel with some messages (SCM_RIGHTS) are the edge's business.
//!
//! ```text
//! hello    service → client  magic version task_size exit_size         + iterator link fd
//! exits    service → client  magic version op=1 count 0 lost_total       + count exit records
//! request  client → service  magic version op=2 (an iterator fd, please)
//! iterator service → client  magic version op=2 status                   + iterator fd if 0
//! refused  service → client  magic version op=3 reason limit             (instead of hello)
//! walk     client → service  magic version op=4 (walk the tasks for me, please)
//! walked   service → client  magic version op=4 status count walked_ns   + the records' memfd
//!                                                                          (first one only)
//! ```
//!
//! Integers are little-endian. The BPF ring buffer has one consumer position, so the
//! service consumes it and pushes the exit reports to every client as they come (version
//! 3; version 2 made the client ask once per sample, a round trip that cost half a sample).
//! A client takes what waits in its socket at each sample without waiting; an exits
//! message may arrive between a request and its answer. The exit records include the
//! OOM kills (`RECORD_OOM` set in their flags, an `OomRecord` of the same size).
//!
//! Version 4 added the walk: the service runs the probe's walker as the client (its
//! SO_PEERCRED ids) and copies the records into a memfd of that client's own, which the
//! client maps read-only; the answer says how many records it holds now. Status 0: `count`
//! records, walked at `walked_ns` (CLOCK_MONOTONIC, one clock for the whole machine);
//! `EOVERFLOW`: more tasks than the memfd holds (read this sample through the iterator);
//! any other errno: no walks for this client (the iterator from then on).
//!
//! Version 5: exit reports grew to 128 bytes, with the group's tgid in each PID namespace
//! below the initial one it lives in (`ns_tgid`).

use crate::model::record::{decode_exit, ExitRecord, TaskRecord};

pub const MAGIC: [u8; 4] = *b"RBPS";
pub const VERSION: u16 = 5;

const TASK_SIZE: usize = std::mem::size_of::<TaskRecord>();
const EXIT_SIZE: usize = std::mem::size_of::<ExitRecord>();

pub const HELLO_LEN: usize = 12;
pub const REQUEST_LEN: usize = 8;
pub const EXITS_HEADER_LEN: usize = 24;
pub const ITERATOR_LEN: usize = 12;
pub const REFUSED_LEN: usize = 16;
pub const WALKED_LEN: usize = 24;
/// Exit records in one message at most (64 KiB, well within a socket's default send
/// buffer): a larger backlog goes in several.
pub const MAX_EXITS_PER_MESSAGE: usize = 512;
/// The largest message either side sends.
pub const MAX_MESSAGE_LEN: usize = EXITS_HEADER_LEN + MAX_EXITS_PER_MESSAGE * EXIT_SIZE;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Exits = 1,
    Iterator = 2,
    Refused = 3,
    Walk = 4,
}

impl Op {
    fn from_u16(op: u16) -> Option<Op> {
        match op {
            1 => Some(Op::Exits),
            2 => Some(Op::Iterator),
            3 => Some(Op::Refused),
            4 => Some(Op::Walk),
            _ => None,
        }
    }
}

/// Why a message was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireError {
    Size,
    Magic,
    Version(u16),
    Op,
    RecordSize,
    Count,
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WireError::Size => write!(f, "a message of the wrong size"),
            WireError::Magic => write!(f, "not a ringbar-probe message"),
            WireError::Version(v) => {
                write!(f, "protocol version {v}, this ringbar speaks {VERSION}")
            }
            WireError::Op => write!(f, "an unknown request"),
            WireError::RecordSize => write!(f, "record sizes of another ringbar build"),
            WireError::Count => write!(f, "a record count that does not match the message"),
        }
    }
}

impl std::error::Error for WireError {}

fn header(op: u16, out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&op.to_le_bytes());
}

/// Checks magic and version; the third u16 (op or field) is returned.
fn check_header(bytes: &[u8]) -> Result<u16, WireError> {
    if bytes.len() < 8 {
        return Err(WireError::Size);
    }
    if bytes[..4] != MAGIC {
        return Err(WireError::Magic);
    }
    let version = u16_at(bytes, 4);
    if version != VERSION {
        return Err(WireError::Version(version));
    }
    Ok(u16_at(bytes, 6))
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

/// The service's greeting: its record sizes must be this build's.
pub fn encode_hello(out: &mut Vec<u8>) {
    // The header's third field carries the task record size here.
    header(TASK_SIZE as u16, out);
    out.extend_from_slice(&(EXIT_SIZE as u16).to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
}

pub fn decode_hello(bytes: &[u8]) -> Result<(), WireError> {
    if bytes.len() != HELLO_LEN {
        return Err(WireError::Size);
    }
    let task_size = check_header(bytes)?;
    if usize::from(task_size) != TASK_SIZE || usize::from(u16_at(bytes, 8)) != EXIT_SIZE {
        return Err(WireError::RecordSize);
    }
    Ok(())
}

/// Why the service turned a client away, sent instead of the greeting before it closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The client's user holds `limit` connections already.
    UserLimit { limit: u32 },
    /// The service holds `limit` connections already.
    Full { limit: u32 },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::UserLimit { limit } => write!(
                f,
                "this user already holds {limit} connections, the most one user may"
            ),
            Refusal::Full { limit } => {
                write!(f, "it serves {limit} connections already, its most")
            }
        }
    }
}

pub fn encode_refused(refusal: Refusal, out: &mut Vec<u8>) {
    let (reason, limit) = match refusal {
        Refusal::UserLimit { limit } => (1u32, limit),
        Refusal::Full { limit } => (2, limit),
    };
    header(Op::Refused as u16, out);
    out.extend_from_slice(&reason.to_le_bytes());
    out.extend_from_slice(&limit.to_le_bytes());
}

/// The service's first message: its greeting, or why it turned the client away. (The
/// greeting's third field is the task record's size, never 3.)
pub fn decode_greeting(bytes: &[u8]) -> Result<Result<(), Refusal>, WireError> {
    if bytes.len() == REFUSED_LEN && Op::from_u16(check_header(bytes)?) == Some(Op::Refused) {
        let limit = u32_at(bytes, 12);
        return match u32_at(bytes, 8) {
            1 => Ok(Err(Refusal::UserLimit { limit })),
            2 => Ok(Err(Refusal::Full { limit })),
            _ => Err(WireError::Op),
        };
    }
    decode_hello(bytes).map(Ok)
}

/// What a client asks for: [`Op::Walk`], the tasks walked for it, or [`Op::Iterator`],
/// an iterator instance (where walks are not offered and the kernel refuses it one of its
/// own).
pub fn encode_request(op: Op, out: &mut Vec<u8>) {
    header(op as u16, out);
}

pub fn decode_request(bytes: &[u8]) -> Result<Op, WireError> {
    if bytes.len() != REQUEST_LEN {
        return Err(WireError::Size);
    }
    match Op::from_u16(check_header(bytes)?) {
        Some(op @ (Op::Iterator | Op::Walk)) => Ok(op),
        Some(Op::Exits | Op::Refused) | None => Err(WireError::Op),
    }
}

/// Which kind of message the service sent (the client then decodes it as that kind).
pub fn service_message_op(bytes: &[u8]) -> Result<Op, WireError> {
    Op::from_u16(check_header(bytes)?).ok_or(WireError::Op)
}

/// An exits message: at most [`MAX_EXITS_PER_MESSAGE`] of `records`, and the count of
/// records the service had to drop for this client so far.
pub fn encode_exits(records: &[ExitRecord], lost_total: u64, out: &mut Vec<u8>) {
    let records = &records[..records.len().min(MAX_EXITS_PER_MESSAGE)];
    header(Op::Exits as u16, out);
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes()); // flags: none defined
    out.extend_from_slice(&lost_total.to_le_bytes());
    for record in records {
        out.extend_from_slice(bytemuck::bytes_of(record));
    }
}

/// Decodes an exits message, appending its records to `out`; returns the count of
/// records the service had to drop for this client so far.
pub fn decode_exits(bytes: &[u8], out: &mut Vec<ExitRecord>) -> Result<u64, WireError> {
    if bytes.len() < EXITS_HEADER_LEN {
        return Err(WireError::Size);
    }
    if Op::from_u16(check_header(bytes)?) != Some(Op::Exits) {
        return Err(WireError::Op);
    }
    let count = u32_at(bytes, 8) as usize;
    let body = &bytes[EXITS_HEADER_LEN..];
    if count > MAX_EXITS_PER_MESSAGE || body.len() != count * EXIT_SIZE {
        return Err(WireError::Count);
    }
    out.extend(body.chunks_exact(EXIT_SIZE).filter_map(decode_exit));
    Ok(u64_at(bytes, 16))
}

/// The answer to an iterator request: 0 and an fd, or the errno the service got.
pub fn encode_iterator(errno: u32, out: &mut Vec<u8>) {
    header(Op::Iterator as u16, out);
    out.extend_from_slice(&errno.to_le_bytes());
}

pub fn decode_iterator(bytes: &[u8]) -> Result<u32, WireError> {
    if bytes.len() != ITERATOR_LEN {
        return Err(WireError::Size);
    }
    if Op::from_u16(check_header(bytes)?) != Some(Op::Iterator) {
        return Err(WireError::Op);
    }
    Ok(u32_at(bytes, 8))
}

/// The answer to a walk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Walked {
    /// 0, or an errno.
    pub status: u32,
    /// The records it left in the client's memfd.
    pub count: u32,
    /// When it walked (CLOCK_MONOTONIC).
    pub walked_ns: u64,
}

pub fn encode_walked(walked: Walked, out: &mut Vec<u8>) {
    header(Op::Walk as u16, out);
    out.extend_from_slice(&walked.status.to_le_bytes());
    out.extend_from_slice(&walked.count.to_le_bytes());
    out.extend_from_slice(&walked.walked_ns.to_le_bytes());
}

pub fn decode_walked(bytes: &[u8]) -> Result<Walked, WireError> {
    if bytes.len() != WALKED_LEN {
        return Err(WireError::Size);
    }
    if Op::from_u16(check_header(bytes)?) != Some(Op::Walk) {
        return Err(WireError::Op);
    }
    Ok(Walked {
        status: u32_at(bytes, 8),
        count: u32_at(bytes, 12),
        walked_ns: u64_at(bytes, 16),
    })
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
