//! The pure core: decode probe records, aggregate threads into processes, compute deltas
//! and rates against the previous sample, rank the top processes.
//!
//! Nothing here touches GTK, libbpf or the kernel: it is fed records and text, so every
//! rule (PID reuse, counters going backwards, zombie persistence, kernel-thread filter)
//! is unit-tested without root.

pub mod app;
pub mod controls;
pub mod fdbudget;
pub mod fdinfo;
pub mod gpu_process;
pub mod gpu_users;
pub mod hardware;
pub mod history;
pub mod net;
pub mod oom;
pub mod pid_namespace;
pub mod process;
pub mod procstat;
pub mod realname;
pub mod record;
pub mod system;
pub mod top;
pub mod value;
pub mod visibility;

mod snapshot;

pub use hardware::{CpuReading, Gpu, GpuDriver, GpuReading, Hardware, Throttle, Value};
pub use net::NetBytes;
pub use oom::{OomKill, OomKills};
pub use process::{Process, ProcessKey, ProcessTable};
pub use record::{ExitRecord, TaskRecord, TaskState};
pub use snapshot::{Model, OthersIo, Snapshot, StuckList, SystemCpu};
pub use system::{LoadAverage, Memory};
pub use top::{Row, TopList};
pub use visibility::{HidePid, Privacy};
