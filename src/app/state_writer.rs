//! The state file, written off the main loop. A write ends in `fsync`, which a disk busy
//! writing back (a large copy, a build) can hold for a second or more: the click that
//! asked for it must not freeze the bar meanwhile.

use std::sync::mpsc::{channel, Sender};
use std::thread::JoinHandle;

use crate::app::state::StateFile;
use crate::model::controls::Controls;

type Write = (StateFile, Controls);

/// Writes the choices in order on a thread of its own, made at the first write (a bar
/// nobody clicks has none). Dropping it waits for the last write.
#[derive(Default)]
pub struct StateWriter {
    queue: Option<(Sender<Write>, JoinHandle<()>)>,
}

impl StateWriter {
    pub fn write(&mut self, file: &StateFile, chosen: Controls) {
        if self.queue.is_none() {
            self.queue = start();
        }
        let write = (file.clone(), chosen);
        let unsent = match &self.queue {
            Some((sender, _)) => sender.send(write).err().map(|failed| failed.0),
            None => Some(write),
        };
        // No thread to be had: written here, late rather than never.
        if let Some((file, chosen)) = unsent {
            save(&file, chosen);
        }
    }
}

impl Drop for StateWriter {
    fn drop(&mut self) {
        if let Some((sender, thread)) = self.queue.take() {
            drop(sender);
            let _ = thread.join();
        }
    }
}

fn start() -> Option<(Sender<Write>, JoinHandle<()>)> {
    let (sender, receiver) = channel::<Write>();
    let thread = std::thread::Builder::new()
        .name("state-writer".into())
        .spawn(move || {
            while let Ok(mut latest) = receiver.recv() {
                // Of a quick run of clicks only the last choice is worth writing.
                while let Ok(newer) = receiver.try_recv() {
                    latest = newer;
                }
                save(&latest.0, latest.1);
            }
        });
    match thread {
        Ok(thread) => Some((sender, thread)),
        Err(err) => {
            tracing::warn!("no thread to write the state file on: {err}");
            None
        }
    }
}

fn save(file: &StateFile, chosen: Controls) {
    if let Err(err) = file.save(chosen) {
        let path = file.path.display();
        tracing::warn!("cannot remember the setting in {path}: {err}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_in(dir: &std::path::Path) -> StateFile {
        StateFile {
            path: dir.join("ringbar/state.toml"),
            config: Controls {
                interval_ms: 2000,
                kernel_threads: false,
            },
        }
    }

    #[test]
    fn the_last_of_many_choices_is_on_disk_once_the_writer_is_dropped() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = file_in(dir.path());
        let mut writer = StateWriter::default();
        for interval_ms in [1000, 500, 250, 100] {
            let chosen = Controls {
                interval_ms,
                kernel_threads: interval_ms == 100,
            };
            writer.write(&file, chosen);
        }
        drop(writer);
        let loaded = file.load();
        assert_eq!((loaded.interval_ms, loaded.kernel_threads), (100, true));
    }

    #[test]
    fn a_file_that_cannot_be_written_leaves_the_writer_working() {
        let dir = tempfile::tempdir().expect("tempdir");
        let blocked = dir.path().join("blocked");
        std::fs::write(&blocked, "a file where a folder should be").expect("write");
        let mut writer = StateWriter::default();
        let chosen = Controls {
            interval_ms: 500,
            kernel_threads: true,
        };
        writer.write(&file_in(&blocked), chosen);
        let good = file_in(dir.path());
        writer.write(&good, chosen);
        drop(writer);
        assert_eq!(good.load().interval_ms, 500);
    }
}
