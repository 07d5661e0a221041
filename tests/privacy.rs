//! No user learns through ringbar what /proc would not tell them. Real users (root and
//! `nobody`), real writers, a real hidepid mount; the setcap'd probe, the probe service and
//! the /proc fallback all checked against what `nobody` can read in /proc.

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::service::ProbeService;
use common::*;
use serde_json::Value as Json;

const NOBODY: &str = "65534";

/// A world-readable directory holding a setcap'd copy of ringbar and a plain one, and the
/// writers' files.
struct Place {
    dir: tempfile::TempDir,
}

impl Place {
    fn new() -> Place {
        let dir = tempfile::tempdir().expect("tempdir");
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).expect("chmod");
        for (name, caps) in [("ringbar-caps", true), ("ringbar-plain", false)] {
            let exe = dir.path().join(name);
            crate::common::copy_bar(&exe);
            fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).expect("chmod");
            if caps {
                let status = Command::new("setcap")
                    .arg("cap_bpf,cap_perfmon+ep")
                    .arg(&exe)
                    .status()
                    .expect("setcap");
                assert!(status.success());
            }
        }
        Place { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// A perl loop writing 64 KiB every 10 ms to a file on disk, named `name`, as root or
/// `nobody`, optionally non-dumpable (prctl PR_SET_DUMPABLE 0, as ssh-agent does).
fn writer(subjects: &Subjects, place: &Place, name: &str, nobody: bool, dumpable: bool) -> Subject {
    let file = place.path().join(format!("{name}.out"));
    let script = format!(
        "{} open(my $f, '>', '{}') or die; my $b = 'x' x 65536; \
         while (1) {{ syswrite($f, $b) or die; select(undef, undef, undef, 0.01) }}",
        if dumpable {
            ""
        } else {
            "syscall(157, 4, 0) == 0 or die;"
        },
        file.display()
    );
    let program = subjects.program(name, "/usr/bin/perl");
    if nobody {
        let args = [
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--",
            program.to_str().expect("UTF-8 path"),
            "-e",
            &script,
        ];
        Subject::spawn(Path::new("/usr/bin/setpriv"), &args)
    } else {
        Subject::spawn(&program, &["-e", &script])
    }
}

/// Root's `rb-secretdd`, `nobody`'s `rb-mine`, and `nobody`'s non-dumpable `rb-nodump`,
/// all writing, in a place with both copies of ringbar.
fn three_writers() -> (Place, Subjects, [Subject; 3]) {
    let place = Place::new();
    let subjects = Subjects::new();
    fs::set_permissions(subjects.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
    let writers = [
        writer(&subjects, &place, "rb-secretdd", false, true),
        writer(&subjects, &place, "rb-mine", true, true),
        writer(&subjects, &place, "rb-nodump", true, false),
    ];
    std::thread::sleep(Duration::from_millis(300));
    (place, subjects, writers)
}

/// How `nobody`'s ringbar gets its numbers.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// The setcap'd copy loads the probe itself.
    Capabilities,
    /// The plain copy through the probe service.
    Service,
    /// The plain copy, with no service: the /proc walk.
    Proc,
}

const MODES: [(Mode, &str); 3] = [
    (Mode::Capabilities, "bpf"),
    (Mode::Service, "bpf-service"),
    (Mode::Proc, "proc"),
];

/// `ringbar --once --json` as `nobody`; with `hidepid`, in a mount namespace whose /proc
/// is mounted `hidepid=invisible`.
fn once_as_nobody(place: &Place, service: &ProbeService, mode: Mode, hidepid: bool) -> Json {
    let (copy, socket) = match mode {
        Mode::Capabilities => ("ringbar-caps", Path::new("/nonexistent/probe.sock")),
        Mode::Service => ("ringbar-plain", service.socket()),
        Mode::Proc => ("ringbar-plain", Path::new("/nonexistent/probe.sock")),
    };
    let exe = place.path().join(copy);
    let run = format!(
        "exec setpriv --reuid=65534 --regid=65534 --clear-groups -- {} --once --json \
         --interval-ms 1000 --kernel-threads",
        exe.display()
    );
    let script = if hidepid {
        format!("mount -t proc -o hidepid=invisible proc /proc && {run}")
    } else {
        run
    };
    let out = Command::new("unshare")
        .args([
            "--mount",
            "--propagation",
            "private",
            "--",
            "sh",
            "-c",
            &script,
        ])
        .env("HOME", place.path())
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_STATE_HOME")
        .env("RINGBAR_PROBE_SOCKET", socket)
        .output()
        .expect("run ringbar");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn rows<'a>(doc: &'a Json, list: &[&str]) -> Vec<&'a Json> {
    let mut value = doc;
    for key in list {
        value = &value[*key];
    }
    value.as_array().expect("a list").iter().collect()
}

fn names(rows: &[&Json]) -> Vec<String> {
    rows.iter()
        .map(|r| r["name"].as_str().expect("name").to_owned())
        .collect()
}

/// Whether `nobody` may read /proc/PID/io, asked of the kernel.
fn nobody_reads_io(pid: u64) -> bool {
    Command::new("setpriv")
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--",
            "cat",
        ])
        .arg(format!("/proc/{pid}/io"))
        .output()
        .expect("cat")
        .status
        .success()
}

/// The real uid of a process, as root sees it.
fn uid_of(pid: u64) -> Option<String> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("Uid:"))?;
    Some(line.split_whitespace().nth(1)?.to_owned())
}

