//! Exit reports are pushed: a client takes them at its sample without asking, and a client
//! that does not read for a while costs the service nothing, holds no one up, and gets its
//! reports, and the answer to its request, once it reads.

use std::collections::HashSet;
use std::io::IoSliceMut;
use std::mem::MaybeUninit;
use std::os::fd::OwnedFd;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use rustix::net::{
    connect, recvmsg, send, socket_with, sockopt, AddressFamily, RecvAncillaryBuffer,
    RecvAncillaryMessage, RecvFlags, SendFlags, SocketAddrUnix, SocketFlags, SocketType,
};

use ringbar::model::record::ExitRecord;
use ringbar::records::service::client::RemoteProbe;
use ringbar::records::wire::{self, Op};

use crate::common::pidns::short_processes;
use crate::common::service::{cpu_time, ProbeService};
use crate::common::*;
use crate::*;

const CHURN: usize = 400;

/// A client socket of the test's own, greeted; nothing read after the greeting.
pub(crate) fn connect_raw(path: &Path) -> OwnedFd {
    let socket = socket_with(
        AddressFamily::UNIX,
        SocketType::SEQPACKET,
        SocketFlags::CLOEXEC,
        None,
    )
    .expect("socket");
    connect(&socket, &SocketAddrUnix::new(path).expect("address")).expect("connect");
    sockopt::set_socket_timeout(
        &socket,
        sockopt::Timeout::Recv,
        Some(Duration::from_secs(5)),
    )
    .expect("timeout");
    let mut buf = vec![0; wire::MAX_MESSAGE_LEN];
    let (len, _link) = receive(&socket, &mut buf, RecvFlags::empty()).expect("hello");
    wire::decode_hello(&buf[..len]).expect("a greeting");
    socket
}

/// One message and the fd that came with it; `None` when none waits (DONTWAIT).
pub(crate) fn receive(
    socket: &OwnedFd,
    buf: &mut [u8],
    flags: RecvFlags,
) -> Option<(usize, Option<OwnedFd>)> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    match recvmsg(socket, &mut [IoSliceMut::new(buf)], &mut control, flags) {
        Ok(msg) => {
            let mut fd = None;
            for message in control.drain() {
                if let RecvAncillaryMessage::ScmRights(mut fds) = message {
                    fd = fd.or(fds.next());
                }
            }
            Some((msg.bytes, fd))
        }
        Err(rustix::io::Errno::AGAIN) => None,
        Err(err) => panic!("receive: {err}"),
    }
}

#[test]
fn exit_reports_are_pushed_and_a_client_that_does_not_read_holds_nothing_up() {
    require_root();
    let _serial = serial();
    let dir = world_readable_dir();
    let service = ProbeService::start(dir.path());
    let mut reader = RemoteProbe::connect(service.socket()).expect("connect");
    let idle = connect_raw(service.socket());

    let mut pids = HashSet::new();
    for _ in 0..CHURN {
        let mut child = Command::new("/bin/true").spawn().expect("true");
        pids.insert(child.id());
        child.wait().expect("true");
    }

    // The reading client: every report, by draining only (it never sends a request).
    let mut seen = HashSet::new();
    let mut exits: Vec<ExitRecord> = Vec::new();
    wait_for(
        "every exit report at the reading client",
        Duration::from_secs(5),
        || {
            reader.drain_exits(&mut exits).expect("drain");
            seen.extend(exits.iter().map(|e| e.tgid));
            pids.is_subset(&seen)
        },
    );

    // The idle client's socket is full, its reports queued in the service, which waits
    // for room without spinning.
    let before = cpu_time(service.pid());
    std::thread::sleep(Duration::from_secs(2));
    let spent = (cpu_time(service.pid()) - before).as_millis();
    assert!(
        spent <= 100,
        "the service spent {spent} ms of CPU in 2 s idle"
    );

    // It asks for an iterator now: reports may come first, then the answer with its fd,
    // then the rest; none lost (far below the queue's bound).
    let mut request = Vec::new();
    wire::encode_request(Op::Iterator, &mut request);
    send(&idle, &request, SendFlags::empty()).expect("request");
    let mut buf = vec![0; wire::MAX_MESSAGE_LEN];
    let mut got = HashSet::new();
    let mut answered = false;
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline && !(answered && pids.is_subset(&got)) {
        let flags = if answered {
            RecvFlags::DONTWAIT
        } else {
            RecvFlags::empty()
        };
        let Some((len, fd)) = receive(&idle, &mut buf, flags) else {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        };
        let bytes = &buf[..len];
        match wire::service_message_op(bytes).expect("a service message") {
            Op::Exits => {
                let mut records = Vec::new();
                let lost = wire::decode_exits(bytes, &mut records).expect("exits");
                assert_eq!(lost, 0, "reports dropped for the idle client");
                got.extend(records.iter().map(|e| e.tgid));
            }
            Op::Iterator => {
                assert!(!answered, "one answer for one request");
                assert_eq!(wire::decode_iterator(bytes), Ok(0));
                assert!(fd.is_some(), "the iterator fd came with the answer");
                answered = true;
            }
            Op::Refused | Op::Walk => panic!("a refusal, or a walk nobody asked for"),
        }
    }
    assert!(answered, "no answer to the request");
    let missing = pids.difference(&got).count();
    assert_eq!(missing, 0, "reports the idle client never got");
    assert!(
        service.log_text().matches("client gone").count() == 0,
        "{}",
        service.log_text()
    );
}

