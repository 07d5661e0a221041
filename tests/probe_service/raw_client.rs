//! A client of the service written against the library, run as `nobody`: the raw records
//! it receives carry no IO that /proc would deny it.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use ringbar::model::record::{ExitRecord, TASK_IO_UNKNOWN, TASK_PRIVATE};
use ringbar::records::service::client::RemoteProbe;

use crate::common::service::ProbeService;
use crate::common::*;
use crate::*;

/// Set for the child run of [`raw_client_child`]: the service's socket.
const RAW_CLIENT: &str = "RINGBAR_TEST_RAW_CLIENT";
/// Set as well: the child may not call bpf() at all, as on a kernel that refuses an
/// unprivileged process BPF_ITER_CREATE.
const DENY_BPF: &str = "RINGBAR_TEST_DENY_BPF";

/// A seccomp filter that fails every bpf() call of this process with EPERM.
fn deny_bpf_syscall() {
    const LOAD_SYSCALL_NR: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS, seccomp_data.nr at 0
    const JUMP_IF_EQUAL: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const RETURN: u16 = 0x06; // BPF_RET | BPF_K
    const ALLOW: u32 = 0x7fff_0000; // SECCOMP_RET_ALLOW
    let filter = [
        libc::sock_filter {
            code: LOAD_SYSCALL_NR,
            jt: 0,
            jf: 0,
            k: 0,
        },
        libc::sock_filter {
            code: JUMP_IF_EQUAL,
            jt: 0,
            jf: 1,
            k: libc::SYS_bpf as u32,
        },
        libc::sock_filter {
            code: RETURN,
            jt: 0,
            jf: 0,
            k: libc::SECCOMP_RET_ERRNO | libc::EPERM as u32,
        },
        libc::sock_filter {
            code: RETURN,
            jt: 0,
            jf: 0,
            k: ALLOW,
        },
    ];
    let program = libc::sock_fprog {
        len: filter.len() as u16,
        filter: filter.as_ptr().cast_mut(),
    };
    // SAFETY: prctl with plain integer arguments; no-new-privs is required for an
    // unprivileged process to install a filter.
    let rc = unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) };
    assert_eq!(rc, 0, "no-new-privs");
    // SAFETY: program points at `filter`, which outlives the call; the kernel copies it.
    let rc = unsafe {
        libc::prctl(
            libc::PR_SET_SECCOMP,
            libc::SECCOMP_MODE_FILTER,
            &raw const program,
        )
    };
    assert_eq!(rc, 0, "seccomp: {}", std::io::Error::last_os_error());
}

/// With RINGBAR_TEST_RAW_CLIENT set, this test is the child of the next one: a client
/// of the service written against the library, printing every record it receives.
#[test]
fn raw_client_child() {
    let Some(socket) = std::env::var_os(RAW_CLIENT) else {
        return;
    };
    if std::env::var_os(DENY_BPF).is_some() {
        deny_bpf_syscall();
    }
    let mut remote = RemoteProbe::connect(Path::new(&socket)).expect("connect");
    let mut exits: Vec<ExitRecord> = Vec::new();
    remote.drain_exits(&mut exits).expect("exits");
    println!("ready");
    // The parent starts and ends processes now.
    let mut line = String::new();
    std::io::stdin().read_line(&mut line).expect("go on");
    remote.read_tasks().expect("tasks");
    println!("walked {}", remote.walked());
    for t in remote.tasks() {
        let io = t.read_bytes + t.write_bytes + t.group_dead_read_bytes + t.group_dead_write_bytes;
        println!("task {} {} {}", t.tgid, t.flags, io);
    }
    remote.drain_exits(&mut exits).expect("exits");
    for e in &exits {
        println!(
            "exit {} {} {}",
            e.tgid,
            e.flags,
            e.read_bytes + e.write_bytes
        );
    }
    println!("done");
}

/// A `dd` writing 1 MiB to disk and exiting, as root or `nobody`: its pid.
fn short_writer(dir: &Path, name: &str, nobody: bool) -> u32 {
    let of = format!("of={}", dir.join(name).display());
    let args = [
        "if=/dev/zero",
        of.as_str(),
        "bs=64k",
        "count=16",
        "conv=fsync",
    ];
    let mut command = if nobody {
        let mut c = as_nobody(Path::new("/bin/dd"));
        c.args(args);
        c
    } else {
        let mut c = Command::new("dd");
        c.args(args);
        c
    };
    let mut child = command.stderr(Stdio::null()).spawn().expect("dd");
    let pid = child.id();
    assert!(child.wait().expect("dd").success());
    pid
}