#[test]
fn io_shows_only_where_proc_would_and_the_rest_is_one_row() {
    require_root();
    let _serial = serial();
    let (place, _subjects, _writers) = three_writers();
    let service = ProbeService::start(place.path());

    for (mode, source) in MODES {
        let doc = once_as_nobody(&place, &service, mode, false);
        assert_eq!(doc["source"], source);
        let io = rows(&doc, &["io", "top"]);
        let listed = names(&io);
        assert!(
            listed.contains(&"rb-mine".to_owned()),
            "{source}: {listed:?}"
        );
        for hidden in ["rb-secretdd", "rb-nodump"] {
            assert!(!listed.contains(&hidden.to_owned()), "{source}: {listed:?}");
        }
        for row in &io {
            // The reporting process itself: its own IO is what /proc/self/io tells
            // it, and it has exited by the time another process could look.
            if matches!(row["name"].as_str(), Some("ringbar-caps" | "ringbar-plain")) {
                continue;
            }
            let pid = row["pid"].as_u64().expect("pid");
            assert!(
                nobody_reads_io(pid),
                "{source}: {row} but /proc refuses nobody"
            );
        }
        // Root's processes are public in CPU and memory, as /proc/PID/stat is.
        let memory = names(&rows(&doc, &["memory", "top"]));
        assert!(!memory.is_empty());
        let others = &doc["io"]["other_users"];
        match source {
            "bpf" => {
                // Attributed to nobody in particular, but counted.
                assert!(others["processes"].as_u64() >= Some(2), "{others}");
                let theirs = others["write_bytes_per_second"].as_f64().expect("rate");
                let total = doc["io"]["write_bytes_per_second"].as_f64().expect("rate");
                assert!(theirs > 1e6 && total >= theirs, "{others} of {total}");
            }
            _ => {
                // The kernel refuses the walk, or the service's iterator leaves the IO
                // out: n/a, not 0.
                let unknown = doc["io"]["unknown_processes"].as_u64().expect("count");
                assert!(unknown >= 2, "{doc}");
            }
        }
    }
}

#[test]
fn a_hidepid_proc_hides_other_processes_from_every_list() {
    require_root();
    let _serial = serial();
    let (place, _subjects, _writers) = three_writers();
    let service = ProbeService::start(place.path());

    for (mode, source) in MODES {
        let copy = format!("{mode:?}");
        let doc = once_as_nobody(&place, &service, mode, true);
        assert_eq!(doc["source"], source);
        let mut listed: Vec<&Json> = Vec::new();
        for list in [["cpu", "top"], ["memory", "top"], ["io", "top"]] {
            listed.extend(rows(&doc, &list));
        }
        listed.extend(rows(&doc, &["stuck"]));
        assert!(
            names(&listed).contains(&"rb-mine".to_owned()),
            "{copy}: {listed:?}"
        );
        for row in &listed {
            let pid = row["pid"].as_u64().expect("pid");
            let name = row["name"].as_str().expect("name");
            assert_ne!(name, "rb-nodump", "{copy}: not dumpable, so hidden: {row}");
            // Gone by now is fine; anyone else's is a leak.
            if let Some(uid) = uid_of(pid) {
                assert_eq!(uid, NOBODY, "{copy}: {row} belongs to uid {uid}");
            }
        }
    }
}

/// A python loop sending a 1 KB UDP datagram every millisecond to `to` (a veth's far
/// end, where nothing listens: unconnected, so that its ICMP answers fail no send),
/// named `name`, as root or `nobody`.
fn sender(subjects: &Subjects, name: &str, nobody: bool, to: &str) -> Subject {
    let script = format!(
        "import socket, time\n\
         s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n\
         while True:\n    s.sendto(b'x' * 1000, ('{to}', 9))\n    time.sleep(0.001)\n"
    );
    let program = subjects.program(name, "/usr/bin/python3");
    let program = program.to_str().expect("UTF-8 path");
    match nobody {
        true => Subject::spawn(
            Path::new("/usr/bin/setpriv"),
            &[
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "--",
                program,
                "-c",
                &script,
            ],
        ),
        false => Subject::spawn(Path::new(program), &["-c", &script]),
    }
}

#[test]
fn network_bytes_of_other_users_are_one_row() {
    require_root();
    let _serial = serial();
    let place = Place::new();
    let subjects = Subjects::new();
    fs::set_permissions(subjects.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
    let netns = common::netns::Netns::new();
    let to = netns.inner_address(32);
    let _senders = [
        sender(&subjects, "rb-secretnet", false, &to),
        sender(&subjects, "rb-mynet", true, &to),
    ];
    std::thread::sleep(Duration::from_millis(300));
    let service = ProbeService::start(place.path());

    for (mode, source) in MODES {
        let doc = once_as_nobody(&place, &service, mode, false);
        let listed = names(&rows(&doc, &["network", "top"]));
        assert!(
            !listed.contains(&"rb-secretnet".to_owned()),
            "{source}: {listed:?}"
        );
        let others = &doc["network"]["other_users"];
        match source {
            "bpf" => {
                assert!(listed.contains(&"rb-mynet".to_owned()), "{listed:?}");
                // Root's sender is counted, as one row of other users.
                assert!(others["processes"].as_u64() >= Some(1), "{others}");
                let theirs = others["sent_bytes_per_second"].as_f64().expect("rate");
                assert!(theirs > 1e5, "{others}");
            }
            // The service leaves other users' bytes out, as their IO; the /proc walk
            // has none at all.
            "bpf-service" => assert!(listed.contains(&"rb-mynet".to_owned()), "{listed:?}"),
            _ => assert!(listed.is_empty(), "{source}: {listed:?}"),
        }
    }
}
