//! A test child in a new PID namespace (`unshare --pid --fork --mount-proc`, as root):
//! this test binary again, running one test that the parent steps through by lines.
//! The child says `ready` when it is set up, waits for the parent's go (the parent acts
//! on the machine meanwhile), then prints what it saw and ends.

use std::io::{BufRead, BufReader, Lines, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

pub struct NamespacedChild {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    said: String,
}

impl NamespacedChild {
    /// Starts the test named `test` (its path in the binary) in a new PID namespace, with
    /// `env` set, and waits for its `ready`.
    pub fn start(test: &str, env: &[(&str, &str)]) -> NamespacedChild {
        let mut child = Command::new("unshare")
            .args(["--pid", "--fork", "--mount-proc", "--"])
            .arg(std::env::current_exe().expect("test binary"))
            .args(["--exact", test, "--nocapture", "--test-threads=1"])
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("unshare");
        let stdin = child.stdin.take().expect("stdin");
        let lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut namespaced = NamespacedChild {
            child,
            stdin,
            lines,
            said: String::new(),
        };
        namespaced.read_until("ready");
        namespaced
    }

    /// Reads the child's lines until one holds `word`; its text after `word`.
    fn read_until(&mut self, word: &str) -> String {
        for line in self.lines.by_ref() {
            let line = line.expect("the child's output");
            self.said.push_str(&line);
            self.said.push('\n');
            // libtest may print the test's name before the child's first line.
            if let Some((_, after)) = line.split_once(word) {
                return after.trim().to_string();
            }
        }
        let status = self.child.wait().expect("wait");
        panic!("the child ended ({status}) without `{word}`: {}", self.said);
    }

    /// What the child said before its `ready` on the line that holds `word`, after it.
    pub fn said(&self, word: &str) -> String {
        self.said
            .lines()
            .find_map(|line| line.split_once(word))
            .map(|(_, after)| after.trim().to_string())
            .unwrap_or_else(|| panic!("the child did not say `{word}`: {}", self.said))
    }

    /// Lets the child go on; its line that starts with `word` (the text after it), once
    /// it succeeded.
    pub fn go_and_read(mut self, word: &str) -> String {
        writeln!(self.stdin).expect("the child's go");
        let said = self.read_until(word);
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "the child failed: {}", self.said);
        said
    }
}

/// In the child: says `ready`, then waits for the parent's go.
pub fn ready_then_wait() {
    println!("ready");
    std::io::stdout().flush().expect("flush");
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .expect("the parent's go");
}

/// Runs `count` short processes on the machine and waits for them: their pids.
pub fn short_processes(count: usize) -> Vec<u32> {
    (0..count)
        .map(|_| {
            let mut child = Command::new("/bin/true").spawn().expect("true");
            let pid = child.id();
            child.wait().expect("true");
            pid
        })
        .collect()
}