/// A client that does not read between two samples (a bar at 2 s, or `--once`) finds
/// many report messages before the answer to its walk: a process exiting every 15 ms
/// makes a message per drain, over 130 in 2 s. The walk is answered all the same, and
/// every report comes through.
#[test]
fn a_walk_is_answered_behind_however_many_reports_came_since_the_last_sample() {
    require_root();
    let _serial = serial();
    let dir = world_readable_dir();
    let service = ProbeService::start(dir.path());
    let mut reader = RemoteProbe::connect(service.socket()).expect("connect");
    reader.read_tasks().expect("the first sample");

    let mut pids = HashSet::new();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(2) {
        let mut child = Command::new("/bin/true").spawn().expect("true");
        pids.insert(child.id());
        child.wait().expect("true");
        std::thread::sleep(Duration::from_millis(15));
    }
    std::thread::sleep(Duration::from_millis(100));

    reader.request_walk();
    let walked = reader.read_tasks().expect("the walk behind the reports");
    assert!(walked.is_some() && !reader.tasks().is_empty(), "a walk");
    let mut exits: Vec<ExitRecord> = Vec::new();
    let mut seen = HashSet::new();
    wait_for("every exit report", Duration::from_secs(5), || {
        reader.drain_exits(&mut exits).expect("drain");
        seen.extend(exits.iter().map(|e| e.tgid));
        pids.is_subset(&seen)
    });
}

/// A bar whose layout stops showing samples closes its connection, so the service queues
/// nothing for it; its next sample connects again and gets the exits from then on.
/// (Reports the service had not yet drained when it reconnected may come too: the first
/// sample after a pause is only a baseline.)
#[test]
fn a_paused_client_disconnects_and_its_next_sample_connects_again() {
    require_root();
    let _serial = serial();
    let dir = world_readable_dir();
    let service = ProbeService::start(dir.path());
    let mut remote = RemoteProbe::connect(service.socket()).expect("connect");
    remote.read_tasks().expect("tasks");
    assert!(!remote.tasks().is_empty());

    remote.pause();
    wait_for(
        "the service to see the client go",
        Duration::from_secs(5),
        || service.log_text().contains("client gone"),
    );

    remote.read_tasks().expect("tasks after the pause");
    assert!(!remote.tasks().is_empty());
    assert_eq!(service.log_text().matches("client connected").count(), 2);
    let after = short_processes(3);
    let mut seen = Vec::new();
    let mut exits: Vec<ExitRecord> = Vec::new();
    wait_for("the exits after the pause", Duration::from_secs(5), || {
        remote.drain_exits(&mut exits).expect("exits");
        seen.extend(exits.iter().map(|e| e.tgid));
        after.iter().all(|p| seen.contains(p))
    });
}
