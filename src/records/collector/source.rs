//! Where a sample's task records come from, behind one interface: the BPF probe in this
//! process, the probe service's, or the walk of `/proc`.

use std::io;

use super::{boottime_ns, monotonic_ns};
use crate::model::SystemCpu;
use crate::model::{ExitRecord, TaskRecord};
use crate::records::probe::Probe;
use crate::records::procwalk::ProcWalk;
use crate::records::service::client::RemoteProbe;
use crate::records::Source;

pub trait RecordSource {
    /// Called when a sample starts, before the system files are read: a source that asks
    /// someone else for its records asks now.
    fn prepare(&mut self) {}

    /// Reads one sample's task records, and into `exits` the exit reports (OOM kills
    /// among them) that came since the last; returns the time the records are of, on
    /// the clock of their start times.
    fn read(&mut self, exits: &mut Vec<ExitRecord>) -> io::Result<u64>;

    /// Sampling stops for a while (the layout shows no sample): let go of what only
    /// sampling holds. The next [`RecordSource::read`] takes it again.
    fn pause(&mut self) {}

    /// The task records of the last read.
    fn tasks(&self) -> &[TaskRecord];

    /// When each of [`RecordSource::tasks`] was read, where they were read one after
    /// another over a time that counts (the /proc walk); empty when all were read at the
    /// time [`RecordSource::read`] returned.
    fn read_times(&self) -> &[u64] {
        &[]
    }

    /// Which source this is, for the outputs.
    fn kind(&self) -> Source;

    /// The whole machine's CPU time and thread count, where the records leave out what
    /// exited between two reads (the /proc walk): the model then takes the CPU total
    /// from these.
    fn system_cpu(&mut self) -> Option<(Option<SystemCpu>, u32)> {
        None
    }

    /// The task record buffer's size, where it has a fixed one (the probe's).
    fn capacity(&self) -> Option<usize> {
        None
    }

    /// Whether the last read went through the probe's walker.
    fn walked(&self) -> bool {
        false
    }
}

impl RecordSource for Probe {
    fn read(&mut self, exits: &mut Vec<ExitRecord>) -> io::Result<u64> {
        self.read_tasks()?;
        self.drain_exits(exits)?;
        Ok(monotonic_ns())
    }

    fn pause(&mut self) {
        Probe::pause(self);
    }

    fn tasks(&self) -> &[TaskRecord] {
        Probe::tasks(self)
    }

    fn kind(&self) -> Source {
        Source::Probe
    }

    fn capacity(&self) -> Option<usize> {
        Some(Probe::capacity(self))
    }

    fn walked(&self) -> bool {
        Probe::walked(self)
    }
}

impl RecordSource for RemoteProbe {
    fn prepare(&mut self) {
        self.request_walk();
    }

    fn read(&mut self, exits: &mut Vec<ExitRecord>) -> io::Result<u64> {
        let walked_ns = self.read_tasks()?;
        self.drain_exits(exits)?;
        Ok(walked_ns.unwrap_or_else(monotonic_ns))
    }

    fn pause(&mut self) {
        RemoteProbe::pause(self);
    }

    fn tasks(&self) -> &[TaskRecord] {
        RemoteProbe::tasks(self)
    }

    fn kind(&self) -> Source {
        Source::Service
    }

    fn walked(&self) -> bool {
        RemoteProbe::walked(self)
    }
}

impl RecordSource for ProcWalk {
    fn read(&mut self, exits: &mut Vec<ExitRecord>) -> io::Result<u64> {
        // /proc's start times count from boot, suspend included; /proc reports no exits.
        let now = boottime_ns();
        exits.clear();
        self.read_tasks()?;
        Ok(now)
    }

    fn tasks(&self) -> &[TaskRecord] {
        ProcWalk::tasks(self)
    }

    fn read_times(&self) -> &[u64] {
        ProcWalk::read_times(self)
    }

    fn kind(&self) -> Source {
        Source::Proc
    }

    fn system_cpu(&mut self) -> Option<(Option<SystemCpu>, u32)> {
        Some((self.cpu_time_ns(), self.threads()))
    }
}
