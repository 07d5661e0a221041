//! A process's real name from its command line, for the rows shown: the script an
//! interpreter runs (`python3 tool.py` → `tool.py`), or the whole program name the kernel
//! cut to 15 bytes in `comm`. The command line is the process's to write, so it is
//! trusted only where it agrees with `comm`, which the kernel took from the executable's
//! file name: argv[0] is used only when its base name extends `comm`, and a script only
//! when `comm` names an interpreter. Anything else keeps `comm`.

use super::app::Label;
use super::record::COMM_LEN;

/// Programs whose first non-option argument is the program that matters.
const INTERPRETERS: [&[u8]; 12] = [
    b"python", b"python2", b"python3", b"perl", b"ruby", b"node", b"bash", b"sh", b"dash", b"zsh",
    b"lua", b"php",
];

fn base(path: &[u8]) -> &[u8] {
    path.rsplit(|&b| b == b'/').next().unwrap_or(path)
}

/// `python3.11` and `python3` are `python3`'s family: the name up to a version suffix.
fn is_interpreter(comm: &[u8]) -> bool {
    let stem_len = comm
        .iter()
        .rposition(|b| !(b.is_ascii_digit() || *b == b'.'))
        .map_or(0, |i| i + 1);
    INTERPRETERS.contains(&comm) || INTERPRETERS.contains(&&comm[..stem_len])
}

/// A script read from a file descriptor (`bash /dev/fd/3`: process substitution, or a
/// launcher piping a script in) has no name of its own; the fd number is none.
fn names_no_script(path: &[u8]) -> bool {
    if path.starts_with(b"/dev/fd/") {
        return true;
    }
    // `/proc/self/fd/N`, `/proc/thread-self/fd/N`, `/proc/PID/fd/N`, `/proc/PID/task/TID/fd/N`.
    let Some(rest) = path.strip_prefix(b"/proc/") else {
        return false;
    };
    let mut parts = rest.rsplit(|&b| b == b'/');
    let _fd_number = parts.next();
    parts.next() == Some(b"fd") && parts.next().is_some()
}

/// The name to show for a process with this `comm` (NUL-padded) and `/proc/PID/cmdline`
/// (NUL-separated arguments); `None` keeps `comm`.
pub fn real_name(comm: &[u8; COMM_LEN], cmdline: &[u8]) -> Option<Label> {
    let comm = &comm[..comm.iter().position(|&b| b == 0).unwrap_or(COMM_LEN)];
    let mut args = cmdline.split(|&b| b == 0).filter(|a| !a.is_empty());
    let argv0 = base(args.next()?);
    if is_interpreter(comm) {
        // The first argument that is not an option; `-c` code and `-m` modules stop it.
        for arg in args {
            match arg {
                b"-c" | b"-e" => return None,
                b"-m" => return None,
                _ if arg.starts_with(b"-") => continue,
                _ if names_no_script(arg) => return None,
                _ => return Some(Label::new(base(arg))).filter(|l| !l.is_empty()),
            }
        }
        return None;
    }
    // The kernel cuts comm to 15 bytes: argv[0] gives the rest, if it agrees.
    if comm.len() == COMM_LEN - 1 && argv0.len() > comm.len() && argv0.starts_with(comm) {
        return Some(Label::new(argv0));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comm(name: &str) -> [u8; COMM_LEN] {
        let mut c = [0; COMM_LEN];
        let len = name.len().min(COMM_LEN - 1);
        c[..len].copy_from_slice(&name.as_bytes()[..len]);
        c
    }

    fn shown(comm_name: &str, cmdline: &[u8]) -> Option<String> {
        real_name(&comm(comm_name), cmdline).map(|l| String::from_utf8_lossy(l.as_bytes()).into())
    }

    #[test]
    fn interpreters_show_their_script() {
        let script = shown(
            "python3",
            b"/usr/bin/python3\0-u\0/home/u/bin/sync.py\0--fast\0",
        );
        assert_eq!(script.as_deref(), Some("sync.py"));
        assert_eq!(
            shown("python3.11", b"python3.11\0x.py\0").as_deref(),
            Some("x.py")
        );
        assert_eq!(
            shown("bash", b"bash\0./build.sh\0").as_deref(),
            Some("build.sh")
        );
        assert_eq!(shown("python3", b"python3\0-c\0print(1)\0"), None);
        assert_eq!(shown("python3", b"python3\0-m\0http.server\0"), None);
        assert_eq!(shown("python3", b"python3\0"), None);
    }

    #[test]
    fn a_script_read_from_a_file_descriptor_keeps_the_interpreter() {
        for path in [
            "/dev/fd/3",
            "/dev/fd/63",
            "/proc/self/fd/3",
            "/proc/thread-self/fd/4",
            "/proc/1234/fd/5",
            "/proc/1234/task/1235/fd/5",
        ] {
            let cmdline = format!("bash\0{path}\0");
            assert_eq!(shown("bash", cmdline.as_bytes()), None, "{path}");
        }
        // A script whose own name merely looks like a number is still a script.
        assert_eq!(shown("sh", b"sh\0./3\0").as_deref(), Some("3"));
        assert_eq!(
            shown("bash", b"bash\0/proc/x.sh\0").as_deref(),
            Some("x.sh")
        );
    }

    #[test]
    fn long_names_come_back_whole_only_when_argv0_agrees() {
        let long = "bar-a3d8e19eab6f4c21";
        let cmdline = format!("/opt/{long}\0--x\0");
        assert_eq!(shown(long, cmdline.as_bytes()).as_deref(), Some(long));
        // argv[0] that lies: it does not extend comm, so comm stays.
        assert_eq!(shown(long, b"firefox-is-what-i-say-i-am\0"), None);
        assert_eq!(shown("sleep", b"firefox\0"), None);
        assert_eq!(shown("sleep", b""), None);
        // Capped like every label.
        let huge = format!("{}{}\0", &long[..15], "x".repeat(100));
        assert_eq!(shown(long, huge.as_bytes()).map(|s| s.len()), Some(32));
    }
}
