//! Processes that are gone: what was counted for them while listed, and what each exit
//! report adds to it.

use super::Model;
use crate::model::process::ProcessKey;
use crate::model::record::{ExitRecord, EXIT_FREED};
use crate::model::snapshot::departed::{Departed, DEPARTED_SAMPLES};

use super::DEPARTED_ROOM;

impl Model {
    /// Processes that vanished since the previous sample: remembers what was counted for
    /// them, so that their exit reports (which may arrive a sample late) add only the rest.
    pub(super) fn remember_vanished(&mut self) {
        let vanished = self.previous.iter().zip(&self.still_here);
        for (p, _) in vanished.filter(|(_, &here)| !here) {
            let net = self.previous.net(p).total;
            self.departed
                .insert(p.key(), Departed::seen(p, net, self.samples));
        }
    }

    /// Exit reports are cumulative totals of a dead group, sent when its last thread exits
    /// and again, final, when it is freed. Each counts what it adds to what was counted.
    pub(super) fn count_exits(&mut self, exits: &[ExitRecord]) {
        let snap = &mut self.snapshot;
        snap.exited_cpu_ns = 0;
        snap.exited_groups = 0;
        for exit in exits.iter() {
            let key = ProcessKey {
                tgid: exit.tgid,
                start_ns: exit.leader_start_ns,
            };
            if self.current.contains(&key) {
                continue; // still listed (a zombie): its task records count
            }
            // The group's last report: nothing will come to count against it.
            let freed = exit.flags & EXIT_FREED != 0;
            let added = match self.departed.get_mut(&key) {
                Some(departed) => Some(departed.count(exit)),
                None => {
                    let mut departed = Departed::unseen(self.samples);
                    // Never listed: it lived entirely between two samples if it started after
                    // the one before the previous (reports can arrive a sample late).
                    let floor = self.window_starts[1].or(self.window_starts[0]);
                    let whole_life = floor.is_some_and(|t| exit.leader_start_ns >= t);
                    let added = if whole_life {
                        Some(departed.count(exit))
                    } else {
                        departed.take(exit);
                        None
                    };
                    if !freed {
                        self.departed.insert(key, departed);
                    }
                    added
                }
            };
            if freed {
                self.departed.remove(&key);
            }
            if let Some((cpu, read, write, net, first_report)) = added {
                snap.net.add(net);
                snap.exited_cpu_ns = snap.exited_cpu_ns.saturating_add(cpu);
                snap.exited_groups += u32::from(first_report);
                snap.read_bytes = snap.read_bytes.saturating_add(read);
                snap.write_bytes = snap.write_bytes.saturating_add(write);
            }
        }
        let samples = self.samples;
        self.departed
            .retain(|_, d| samples - d.sample < DEPARTED_SAMPLES);
        // A burst of exits whose final reports were lost grows the table: give the room
        // back once the burst is over (with slack, so that no steady sample reallocates).
        let room = DEPARTED_ROOM.max(2 * self.departed.len());
        if self.departed.capacity() > 4 * room {
            self.departed.shrink_to(room);
        }
    }
}
