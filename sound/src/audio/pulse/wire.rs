//! The PulseAudio protocol's connection on the main loop: a non-blocking Unix socket,
//! commands written as they are made (what the socket does not take yet waits for it to
//! be writable), and what arrives cut into whole packets. The packets' contents are the
//! `pulseaudio` crate's (its tagstruct readers and writers); the client never waits for
//! the server.

use std::cell::RefCell;
use std::io::{Cursor, Error, ErrorKind, Result as IoResult};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::rc::Rc;

use glib::{ControlFlow, IOCondition};
use pulseaudio::protocol::{self, Command, CommandReply, ProtocolError, DESCRIPTOR_SIZE};
use ringbar::events::compositor::io as socket_io;

/// The most a packet may hold: the protocol's own bound on a message.
const MAX_PACKET: usize = protocol::MAX_MEMBLOCKQ_LENGTH;
/// Read at most this much in one turn of the main loop.
const READ_BUDGET: usize = 256 << 10;
/// Control packets are on this channel; others carry a stream's audio (none here).
const CONTROL_CHANNEL: u32 = u32::MAX;

/// One packet from the server: its sequence number, its command, and the whole packet
/// to read a reply from.
pub(super) struct Packet {
    pub seq: u32,
    pub command: Command,
    bytes: Vec<u8>,
}

impl Packet {
    /// The reply this packet carries, as `T` (an error reply gives the server's error).
    pub fn reply<T: CommandReply>(&self, version: u16) -> Result<T, ProtocolError> {
        protocol::read_reply_message::<T>(&mut Cursor::new(&self.bytes[..]), version)
            .map(|(_, reply)| reply)
    }
}

pub(super) struct Wire {
    stream: UnixStream,
    /// Bytes read that do not make a whole packet yet.
    inbox: Vec<u8>,
    /// Bytes the socket did not take yet, in order: shared with the watch that writes
    /// them once it is writable (while any wait, that watch is on).
    outbox: Rc<RefCell<Vec<u8>>>,
    watch: glib::Source,
    out_watch: Option<glib::Source>,
    next_seq: u32,
    /// The protocol version agreed on (the crate's own until the server says).
    pub version: u16,
}

impl Wire {
    /// Connects to the server's socket at `path`; `on_ready` runs on the main loop each
    /// time something arrives, or the socket fails or hangs up.
    pub fn connect(path: &Path, on_ready: impl FnMut() -> ControlFlow + 'static) -> IoResult<Wire> {
        let stream = socket_io::connect(path)?;
        let watch = socket_io::watch(&stream, IOCondition::IN, on_ready);
        Ok(Wire {
            stream,
            inbox: Vec::new(),
            outbox: Rc::default(),
            watch,
            out_watch: None,
            next_seq: 0,
            version: protocol::MAX_VERSION,
        })
    }

    /// Writes `command` (as much as the socket takes now; the rest once it is writable);
    /// its sequence number, which the reply carries.
    pub fn send(&mut self, command: &Command) -> Result<u32, ProtocolError> {
        let seq = self.next_seq;
        self.next_seq = self.next_seq.wrapping_add(1);
        // Bytes already waiting have a watch that writes these after them.
        let watched = !self.outbox.borrow().is_empty();
        protocol::write_command_message(
            &mut *self.outbox.borrow_mut(),
            seq,
            command,
            self.version,
        )?;
        if !watched {
            self.flush()?;
        }
        Ok(seq)
    }

    /// Writes what the socket takes now, and the rest once it is writable.
    fn flush(&mut self) -> IoResult<()> {
        socket_io::write_available(&mut self.stream, &mut self.outbox.borrow_mut())?;
        if self.outbox.borrow().is_empty() {
            return Ok(());
        }
        let mut stream = self.stream.try_clone()?;
        let outbox = self.outbox.clone();
        if let Some(done) = self.out_watch.take() {
            done.destroy();
        }
        self.out_watch = Some(socket_io::watch(
            &self.stream,
            IOCondition::OUT,
            move || {
                let mut outbox = outbox.borrow_mut();
                match socket_io::write_available(&mut stream, &mut outbox) {
                    Ok(()) if !outbox.is_empty() => ControlFlow::Continue,
                    Ok(()) => ControlFlow::Break,
                    // A failed socket hangs up for the reader too; nothing more is sent.
                    Err(_) => ControlFlow::Break,
                }
            },
        ));
        Ok(())
    }

