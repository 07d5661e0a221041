//! Section 10: what the probe's network byte counters cost the network path. iperf3 over
//! loopback, the client and the server pinned to a CPU each, in rounds that alternate
//! between no probe and ringbar's probe attached (the socket layer's tracepoints);
//! throughput and CPU time per byte, each the median over rounds of with/without. A last
//! row attaches empty programs to the same tracepoints instead: what any program there
//! costs, the floor under the counters.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ringbar::records::collector::Collector;
use serde_json::Value as Json;

use crate::report::{median, Report};

const PORT: &str = "5302";
const ROUNDS: usize = 7;

/// One iperf3 run: (bits per second, CPU seconds per GB moved).
fn iperf3(args: &[&str]) -> (f64, f64) {
    let out = Command::new("iperf3")
        .args(["-c", "127.0.0.1", "-p", PORT, "-t", "3", "-A", "0,1", "-J"])
        .args(args)
        .output()
        .expect("run iperf3");
    assert!(out.status.success(), "iperf3 {args:?}");
    let report: Json = serde_json::from_slice(&out.stdout).expect("iperf3's JSON");
    let end = &report["end"];
    let (sum, seconds) = match end.get("sum_received") {
        Some(received) => (received, received["seconds"].as_f64()),
        None => (&end["sum"], end["sum"]["seconds"].as_f64()),
    };
    let bytes = sum["bytes"].as_f64().expect("bytes");
    let bits_per_second = sum["bits_per_second"].as_f64().expect("rate");
    let cpu = &end["cpu_utilization_percent"];
    let percent =
        cpu["host_total"].as_f64().unwrap_or(0.0) + cpu["remote_total"].as_f64().unwrap_or(0.0);
    let cpu_seconds = percent / 100.0 * seconds.unwrap_or(3.0);
    (bits_per_second, cpu_seconds / bytes * 1e9)
}

/// Programs that do nothing, on the tracepoints the counters use (bpf/net.bpf.h).
const EMPTY_HOOKS: &str = r#"
char LICENSE[] __attribute__((section("license"), used)) = "GPL";
__attribute__((section("tp_btf/sock_send_length"), used)) int empty_sent(void *ctx) { return 0; }
__attribute__((section("tp_btf/sock_recv_length"), used)) int empty_received(void *ctx) { return 0; }
"#;

/// The empty programs, compiled with clang (as the build compiles the probe; `CLANG`
/// overrides it), loaded and attached until dropped.
struct EmptyHooks {
    _links: Vec<libbpf_rs::Link>,
    _object: libbpf_rs::Object,
}

impl EmptyHooks {
    fn attach(dir: &std::path::Path) -> EmptyHooks {
        let (source, object) = (dir.join("empty.bpf.c"), dir.join("empty.bpf.o"));
        std::fs::write(&source, EMPTY_HOOKS).expect("write the empty programs");
        let clang = std::env::var_os("CLANG").unwrap_or_else(|| "clang".into());
        let built = Command::new(clang)
            .args(["-O2", "-g", "-target", "bpf", "-c"])
            .arg(&source)
            .arg("-o")
            .arg(&object)
            .status()
            .expect("clang");
        assert!(built.success(), "clang could not build the empty programs");
        let object = libbpf_rs::ObjectBuilder::default()
            .open_file(&object)
            .and_then(|open| open.load())
            .expect("the empty programs load");
        let links = object
            .progs_mut()
            .map(|program| program.attach().expect("an empty program attaches"))
            .collect();
        EmptyHooks {
            _links: links,
            _object: object,
        }
    }
}

/// What is attached in the "with" runs of a row.
#[derive(Clone, Copy)]
enum Attached {
    Probe,
    EmptyHooks,
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn server() -> Server {
    let child = Command::new("iperf3")
        .args(["-s", "-B", "127.0.0.1", "-p", PORT])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run iperf3 (Debian's iperf3)");
    let server = Server(child);
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", 5302)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(10), "iperf3 -s");
        std::thread::sleep(Duration::from_millis(50));
    }
    server
}

/// The table's rows; returns the worst change (throughput lost or CPU per byte gained),
/// in percent, of TCP with 1 KiB messages, the case with the most calls per byte.
pub fn network_tax(report: &mut Report) -> f64 {
    report.heading("10. The tax on the network path: iperf3 over loopback, probe or not");
    let _server = server();
    let modes: [(&str, &[&str]); 3] = [
        ("TCP, iperf3's default messages", &[]),
        ("TCP, 1 KiB messages", &["-l", "1024"]),
        (
            "UDP at 2 Gbit/s, 1400-byte datagrams",
            &["-u", "-b", "2G", "-l", "1400"],
        ),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    let rows_to_run = modes
        .iter()
        .map(|&(name, args)| (name, args, Attached::Probe))
        .chain([(
            "TCP, 1 KiB messages, empty programs instead of the probe",
            &["-l", "1024"][..],
            Attached::EmptyHooks,
        )]);
    let mut rows = Vec::new();
    let mut worst_1k = 0.0;
    for (name, args, attached) in rows_to_run {
        let (mut rate, mut cpu) = (Vec::new(), Vec::new());
        let (mut rates, mut cpus) = ((Vec::new(), Vec::new()), (Vec::new(), Vec::new()));
        for round in 0..ROUNDS {
            // Which goes first alternates, so that a drift over the run cancels out.
            let without_first = round % 2 == 0;
            let run = |with: bool| {
                let probe = (with && matches!(attached, Attached::Probe))
                    .then(|| Collector::with_probe(false).expect("the probe loads"));
                let empty = (with && matches!(attached, Attached::EmptyHooks))
                    .then(|| EmptyHooks::attach(dir.path()));
                let result = iperf3(args);
                drop((probe, empty));
                result
            };
            let (a, b) = if without_first {
                let a = run(false);
                (a, run(true))
            } else {
                let b = run(true);
                (run(false), b)
            };
            rates.0.push(a.0);
            rates.1.push(b.0);
            cpus.0.push(a.1);
            cpus.1.push(b.1);
            rate.push(b.0 / a.0);
            cpu.push(b.1 / a.1);
        }
        let rate_change = (median(&mut rate) - 1.0) * 100.0;
        let cpu_change = (median(&mut cpu) - 1.0) * 100.0;
        if args.contains(&"1024") && matches!(attached, Attached::Probe) {
            worst_1k = f64::max(-rate_change, cpu_change);
        }
        rows.push(vec![
            name.to_owned(),
            format!("{:.2}", median(&mut rates.0) / 1e9),
            format!("{:.2}", median(&mut rates.1) / 1e9),
            format!("{rate_change:+.2} %"),
            format!("{:.3}", median(&mut cpus.0)),
            format!("{:.3}", median(&mut cpus.1)),
            format!("{cpu_change:+.2} %"),
        ]);
    }
    report.table(
        &[
            "iperf3 over loopback (3 s runs)",
            "Gbit/s, no probe",
            "with the probe",
            "throughput",
            "CPU s/GB, no probe",
            "with the probe",
            "CPU per byte",
        ],
        &rows,
    );
    report.note(&format!(
        "{ROUNDS} rounds per kind, each a run without the probe and one with it, the order \
         alternating; the changes are medians over rounds of with/without. Client and \
         server pinned to CPUs 0 and 1 (iperf3 -A 0,1); CPU time is iperf3's own (both \
         ends, user and system). Loopback counts: every call passes the counters. The \
         last row attaches two programs that return at once to the same tracepoints: what \
         the kernel's dispatch to any program there costs."
    ));
    worst_1k
}
