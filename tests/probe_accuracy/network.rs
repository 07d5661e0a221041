//! Network bytes per process against what real transfers report: iperf3 between two
//! network namespaces over a veth pair, both ways, and over loopback; curl downloading
//! from a namespace as the child of a shell. The probe only: /proc counts no process's
//! network bytes, so the /proc fallback has none.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use ringbar::model::NetBytes;
use ringbar::records::collector::Collector;
use serde_json::Value as Json;

use crate::common::netns::Netns;
use crate::common::*;
use crate::*;

/// Kills the child when the test ends, a failed check included.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn net_of(c: &Collector, pid: u32) -> NetBytes {
    let model = c.model();
    let counts = model.process(pid).map(|p| model.processes().net(p));
    counts.map(|counts| counts.total).unwrap_or_default()
}

fn assert_close(what: &str, got: u64, truth: u64) {
    assert!(
        truth > 1 << 20,
        "{what}: a transfer of {truth} bytes is too small to judge"
    );
    let error = (got as f64 - truth as f64).abs() / truth as f64;
    eprintln!(
        "{what}: ringbar {got}, the transfer {truth}: {:.3}% off",
        error * 100.0
    );
    assert!(
        error <= 0.02,
        "{what}: ringbar {got} bytes, the transfer {truth}: {:.2}% off",
        error * 100.0
    );
}