#[test]
fn a_client_gets_no_io_that_proc_would_deny_it_not_even_raw() {
    raw_client_sees_no_private_io(false);
}

/// Where the service does not walk (here: started without its walker) and the kernel
/// refuses the client BPF_ITER_CREATE (here: a seccomp filter), the service makes each
/// iterator instance and passes it; the records are the same.
#[test]
fn iterators_come_from_the_service_where_the_kernel_refuses_them() {
    raw_client_sees_no_private_io(true);
}

fn raw_client_sees_no_private_io(deny_bpf: bool) {
    require_root();
    let _serial = serial();
    let dir = world_readable_dir();
    let service = match deny_bpf {
        true => ProbeService::start_with(dir.path(), &[("RINGBAR_NO_WALKER", "1")]),
        false => ProbeService::start(dir.path()),
    };
    let subjects = Subjects::new();
    let root_writer = Subject::spawn(
        &subjects.program("rb-secretdd", "/usr/bin/perl"),
        &[
            "-e",
            "open(my $f, '>', '/var/tmp/rb-secretdd.out') or die; \
                 while (1) { syswrite($f, 'x' x 65536); select(undef, undef, undef, 0.01) }",
        ],
    );

    let mut child = as_nobody(&std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "raw_client::raw_client_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(RAW_CLIENT, service.socket())
        .env(
            if deny_bpf {
                DENY_BPF
            } else {
                "RINGBAR_TEST_UNUSED"
            },
            "1",
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the raw client");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    // libtest writes "test raw_client_child ... " before the test's own output.
    while !line.contains("ready") {
        line.clear();
        assert!(
            out.read_line(&mut line).expect("read") > 0,
            "the client ended early"
        );
    }
    std::thread::sleep(Duration::from_millis(500));
    let root_dd = short_writer(dir.path(), "root.out", false);
    let nobody_dd = short_writer(dir.path(), "nobody.out", true);
    std::thread::sleep(Duration::from_millis(300));
    use std::io::Write;
    writeln!(child.stdin.as_mut().expect("stdin")).expect("go on");
    let mut records: Vec<(String, u32, u32, u64)> = Vec::new();
    let mut walked = None;
    for line in out.lines() {
        let line = line.expect("line");
        if let Some(said) = line.strip_prefix("walked ") {
            walked = Some(said == "true");
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if let [kind @ ("task" | "exit"), id, flags, io] = f[..] {
            let parse = |s: &str| s.parse::<u64>().expect("number");
            records.push((
                kind.into(),
                parse(id) as u32,
                parse(flags) as u32,
                parse(io),
            ));
        }
    }
    assert!(child.wait().expect("client").success());
    let _ = std::fs::remove_file("/var/tmp/rb-secretdd.out");
    // With its walker the service walks for the client; without, the iterator reads.
    assert_eq!(walked, Some(!deny_bpf), "how the records came");

    let find = |kind: &str, id: u32| {
        records
            .iter()
            .filter(|r| r.0 == kind && r.1 == id)
            .collect::<Vec<_>>()
    };
    // The live root writer: listed (as /proc/PID/stat lists it) with no IO at all.
    let theirs = find("task", root_writer.pid());
    assert!(!theirs.is_empty(), "root's writer is a task like any other");
    for (_, _, flags, io) in theirs {
        assert_eq!(*io, 0, "root's IO reached nobody");
        assert_eq!(
            flags & (TASK_IO_UNKNOWN | TASK_PRIVATE),
            TASK_IO_UNKNOWN | TASK_PRIVATE
        );
    }
    // Exit reports: root's dd without its IO, nobody's own dd with it.
    let root_exits = find("exit", root_dd);
    assert!(
        !root_exits.is_empty(),
        "root's dd exit was reported: {records:?}"
    );
    for (_, _, flags, io) in root_exits {
        assert_eq!((*io, flags & TASK_IO_UNKNOWN), (0, TASK_IO_UNKNOWN));
    }
    let own_exits = find("exit", nobody_dd);
    assert!(
        own_exits.iter().any(|(_, _, _, io)| *io >= 1 << 20),
        "nobody's own dd wrote 1 MiB: {own_exits:?}"
    );
    // And every other user's task came without IO.
    let leaked: Vec<_> = records
        .iter()
        .filter(|r| r.0 == "task" && r.2 & TASK_PRIVATE != 0 && r.3 != 0)
        .collect();
    assert!(leaked.is_empty(), "IO of private tasks: {leaked:?}");
    assert!(service.log_text().contains("client connected uid=65534"));
}
