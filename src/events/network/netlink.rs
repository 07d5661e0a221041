//! rtnetlink, on the main loop: one NETLINK_ROUTE socket subscribed to link, address and
//! route changes, read only when the kernel has something to say (never polled). It
//! first dumps the links, then the addresses, then the routes (a socket runs one dump at
//! a time), and dumps again after an overrun (ENOBUFS: the kernel dropped events).
//! [`snapshot`] makes the same dumps once, blocking, for `--once`.

use std::cell::{Cell, RefCell};
use std::io;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use gtk4::glib;
use netlink_packet_core::{
    NetlinkHeader, NetlinkMessage, NetlinkPayload, NLM_F_DUMP, NLM_F_REQUEST,
};
use netlink_packet_route::address::AddressMessage;
use netlink_packet_route::link::LinkMessage;
use netlink_packet_route::route::RouteMessage;
use netlink_packet_route::RouteNetlinkMessage;
use netlink_sys::{protocols::NETLINK_ROUTE, Socket, SocketAddr};

use super::{from_netlink, NetworkState};
use crate::events::source::{OnChange, Watch};

/// The multicast groups (`RTNLGRP_*` in linux/rtnetlink.h): links, and the IPv4 and IPv6
/// addresses and routes.
const GROUPS: [u32; 5] = [1, 5, 7, 9, 11];
/// What a dump asks for, in order: routes name links, and links come first.
const DUMPS: [Dump; 3] = [Dump::Links, Dump::Addresses, Dump::Routes];
/// Far above a burst of events on a busy machine; ENOBUFS past it is handled.
const RECEIVE_BUFFER: usize = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dump {
    Links,
    Addresses,
    Routes,
}

/// The dumps and events of one socket, into one state.
struct Session {
    socket: Socket,
    sys: PathBuf,
    state: NetworkState,
    /// The dump running now and those after it; empty once the state is whole.
    pending: Vec<Dump>,
    /// A dump must start again from the links when the running one ends.
    redump: bool,
    sequence: u32,
    buffer: Vec<u8>,
}

impl Session {
    fn open(groups: &[u32], sys: &Path) -> io::Result<Session> {
        let mut socket = Socket::new(NETLINK_ROUTE)?;
        socket.bind(&SocketAddr::new(0, 0))?;
        for &group in groups {
            socket.add_membership(group)?;
        }
        let _ = socket.set_rx_buf_sz(RECEIVE_BUFFER);
        Ok(Session {
            socket,
            sys: sys.to_owned(),
            state: NetworkState::default(),
            pending: Vec::new(),
            redump: false,
            sequence: 0,
            buffer: vec![0; 64 * 1024],
        })
    }