/// An iperf3 server in `netns` (or here) on `address`, once it listens.
fn iperf3_server(netns: Option<&Netns>, address: &str) -> Running {
    let mut command = match netns {
        Some(netns) => netns.exec("iperf3"),
        None => Command::new("iperf3"),
    };
    let child = command
        .args(["-s", "-B", address, "-p", "5301"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run iperf3 (Debian's iperf3)");
    let server = Running(child);
    wait_for("iperf3 listening", Duration::from_secs(10), || {
        let mut check = match netns {
            Some(netns) => netns.exec("ss"),
            None => Command::new("ss"),
        };
        check.args(["-Htln", "sport = :5301"]);
        check
            .output()
            .is_ok_and(|out| !String::from_utf8_lossy(&out.stdout).trim().is_empty())
    });
    server
}

/// Runs an iperf3 client to `address` for 2 s; its report.
fn iperf3_client(address: &str, args: &[&str]) -> Json {
    let out = Command::new("iperf3")
        .args(["-c", address, "-p", "5301", "-t", "2", "-J"])
        .args(args)
        .output()
        .expect("run iperf3");
    assert!(out.status.success(), "iperf3 {args:?} failed");
    serde_json::from_slice(&out.stdout).expect("iperf3's JSON")
}

fn bytes(report: &Json, key: &str) -> u64 {
    report["end"][key]["bytes"]
        .as_u64()
        .expect("bytes in iperf3's report")
}

#[test]
fn iperf3_between_namespaces_is_attributed_both_ways_within_2_percent() {
    let _serial = serial();
    let netns = Netns::new();
    let address = netns.inner_address(32);
    let server = iperf3_server(Some(&netns), &address);
    let mut c = collector(Source::Probe, false);
    sample(&mut c);
    let pid = server.0.id();

    // The client sends; the server receives. The client exits before the next sample:
    // its exit report carries its bytes into the totals.
    let before = net_of(&c, pid);
    let report = iperf3_client(&address, &[]);
    let s = sample(&mut c);
    let received = net_of(&c, pid).received - before.received;
    assert_close("server received", received, bytes(&report, "sum_received"));
    assert_close("all sent", s.net.sent, bytes(&report, "sum_sent"));
    assert_eq!(
        net_of(&c, pid).local_received,
        0,
        "over a veth, not loopback"
    );

    // Reversed: the server sends.
    let before = net_of(&c, pid);
    let report = iperf3_client(&address, &["-R"]);
    let s = sample(&mut c);
    let sent = net_of(&c, pid).sent - before.sent;
    assert_close("server sent", sent, bytes(&report, "sum_sent"));
    assert_close(
        "all received",
        s.net.received,
        bytes(&report, "sum_received"),
    );
    // The server is the top process by network bytes, with its split.
    let row = find(&s.top_net, pid).expect("iperf3 in the network top 5");
    assert_eq!(row.write, sent);
}

#[test]
fn loopback_is_counted_apart_and_shown_only_when_asked() {
    let _serial = serial();
    let server = iperf3_server(None, "127.0.0.1");
    let mut c = collector(Source::Probe, false);
    sample(&mut c);
    let pid = server.0.id();
    let before = net_of(&c, pid);
    let report = iperf3_client("127.0.0.1", &[]);
    let s = sample(&mut c);
    let after = net_of(&c, pid);
    let truth = bytes(&report, "sum_received");
    assert_close("server received", after.received - before.received, truth);
    assert_close(
        "of it, local",
        after.local_received - before.local_received,
        truth,
    );
    assert!(
        find(&s.top_net, pid).is_none(),
        "loopback is left out by default"
    );
    assert!(s.net_shown().0 < truth / 100, "{:?}", s.net_shown());
    c.set_net_include_local(true);
    let s = *c.snapshot();
    let row = find(&s.top_net, pid).expect("shown with include_loopback");
    assert_close("shown with loopback", row.read, truth);
}

#[test]
fn curl_run_by_a_shell_is_the_child_with_the_bytes() {
    let _serial = serial();
    let netns = Netns::new();
    let address = netns.inner_address(32);
    let dir = tempfile::tempdir().expect("dir");
    let size: u64 = 24 << 20;
    std::fs::write(dir.path().join("big"), vec![7u8; size as usize]).expect("write");
    let web = netns
        .exec("python3")
        .args(["-m", "http.server", "8000", "--bind", &address])
        .arg("--directory")
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run python3 -m http.server");
    let _web = Running(web);
    // A listener that never answers: curl's second URL keeps it alive after the first.
    let script = format!(
        "import socket, time\n\
         s = socket.create_server(('{address}', 8001))\n\
         c = s.accept()\n\
         time.sleep(120)\n"
    );
    let hang = netns.exec("python3").args(["-c", &script]).spawn();
    let _hang = Running(hang.expect("run python3"));
    std::thread::sleep(Duration::from_millis(500));

    let mut c = collector(Source::Probe, false);
    sample(&mut c);
    let shell = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "curl -s --retry 5 --retry-connrefused -o /dev/null http://{address}:8000/big \
             -o /dev/null http://{address}:8001/; sleep 120"
        ))
        .spawn()
        .expect("run sh and curl");
    let shell = Running(shell);
    let children = || read_proc(shell.0.id(), &format!("task/{}/children", shell.0.id()));
    let mut curl = 0;
    wait_for("curl's download", Duration::from_secs(20), || {
        curl = children()
            .and_then(|c| c.split_whitespace().next()?.parse().ok())
            .unwrap_or(0);
        sample(&mut c);
        curl != 0 && net_of(&c, curl).received >= size
    });
    assert_close("curl received", net_of(&c, curl).received, size);
    assert_eq!(
        net_of(&c, shell.0.id()),
        NetBytes::default(),
        "the shell moved nothing"
    );
}

#[test]
fn a_thread_that_sent_and_exited_still_counts_in_its_process() {
    let _serial = serial();
    let netns = Netns::new();
    let to = netns.inner_address(32);
    // A thread sends 10,000 datagrams of 1,000 bytes and ends; the process lives on.
    let script = format!(
        "import socket, sys, threading, time\n\
         def send():\n    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n    \
         for _ in range(10000): s.sendto(b'x' * 1000, ('{to}', 9))\n\
         sys.stdin.readline()\n\
         t = threading.Thread(target=send); t.start(); t.join()\n\
         print('sent', flush=True)\n\
         time.sleep(120)\n"
    );
    let subjects = Subjects::new();
    let mut sender = Subject::spawn(
        &subjects.program("rb-netthread", "/usr/bin/python3"),
        &["-c", &script],
    );
    let mut c = collector(Source::Probe, false);
    sender.send_line("go");
    assert_eq!(sender.read_line(), "sent");
    // Python's join returns when the thread's work is done; the kernel's thread may take
    // a moment more to go on a loaded machine. Sampled once it has gone.
    let threads = || {
        read_proc(sender.pid(), "status").and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Threads:"))
                .map(str::to_owned)
        })
    };
    wait_for(
        "the sending thread to be gone",
        Duration::from_secs(5),
        || threads().as_deref() == Some("Threads:\t1"),
    );
    sample(&mut c);
    assert_close(
        "sent by the exited thread",
        net_of(&c, sender.pid()).sent,
        10_000_000,
    );
}

#[test]
fn bytes_a_thread_sent_before_it_exec_d_stay_with_its_process() {
    let _serial = serial();
    let netns = Netns::new();
    let to = netns.inner_address(32);
    // A thread other than the leader sends 10,000 datagrams of 1,000 bytes, then runs
    // exec: it takes over the leader's pid, and the old leader ends.
    let script = format!(
        "import os, socket, sys, threading, time\n\
         def send():\n    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n    \
         for _ in range(10000): s.sendto(b'x' * 1000, ('{to}', 9))\n    \
         os.execv('/bin/sleep', ['sleep', '120'])\n\
         sys.stdin.readline()\n\
         threading.Thread(target=send).start()\n\
         time.sleep(120)\n"
    );
    let subjects = Subjects::new();
    let mut sender = Subject::spawn(
        &subjects.program("rb-netexec", "/usr/bin/python3"),
        &["-c", &script],
    );
    let mut c = collector(Source::Probe, false);
    sample(&mut c);
    sender.send_line("go");
    wait_for("the exec", Duration::from_secs(20), || {
        comm_of(sender.pid()).as_deref() == Some("sleep")
    });
    sample(&mut c);
    assert_close(
        "sent before the exec",
        net_of(&c, sender.pid()).sent,
        10_000_000,
    );
}
