//! The walks the service runs for its clients: each client's records come in a memfd of
//! its own that it can read and never write, a client outside the service's PID namespace
//! gets no walk, and 64 clients sampling at once are all served.

use std::fs::OpenOptions;
use std::io::Write;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use rustix::fs::{fcntl_getfl, fstat, ftruncate, OFlags};
use rustix::mm::{mmap, mprotect, munmap, MapFlags, MprotectFlags, ProtFlags};
use rustix::net::{send, RecvFlags, SendFlags};

use ringbar::model::record::{ExitRecord, TaskRecord};
use ringbar::records::service::client::RemoteProbe;
use ringbar::records::wire::{self, Op};

use crate::common::pidns::{ready_then_wait, short_processes, NamespacedChild};
use crate::common::service::{self, cpu_time, ProbeService};
use crate::common::*;
use crate::push::{connect_raw, receive};
use crate::*;

const RECORD: usize = std::mem::size_of::<TaskRecord>();

/// Asks for a walk on a raw socket: the answer, and the fd that came with it.
fn walk(socket: &OwnedFd) -> (wire::Walked, Option<OwnedFd>) {
    let mut request = Vec::new();
    wire::encode_request(Op::Walk, &mut request);
    send(socket, &request, SendFlags::empty()).expect("request");
    let mut buf = vec![0; wire::MAX_MESSAGE_LEN];
    loop {
        let (len, fd) = receive(socket, &mut buf, RecvFlags::empty()).expect("an answer");
        if wire::service_message_op(&buf[..len]) == Ok(Op::Walk) {
            return (wire::decode_walked(&buf[..len]).expect("walked"), fd);
        }
    }
}

/// The `tgid`s of the first `count` records in the memfd.
fn tgids(fd: &OwnedFd, count: usize) -> Vec<u32> {
    let length = usize::try_from(fstat(fd).expect("fstat").st_size).expect("size");
    assert!(count * RECORD <= length);
    // SAFETY: a new read-only shared mapping of the memfd, unmapped below; the records
    // are plain integers that any bytes make valid.
    let address = unsafe {
        mmap(
            std::ptr::null_mut(),
            length,
            ProtFlags::READ,
            MapFlags::SHARED,
            fd,
            0,
        )
    }
    .expect("map the lent records");
    // SAFETY: `count` records lie within the mapping, which lives until the munmap below.
    let records =
        unsafe { std::slice::from_raw_parts(address.cast::<TaskRecord>().cast_const(), count) };
    let tgids = records.iter().map(|r| r.tgid).collect();
    // SAFETY: unmaps the mapping made above; `records` is not used after.
    unsafe { munmap(address, length) }.expect("munmap");
    tgids
}

fn errno_of<T: std::fmt::Debug>(result: Result<T, rustix::io::Errno>) -> rustix::io::Errno {
    result.expect_err("refused")
}

#[test]
fn lent_records_are_the_clients_own_and_it_can_write_none_of_them() {
    require_root();
    let _serial = serial();
    let dir = world_readable_dir();
    let service = ProbeService::start(dir.path());
    let client = connect_raw(service.socket());
    let other = connect_raw(service.socket());

    let (walked, fd) = walk(&client);
    let fd = fd.expect("the first answer lends the memfd");
    assert_eq!(walked.status, 0);
    assert!(walked.count > 10, "a walk of {} tasks", walked.count);
    let tasks = tgids(&fd, walked.count as usize);
    assert!(
        tasks.contains(&std::process::id()),
        "the walk found this test process"
    );
    // A second walk reuses the memfd: no fd comes again.
    let (again, none) = walk(&client);
    assert_eq!((again.status, none.is_none()), (0, true));
    assert!(again.walked_ns > walked.walked_ns);

    // Lent read-only, and sealed: even as root, reopened read-write, nothing writes.
    let mode = fcntl_getfl(&fd).expect("flags") & OFlags::ACCMODE;
    assert_eq!(mode, OFlags::RDONLY, "the fd is read-only");
    assert_eq!(
        errno_of(rustix::io::write(&fd, b"x")),
        rustix::io::Errno::BADF
    );
    let path = format!("/proc/self/fd/{}", fd.as_raw_fd());
    let mut reopened = OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .expect("root may reopen it read-write");
    let err = reopened.write_all(&[0xff; RECORD]).expect_err("sealed");
    assert_eq!(err.raw_os_error(), Some(libc::EPERM), "write: {err}");
    assert_eq!(
        errno_of(ftruncate(reopened.as_fd(), 0)),
        rustix::io::Errno::PERM
    );
    assert_eq!(
        errno_of(ftruncate(reopened.as_fd(), 1 << 30)),
        rustix::io::Errno::PERM
    );
    let length = usize::try_from(fstat(&fd).expect("fstat").st_size).expect("size");
    let map = |file: &std::fs::File, protection: ProtFlags, flags: MapFlags| {
        // SAFETY: a new mapping of the memfd at an address the kernel picks; the test only
        // checks whether the kernel allows it and unmaps it.
        unsafe { mmap(std::ptr::null_mut(), length, protection, flags, file, 0) }
    };
    let writable = ProtFlags::READ | ProtFlags::WRITE;
    assert_eq!(
        errno_of(map(&reopened, writable, MapFlags::SHARED)),
        rustix::io::Errno::PERM,
        "a writable shared mapping"
    );
    let read_only = map(&reopened, ProtFlags::READ, MapFlags::SHARED).expect("read-only map");
    // SAFETY: changes the protection of the mapping made just above, which nothing uses.
    let turned = unsafe {
        mprotect(
            read_only,
            length,
            MprotectFlags::READ | MprotectFlags::WRITE,
        )
    };
    assert_eq!(errno_of(turned), rustix::io::Errno::ACCESS, "mprotect");
    // A private copy-on-write mapping may be written: the writes stay in this process.
    let private = map(&reopened, writable, MapFlags::PRIVATE).expect("private map");
    // SAFETY: the private mapping is `length` bytes, writable, this process's own.
    unsafe { std::ptr::write_bytes(private.cast::<u8>(), 0xff, length) };
    let after = tgids(&fd, walked.count as usize);
    assert!(after.contains(&std::process::id()), "the records unchanged");
    // SAFETY: unmaps the two mappings made above, which nothing uses any more.
    unsafe {
        munmap(read_only, length).expect("munmap");
        munmap(private, length).expect("munmap");
    }

    // Another client gets a memfd of its own.
    let (_, other_fd) = walk(&other);
    let other_fd = other_fd.expect("its own memfd");
    assert_ne!(
        fstat(&other_fd).expect("fstat").st_ino,
        fstat(&fd).expect("fstat").st_ino,
        "two clients share no records"
    );
}