    /// Starts over: the whole state from fresh dumps.
    fn dump_all(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            self.redump = true;
            return Ok(());
        }
        self.state = NetworkState::default();
        self.pending = DUMPS.iter().rev().copied().collect();
        self.request_next()
    }

    fn request_next(&mut self) -> io::Result<()> {
        let Some(&dump) = self.pending.last() else {
            return Ok(());
        };
        let payload = match dump {
            Dump::Links => RouteNetlinkMessage::GetLink(LinkMessage::default()),
            Dump::Addresses => RouteNetlinkMessage::GetAddress(AddressMessage::default()),
            Dump::Routes => RouteNetlinkMessage::GetRoute(RouteMessage::default()),
        };
        let mut header = NetlinkHeader::default();
        header.flags = NLM_F_REQUEST | NLM_F_DUMP;
        self.sequence = self.sequence.wrapping_add(1);
        header.sequence_number = self.sequence;
        let mut message = NetlinkMessage::new(header, NetlinkPayload::from(payload));
        message.finalize();
        let mut bytes = vec![0; message.buffer_len()];
        message.serialize(&mut bytes);
        self.socket.send(&bytes, 0)?;
        Ok(())
    }

    /// Reads one datagram's messages into the state. `Ok(true)` when it changed the
    /// whole state (events, or the last dump's end); `WouldBlock` when there is none.
    fn receive(&mut self) -> io::Result<bool> {
        let length = match self.socket.recv(&mut &mut self.buffer[..], 0) {
            Ok(length) => length,
            Err(err) if err.raw_os_error() == Some(rustix::io::Errno::NOBUFS.raw_os_error()) => {
                tracing::info!("network: events were dropped; reading the state again");
                self.dump_all()?;
                return Ok(false);
            }
            Err(err) => return Err(err),
        };
        let mut changed = false;
        let mut offset = 0;
        while offset < length {
            let bytes = &self.buffer[offset..length];
            let message = match NetlinkMessage::<RouteNetlinkMessage>::deserialize(bytes) {
                Ok(message) => message,
                Err(err) => {
                    tracing::debug!("network: an rtnetlink message that does not parse: {err}");
                    break;
                }
            };
            let size = message.header.length as usize;
            if size == 0 {
                break;
            }
            offset += (size + 3) & !3;
            changed |= self.handle(message)?;
        }
        Ok(changed && self.pending.is_empty())
    }

    fn handle(&mut self, message: NetlinkMessage<RouteNetlinkMessage>) -> io::Result<bool> {
        match message.payload {
            NetlinkPayload::InnerMessage(inner) => {
                match from_netlink::change(inner, &self.sys) {
                    Some(change) => self.state.apply(change),
                    None => return Ok(false),
                }
                Ok(true)
            }
            NetlinkPayload::Done(_) => self.dump_done(),
            NetlinkPayload::Error(error) => {
                tracing::debug!("network: rtnetlink said {error:?}");
                self.dump_done()
            }
            NetlinkPayload::Overrun(_) => {
                self.dump_all()?;
                Ok(false)
            }
            _ => Ok(false),
        }
    }

    /// The running dump ended: the next one, or the state is whole.
    fn dump_done(&mut self) -> io::Result<bool> {
        if self.pending.pop().is_none() {
            return Ok(false);
        }
        if self.redump && self.pending.is_empty() {
            self.redump = false;
            self.dump_all()?;
            return Ok(false);
        }
        self.request_next()?;
        Ok(self.pending.is_empty())
    }
}

/// Follows the network on the main loop; `on_change` gets the whole state after the
/// first dumps and after each batch of changes. Dropping it stops it.
pub struct NetworkWatch {
    source: Option<glib::SourceId>,
    /// The source removed itself (the socket failed).
    ended: Rc<Cell<bool>>,
}

impl Watch<NetworkState> for NetworkWatch {
    fn start(_: &(), on_change: OnChange<NetworkState>) -> Option<NetworkWatch> {
        match NetworkWatch::follow(on_change) {
            Ok(watch) => Some(watch),
            Err(err) => {
                tracing::warn!("network: cannot follow rtnetlink, not shown: {err}");
                None
            }
        }
    }
}

impl NetworkWatch {
    fn follow(on_change: OnChange<NetworkState>) -> io::Result<NetworkWatch> {
        let mut session = Session::open(&GROUPS, Path::new("/sys"))?;
        session.socket.set_non_blocking(true)?;
        session.dump_all()?;
        let fd = session.socket.as_raw_fd();
        let session = Rc::new(RefCell::new(session));
        let ended = Rc::new(Cell::new(false));
        let ended_here = ended.clone();
        let on_readable = move |_, _| {
            let mut session = session.borrow_mut();
            let mut changed = false;
            loop {
                match session.receive() {
                    Ok(batch) => changed |= batch,
                    Err(err) if err.kind() == io::ErrorKind::WouldBlock => break,
                    Err(err) => {
                        tracing::warn!("network: rtnetlink failed, no more updates: {err}");
                        ended_here.set(true);
                        return glib::ControlFlow::Break;
                    }
                }
            }
            // One call per wake-up, however many events came: a flood draws once. An
            // rfkill block takes the Wi-Fi links down, so the radios are read here.
            if changed {
                session.state.wifi_blocked = super::wifi_radios_blocked(&session.sys);
                on_change(Some(&session.state));
            }
            glib::ControlFlow::Continue
        };
        let source = glib_unix::unix_fd_add_local(fd, glib::IOCondition::IN, on_readable);
        Ok(NetworkWatch {
            source: Some(source),
            ended,
        })
    }
}

impl Drop for NetworkWatch {
    fn drop(&mut self) {
        if let (Some(source), false) = (self.source.take(), self.ended.get()) {
            source.remove();
        }
    }
}
