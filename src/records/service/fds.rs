//! One message with at most one fd attached (SCM_RIGHTS), over a SOCK_SEQPACKET socket.

use std::io::{self, IoSlice, IoSliceMut};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::net::{
    recvmsg, sendmsg, RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, ReturnFlags,
    SendAncillaryBuffer, SendAncillaryMessage, SendFlags,
};

/// Sends `bytes` as one message, with `fd` attached if given. Never blocks and never
/// raises SIGPIPE: a peer that does not read is the caller's to drop.
pub fn send(socket: BorrowedFd<'_>, bytes: &[u8], fd: Option<BorrowedFd<'_>>) -> io::Result<()> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    let fds;
    if let Some(fd) = fd {
        fds = [fd];
        control.push(SendAncillaryMessage::ScmRights(&fds));
    }
    let flags = SendFlags::DONTWAIT | SendFlags::NOSIGNAL;
    let sent = sendmsg(socket, &[IoSlice::new(bytes)], &mut control, flags)?;
    if sent == bytes.len() {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::WriteZero,
            "message cut short",
        ))
    }
}

/// Receives one message into `buf`: its length (0 when the peer closed) and the fd that
/// came with it. A message longer than `buf`, or with more than one fd, is an error
/// (extra fds are closed when the ancillary buffer drops them).
pub fn receive(socket: impl AsFd, buf: &mut [u8]) -> io::Result<(usize, Option<OwnedFd>)> {
    receive_with(socket, buf, RecvFlags::CMSG_CLOEXEC)
}

/// As [`receive`], but never waits: `WouldBlock` when no message is there.
pub fn try_receive(socket: impl AsFd, buf: &mut [u8]) -> io::Result<(usize, Option<OwnedFd>)> {
    receive_with(socket, buf, RecvFlags::CMSG_CLOEXEC | RecvFlags::DONTWAIT)
}

fn receive_with(
    socket: impl AsFd,
    buf: &mut [u8],
    flags: RecvFlags,
) -> io::Result<(usize, Option<OwnedFd>)> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(2))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    let msg = recvmsg(socket, &mut [IoSliceMut::new(buf)], &mut control, flags)?;
    if msg.flags.contains(ReturnFlags::TRUNC) || msg.flags.contains(ReturnFlags::CTRUNC) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "message too long",
        ));
    }
    let mut received: Option<OwnedFd> = None;
    let mut extra = false;
    for message in control.drain() {
        if let RecvAncillaryMessage::ScmRights(fds) = message {
            for fd in fds {
                if received.is_none() {
                    received = Some(fd);
                } else {
                    extra = true;
                }
            }
        }
    }
    if extra {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "more than one fd",
        ));
    }
    Ok((msg.bytes, received))
}