    /// The whole packets that arrived (control packets only); `Ok(None)` once the server
    /// closed the connection.
    pub fn receive(&mut self) -> IoResult<Option<Vec<Packet>>> {
        let inbox = &mut self.inbox;
        let ended = socket_io::read_available(&mut self.stream, READ_BUDGET, |bytes| {
            inbox.extend_from_slice(bytes)
        })?;
        let mut packets = Vec::new();
        while let Some(length) = whole_packet(&self.inbox)? {
            let bytes: Vec<u8> = self.inbox.drain(..length).collect();
            if let Some(packet) = parse(bytes, self.version) {
                packets.push(packet);
            }
        }
        Ok((!ended).then_some(packets))
    }
}

impl Drop for Wire {
    fn drop(&mut self) {
        self.watch.destroy();
        if let Some(watch) = self.out_watch.take() {
            watch.destroy();
        }
    }
}

/// The length of the packet at the start of `inbox` (its header included) once all of it
/// is there.
fn whole_packet(inbox: &[u8]) -> IoResult<Option<usize>> {
    let Some(header) = inbox.get(..DESCRIPTOR_SIZE) else {
        return Ok(None);
    };
    let payload = u32::from_be_bytes([header[0], header[1], header[2], header[3]]) as usize;
    if payload > MAX_PACKET {
        let message = format!("the server sent a packet of {payload} bytes");
        return Err(Error::new(ErrorKind::InvalidData, message));
    }
    let length = DESCRIPTOR_SIZE + payload;
    Ok((inbox.len() >= length).then_some(length))
}

/// A control packet's command; `None` for another channel's, or one this client cannot
/// read (a newer server's command, said at debug level).
fn parse(bytes: Vec<u8>, version: u16) -> Option<Packet> {
    let channel = u32::from_be_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
    if channel != CONTROL_CHANNEL {
        return None;
    }
    match protocol::read_command_message(&mut Cursor::new(&bytes[..]), version) {
        Ok((seq, command)) => Some(Packet {
            seq,
            command,
            bytes,
        }),
        Err(err) => {
            tracing::debug!("audio: a packet from the sound server not read: {err}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(payload: &[u8], channel: u32) -> Vec<u8> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&(payload.len() as u32).to_be_bytes());
        bytes.extend_from_slice(&channel.to_be_bytes());
        bytes.extend_from_slice(&[0; 12]);
        bytes.extend_from_slice(payload);
        bytes
    }

    #[test]
    fn a_packet_is_whole_once_its_payload_is_there() {
        let bytes = packet(&[1, 2, 3], CONTROL_CHANNEL);
        assert_eq!(whole_packet(&bytes[..10]).expect("in the test"), None);
        assert_eq!(whole_packet(&bytes[..22]).expect("in the test"), None);
        assert_eq!(whole_packet(&bytes).expect("in the test"), Some(23));
        let mut two = bytes.clone();
        two.extend_from_slice(&bytes);
        assert_eq!(whole_packet(&two).expect("in the test"), Some(23));
    }

    #[test]
    fn an_oversized_packet_is_an_error() {
        let mut bytes = packet(&[], CONTROL_CHANNEL);
        bytes[..4].copy_from_slice(&(MAX_PACKET as u32 + 1).to_be_bytes());
        assert!(whole_packet(&bytes).is_err());
    }

    #[test]
    fn a_command_written_is_read_back_and_audio_packets_are_left_out() {
        let mut bytes = Vec::new();
        let command = Command::GetSinkInfoList;
        protocol::write_command_message(&mut bytes, 7, &command, protocol::MAX_VERSION)
            .expect("in the test");
        let read = parse(bytes.clone(), protocol::MAX_VERSION).expect("a control packet");
        assert_eq!(read.seq, 7);
        assert!(matches!(read.command, Command::GetSinkInfoList));
        bytes[4..8].copy_from_slice(&0u32.to_be_bytes());
        assert!(parse(bytes, protocol::MAX_VERSION).is_none());
    }

    #[test]
    fn garbage_is_left_out() {
        assert!(parse(packet(&[0xff; 9], CONTROL_CHANNEL), protocol::MAX_VERSION).is_none());
    }
}
