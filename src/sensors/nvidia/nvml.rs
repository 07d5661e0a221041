//! The real NVML. What is read once (names, PCI addresses) and the plain per-tick values go
//! through nvml-wrapper. The per-process lists go through its raw bindings into buffers
//! kept from tick to tick: nvml-wrapper returns each list as a new Vec, and a warm tick
//! must not allocate.

use std::cell::RefCell;
use std::ffi::{c_uint, OsStr};
use std::ptr;

use nvml_wrapper::enum_wrappers::device::{Clock, TemperatureSensor};
use nvml_wrapper::error::NvmlError;
use nvml_wrapper_sys::bindings::{
    nvmlProcessInfo_t, nvmlProcessUtilizationSample_t,
    nvmlReturn_enum_NVML_ERROR_INSUFFICIENT_SIZE as INSUFFICIENT_SIZE,
    nvmlReturn_enum_NVML_SUCCESS as SUCCESS, nvmlReturn_t,
};

use super::{Nvidia, NvidiaProcess, NvidiaSample, LIBRARY};

/// NVML's `NVML_VALUE_NOT_AVAILABLE` in a 64-bit field: a figure it does not have.
const NOT_AVAILABLE: u64 = u64::MAX;

/// A list can grow between NVML's answer on its size and the next call: it is asked this
/// many times at most, then left out of the tick.
const ATTEMPTS: usize = 3;

/// Room for processes that start between two calls, added when a buffer grows.
const HEADROOM: usize = 8;

/// A bound on a list NVML claims to need, so a bogus count cannot take the memory.
const MOST_LISTED: usize = 1 << 16;

const NO_PROCESS: nvmlProcessInfo_t = nvmlProcessInfo_t {
    pid: 0,
    usedGpuMemory: 0,
    gpuInstanceId: 0,
    computeInstanceId: 0,
};

const NO_UTILIZATION: nvmlProcessUtilizationSample_t = nvmlProcessUtilizationSample_t {
    pid: 0,
    timeStamp: 0,
    smUtil: 0,
    memUtil: 0,
    encUtil: 0,
    decUtil: 0,
};

pub struct Nvml {
    nvml: nvml_wrapper::Nvml,
    /// Only the sampling thread reads NVML, one call at a time.
    lists: RefCell<Lists>,
}

/// The buffers NVML writes its process lists into, grown when a list outgrows them.
#[derive(Default)]
struct Lists {
    running: Vec<nvmlProcessInfo_t>,
    utilization: Vec<nvmlProcessUtilizationSample_t>,
}

impl Nvml {
    /// Loads [`LIBRARY`] from the system's library path.
    pub fn load() -> Result<Nvml, NvmlError> {
        Nvml::load_from(OsStr::new(LIBRARY))
    }

    pub fn load_from(library: &OsStr) -> Result<Nvml, NvmlError> {
        let nvml = nvml_wrapper::Nvml::builder().lib_path(library).init()?;
        Ok(Nvml {
            nvml,
            lists: RefCell::default(),
        })
    }

    /// NVML if this machine has it; why not is logged (quietly where that is normal).
    pub fn load_logged() -> Option<Box<dyn Nvidia>> {
        match Nvml::load() {
            Ok(nvml) => Some(Box::new(nvml)),
            Err(err @ (NvmlError::LibloadingError(_) | NvmlError::DriverNotLoaded)) => {
                tracing::debug!("no NVIDIA GPUs: {err}");
                None
            }
            Err(err) => {
                tracing::warn!("NVIDIA GPUs not shown: NVML failed to start: {err}");
                None
            }
        }
    }
}

impl Nvidia for Nvml {
    fn device_count(&self) -> u32 {
        self.nvml.device_count().unwrap_or(0)
    }

    fn describe(&self, index: u32) -> Option<(String, String)> {
        let device = self.nvml.device_by_index(index).ok()?;
        let model = device.name().unwrap_or_default();
        // NVML writes the domain with 8 digits: 00000000:01:00.0.
        let bus_id = device.pci_info().map(|p| p.bus_id).unwrap_or_default();
        let slot = bus_id.get(bus_id.len().saturating_sub(12)..).unwrap_or("");
        Some((model, slot.to_ascii_lowercase()))
    }

    fn sample(&self, index: u32) -> NvidiaSample {
        let Ok(device) = self.nvml.device_by_index(index) else {
            return NvidiaSample::default();
        };
        let memory = device.memory_info().ok();
        NvidiaSample {
            busy_percent: device.utilization_rates().ok().map(|u| u.gpu),
            vram_used: memory.as_ref().map(|m| m.used),
            vram_total: memory.as_ref().map(|m| m.total),
            celsius: device.temperature(TemperatureSensor::Gpu).ok(),
            graphics_mhz: device.clock_info(Clock::Graphics).ok(),
            max_graphics_mhz: device.max_clock_info(Clock::Graphics).ok(),
        }
    }

