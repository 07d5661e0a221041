//! Many processes kept alive for a test or a benchmark scenario, killed and reaped on drop.

use std::process::{Child, Command, Stdio};

/// Processes on the machine now (the numeric entries of /proc).
pub fn processes_on_machine() -> usize {
    std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.parse::<u32>().is_ok())
        })
        .count()
}

/// Processes, killed and reaped on drop.
pub struct Crowd(Vec<Child>);

impl Crowd {
    /// Takes over `children`.
    pub fn of(children: Vec<Child>) -> Crowd {
        Crowd(children)
    }

    /// `count` sleeping processes.
    pub fn sleepers(count: usize) -> Crowd {
        let children = (0..count)
            .map(|_| {
                Command::new("sleep")
                    .arg("3600")
                    .stdin(Stdio::null())
                    .spawn()
                    .expect("spawn sleep")
            })
            .collect();
        Crowd(children)
    }
}

impl Drop for Crowd {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
        }
        for child in &mut self.0 {
            let _ = child.wait();
        }
    }
}
