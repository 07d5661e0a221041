//! What arrives from the server: the handshake's replies in turn (authentication, the
//! client's name, the subscription), a read's replies, and the events that ask for a new
//! read.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use glib::ControlFlow;
use pulseaudio::protocol::{self, AuthReply, Command, Prop, Props, SetClientNameReply};
use pulseaudio::protocol::{SubscriptionMask, MIN_VERSION};

use super::read::{self, queue_refresh};
use super::wire::Packet;
use super::{lost, ready, send, Inner, Request};

/// The socket has something (or hung up): each whole packet is handled in turn.
pub(super) fn on_readable(weak: &Weak<RefCell<Inner>>) -> ControlFlow {
    let Some(inner_rc) = weak.upgrade() else {
        return ControlFlow::Break;
    };
    let received = match inner_rc.borrow_mut().wire.as_mut() {
        Some(wire) => wire.receive(),
        None => return ControlFlow::Break,
    };
    match received {
        Ok(Some(packets)) => {
            for packet in packets {
                if inner_rc.borrow().wire.is_none() {
                    break; // a packet before this one ended the connection
                }
                handle(&inner_rc, packet);
            }
            ControlFlow::Continue
        }
        Ok(None) => {
            lost(&inner_rc, "the server closed the connection");
            ControlFlow::Break
        }
        Err(err) => {
            lost(&inner_rc, &err.to_string());
            ControlFlow::Break
        }
    }
}

fn handle(inner_rc: &Rc<RefCell<Inner>>, packet: Packet) {
    match packet.command {
        Command::SubscribeEvent(_) => queue_refresh(&Rc::downgrade(inner_rc)),
        Command::Reply | Command::Error(_) => {
            let request = {
                let mut inner = inner_rc.borrow_mut();
                let at = inner.pending.iter().position(|(seq, _)| *seq == packet.seq);
                at.map(|at| inner.pending.swap_remove(at).1)
            };
            if let Some(request) = request {
                replied(inner_rc, request, &packet);
            }
        }
        _ => {}
    }
}

/// The reply to `request` came.
fn replied(inner_rc: &Rc<RefCell<Inner>>, request: Request, packet: &Packet) {
    let version = match inner_rc.borrow().wire.as_ref() {
        Some(wire) => wire.version,
        None => return,
    };
    match request {
        Request::Auth => match packet.reply::<AuthReply>(version) {
            Ok(reply) if reply.version >= MIN_VERSION => {
                let mut inner = inner_rc.borrow_mut();
                if let Some(wire) = inner.wire.as_mut() {
                    wire.version = reply.version.min(protocol::MAX_VERSION);
                }
                let name = Command::SetClientName(client_properties());
                send(&mut inner, &name, Request::ClientName);
            }
            Ok(reply) => lost(
                inner_rc,
                &format!("the server speaks protocol version {}", reply.version),
            ),
            Err(err) => lost(
                inner_rc,
                &format!("the server did not let the bar in: {err}"),
            ),
        },
        Request::ClientName => match packet.reply::<SetClientNameReply>(version) {
            Ok(_) => {
                let interest = SubscriptionMask::SINK
                    | SubscriptionMask::SOURCE
                    | SubscriptionMask::SOURCE_OUTPUT
                    | SubscriptionMask::SINK_INPUT
                    | SubscriptionMask::SERVER;
                let subscribe = Command::Subscribe(interest);
                send(&mut inner_rc.borrow_mut(), &subscribe, Request::Subscribe);
            }
            Err(err) => lost(
                inner_rc,
                &format!("the server refused the bar's name: {err}"),
            ),
        },
        Request::Subscribe => match packet.command {
            Command::Reply => ready(inner_rc),
            _ => lost(inner_rc, "the server refused to send its events"),
        },
        Request::Change => {
            if let Command::Error(err) = packet.command {
                tracing::debug!("audio: the sound server refused a change: {err:?}");
            }
        }
        reading => read::replied(inner_rc, reading, packet, version),
    }
}

/// How the bar names itself to the server (`pactl list clients` shows it).
fn client_properties() -> Props {
    let mut props = Props::new();
    props.set(Prop::ApplicationName, c"ringbar");
    let pid = std::ffi::CString::new(std::process::id().to_string()).unwrap_or_default();
    props.set(Prop::ApplicationProcessId, pid);
    props
}