    fn processes(&self, index: u32, last_seen_us: &mut u64, out: &mut Vec<NvidiaProcess>) {
        out.clear();
        let Ok(device) = self.nvml.device_by_index(index) else {
            return;
        };
        // SAFETY: only reads the handle; it is used below while `self.nvml`, which
        // owns it, is alive.
        let handle = unsafe { device.handle() };
        let lib = self.nvml.lib();
        let mut lists = self.lists.borrow_mut();
        let Lists {
            running,
            utilization,
        } = &mut *lists;

        let running_lists = [
            &lib.nvmlDeviceGetComputeRunningProcesses_v3,
            &lib.nvmlDeviceGetGraphicsRunningProcesses_v3,
        ];
        // A driver without a query (older than the _v3 lists) leaves its part out.
        for query in running_lists.into_iter().filter_map(|q| q.as_ref().ok()) {
            // SAFETY: `handle` is a live device; `infos` points to `*count` writable
            // entries, or is null with a count of 0, as NVML requires.
            let status = fill(running, NO_PROCESS, |infos, count| unsafe {
                query(handle, count, infos)
            });
            if status != SUCCESS {
                continue;
            }
            for info in running.iter() {
                let memory = Some(info.usedGpuMemory).filter(|&m| m != NOT_AVAILABLE);
                // A process in both lists is one process with one figure.
                let process = entry(out, info.pid);
                process.memory_bytes = process.memory_bytes.max(memory);
            }
        }

        let Ok(query) = lib.nvmlDeviceGetProcessUtilization.as_ref() else {
            return;
        };
        let since = *last_seen_us;
        // SAFETY: as above, with `samples` for `*count` entries or null with 0.
        let status = fill(utilization, NO_UTILIZATION, |samples, count| unsafe {
            query(handle, samples, count, since)
        });
        // NOT_FOUND: no samples since `since`; the processes keep their memory alone.
        if status != SUCCESS {
            return;
        }
        for sample in utilization.iter() {
            let busy = sample.smUtil.max(sample.encUtil).max(sample.decUtil);
            let process = entry(out, sample.pid);
            process.busy_percent = Some(busy.max(process.busy_percent.unwrap_or(0)));
            *last_seen_us = (*last_seen_us).max(sample.timeStamp);
        }
    }
}

/// The process `pid` in `out`, added if it is not there yet.
fn entry(out: &mut Vec<NvidiaProcess>, pid: u32) -> &mut NvidiaProcess {
    let at = match out.iter().position(|p| p.pid == pid) {
        Some(at) => at,
        None => {
            out.push(NvidiaProcess {
                pid,
                ..NvidiaProcess::default()
            });
            out.len() - 1
        }
    };
    &mut out[at]
}

/// Calls `query(entries, count)`, NVML's size-then-fill protocol, until `buffer` holds the
/// whole list, growing it when NVML answers INSUFFICIENT_SIZE with the count it needs.
/// Returns NVML's status; on SUCCESS `buffer` is the list, otherwise empty. The buffer
/// keeps its capacity, so a list that fits allocates nothing.
fn fill<T: Copy>(
    buffer: &mut Vec<T>,
    empty: T,
    mut query: impl FnMut(*mut T, &mut c_uint) -> nvmlReturn_t,
) -> nvmlReturn_t {
    for _ in 0..ATTEMPTS {
        buffer.resize(buffer.capacity(), empty);
        let mut count = c_uint::try_from(buffer.len()).unwrap_or(c_uint::MAX);
        let entries = if buffer.is_empty() {
            ptr::null_mut()
        } else {
            buffer.as_mut_ptr()
        };
        let status = query(entries, &mut count);
        let needed = usize::try_from(count).unwrap_or(usize::MAX);
        if status == INSUFFICIENT_SIZE && needed <= MOST_LISTED {
            buffer.resize(needed.max(buffer.len()) + HEADROOM, empty);
            continue;
        }
        let listed = if status == SUCCESS { needed } else { 0 };
        buffer.truncate(listed);
        return status;
    }
    buffer.clear();
    INSUFFICIENT_SIZE
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list of `wanted` entries as NVML hands it out: the count first, then the entries.
    fn nvml_list(wanted: &[u32]) -> impl FnMut(*mut u32, &mut c_uint) -> nvmlReturn_t + '_ {
        move |entries, count| {
            let fits = *count as usize >= wanted.len();
            *count = wanted.len() as c_uint;
            if !fits {
                return INSUFFICIENT_SIZE;
            }
            for (i, &value) in wanted.iter().enumerate() {
                // SAFETY: `fill` passes room for the count it passed, checked above.
                unsafe { entries.add(i).write(value) };
            }
            SUCCESS
        }
    }

    #[test]
    fn a_list_grows_its_buffer_once_and_then_fits() {
        let mut buffer = Vec::new();
        assert_eq!(fill(&mut buffer, 0, nvml_list(&[1, 2, 3])), SUCCESS);
        assert_eq!(buffer, [1, 2, 3]);
        let capacity = buffer.capacity();
        assert!(capacity >= 3 + HEADROOM);
        assert_eq!(fill(&mut buffer, 0, nvml_list(&[4])), SUCCESS);
        assert_eq!(buffer, [4]);
        assert_eq!(fill(&mut buffer, 0, nvml_list(&[])), SUCCESS);
        assert!(buffer.is_empty());
        assert_eq!(
            buffer.capacity(),
            capacity,
            "a list that fits keeps the buffer"
        );
    }

    #[test]
    fn a_list_that_keeps_growing_or_fails_is_left_out() {
        let mut buffer = Vec::new();
        let mut size = 0;
        let growing = |_: *mut u32, count: &mut c_uint| {
            size += 100;
            *count = size;
            INSUFFICIENT_SIZE
        };
        assert_eq!(fill(&mut buffer, 0, growing), INSUFFICIENT_SIZE);
        assert!(buffer.is_empty());
        let bogus = |_: *mut u32, count: &mut c_uint| {
            *count = c_uint::MAX;
            INSUFFICIENT_SIZE
        };
        assert_eq!(fill(&mut buffer, 0, bogus), INSUFFICIENT_SIZE);
        assert!(
            buffer.capacity() < MOST_LISTED,
            "a bogus count is not believed"
        );
        let not_found = 6;
        assert_eq!(fill(&mut buffer, 0, |_, _| not_found), not_found);
        assert!(buffer.is_empty());
    }
}