/// With RINGBAR_TEST_NAMESPACED set, the child of the next test, in a new PID namespace.
#[test]
fn namespaced_client_child() {
    let Some(socket) = std::env::var_os("RINGBAR_TEST_NAMESPACED") else {
        return;
    };
    let mut remote = RemoteProbe::connect(Path::new(&socket)).expect("connect");
    remote.read_tasks().expect("tasks");
    let pids: Vec<u32> = remote.tasks().iter().map(|t| t.tgid).collect();
    println!(
        "walked {} own {} tgids {pids:?}",
        remote.walked(),
        std::process::id()
    );
    let mut exits: Vec<ExitRecord> = Vec::new();
    remote.drain_exits(&mut exits).expect("exits");
    ready_then_wait();
    // One of its own namespace ends too.
    let mut child = Command::new("/bin/true").spawn().expect("true");
    child.wait().expect("true");
    std::thread::sleep(Duration::from_millis(500));
    remote.drain_exits(&mut exits).expect("exits");
    let tgids: Vec<u32> = exits.iter().map(|e| e.tgid).collect();
    println!("exits {tgids:?}");
}

#[test]
fn a_client_in_another_pid_namespace_gets_no_walk_and_sees_only_its_namespace() {
    require_root();
    let _serial = serial();
    let dir = world_readable_dir();
    let service = ProbeService::start(dir.path());
    // A client on the machine, to show the machine's exits are reported at all.
    let mut machine = RemoteProbe::connect(service.socket()).expect("connect");
    let socket = service.socket().to_str().expect("socket path").to_string();
    let child = NamespacedChild::start(
        "lent::namespaced_client_child",
        &[("RINGBAR_TEST_NAMESPACED", &socket)],
    );
    let line = child.said("walked ");
    let outside = short_processes(5);
    let mut seen = Vec::new();
    let mut exits: Vec<ExitRecord> = Vec::new();
    wait_for("the machine's exits", Duration::from_secs(5), || {
        machine.drain_exits(&mut exits).expect("exits");
        seen.extend(exits.iter().map(|e| e.tgid));
        outside.iter().all(|p| seen.contains(p))
    });
    let exits = child.go_and_read("exits ");

    assert!(line.starts_with("false "), "walked for it: {line}");
    // The namespace holds this test binary, pid 1 there, and its test thread: its
    // records, by their pids there.
    assert!(line.contains("own 1 "), "{line}");
    let tgids = line.split_once("tgids ").expect("tgids").1;
    assert_eq!(tgids, "[1, 1]", "it saw beyond its namespace: {line}");
    // No exit report: the service cannot tell its namespace's from the others'.
    assert_eq!(exits, "[]", "outside: {outside:?}");
    assert!(service.log_text().contains("client connected uid=0"));
}

/// With the crowd variables set, one user's clients for the next test.
#[test]
fn crowd_child() {
    service::client_crowd_child();
}

#[test]
fn sixty_four_clients_sampling_every_100_ms_are_all_walked_for() {
    require_root();
    let _serial = serial();
    let dir = world_readable_dir();
    let service = ProbeService::start(dir.path());
    let before = cpu_time(service.pid());
    let started = std::time::Instant::now();
    // 8 users with 8 clients each: the most the service takes, one user's most.
    let children = service::start_crowd(
        &std::env::current_exe().expect("test binary"),
        "lent::crowd_child",
        service.socket(),
        8,
        "8,20,100",
    );
    let results = service::crowd_results(children);
    let spent = cpu_time(service.pid()) - before;
    assert_eq!(results.len(), 64, "every client reported");
    for (walked, samples) in &results {
        assert_eq!(
            walked, samples,
            "a client's samples that were not walked for it"
        );
    }
    assert!(!service.log_text().contains("refused"));
    println!(
        "the service used {} ms of CPU in {:.1} s for 64 clients",
        spent.as_millis(),
        started.elapsed().as_secs_f64()
    );
}
