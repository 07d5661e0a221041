//! Sampling away from the drawing, and where it is cheapest: the [`Worker`] takes the
//! samples on the main loop while they are short (the BPF probe's, see [`inline`]) and
//! on a thread of their own, `ringbar-sampler`, while they are long (the /proc walk's,
//! see [`thread`]), moving between the two as the measured sample times say (see
//! [`placement`]). Either way the main loop renders each sample as it comes.
//!
//! It samples at once, again after the first interval and then every interval (see
//! [`schedule`]). The main loop's requests (a click, `ringbar msg`, a reload) are taken
//! at once: a new interval samples at once and restarts the interval from there; the
//! kernel-thread and group-by settings re-rank the latest sample without sampling.

mod handover;
mod inline;
mod placement;
mod run;
mod schedule;
mod thread;
mod ticker;
mod wake;

use std::sync::Arc;

pub use handover::{Handover, Taken};
pub use thread::THREAD_NAME;
pub use ticker::Ticker;
pub use wake::Watch;

use inline::Inline;
use placement::{Place, Placement};
use schedule::Schedule;
use thread::SamplingThread;

use crate::app::sampler::Sampler;
use crate::config;
use crate::model::app::GroupBy;
use crate::records::Source;
use crate::sample::readings::Reader;
use crate::sample::{Notice, Sample};
use crate::sensors::Wanted;

/// What the main loop asked since the thread last looked; merged, the latest wins.
#[derive(Default)]
struct Requests {
    sample_now: bool,
    interval_ms: Option<u32>,
    kernel_threads: Option<bool>,
    group_by: Option<Option<GroupBy>>,
    group_by_toggles: u32,
    net_include_local: Option<bool>,
    sensors: Option<(config::Sensors, Vec<Notice>)>,
    readers: Option<Vec<Box<dyn Reader>>>,
    wanted: Option<Wanted>,
    /// Whether samples are taken at all (see [`Worker::set_sampling`]).
    sampling: Option<bool>,
    /// To the sampling thread: park the sampler for the main loop and end.
    hand_back: bool,
    stop: bool,
}

impl Requests {
    fn any(&self) -> bool {
        self.sample_now
            || self.interval_ms.is_some()
            || self.kernel_threads.is_some()
            || self.group_by.is_some()
            || self.group_by_toggles > 0
            || self.net_include_local.is_some()
            || self.sensors.is_some()
            || self.readers.is_some()
            || self.wanted.is_some()
            || self.sampling.is_some()
            || self.hand_back
            || self.stop
    }

    /// Adds the requests made after these; where both ask, the later wins.
    fn then(&mut self, later: Requests) {
        fn later_wins<T>(earlier: &mut Option<T>, later: Option<T>) {
            if later.is_some() {
                *earlier = later;
            }
        }
        self.sample_now |= later.sample_now;
        later_wins(&mut self.interval_ms, later.interval_ms);
        later_wins(&mut self.kernel_threads, later.kernel_threads);
        if later.group_by.is_some() {
            self.group_by = later.group_by;
            self.group_by_toggles = later.group_by_toggles;
        } else {
            self.group_by_toggles += later.group_by_toggles;
        }
        later_wins(&mut self.net_include_local, later.net_include_local);
        later_wins(&mut self.sensors, later.sensors);
        later_wins(&mut self.readers, later.readers);
        later_wins(&mut self.wanted, later.wanted);
        later_wins(&mut self.sampling, later.sampling);
        self.hand_back |= later.hand_back;
        self.stop |= later.stop;
    }
}

/// The sampler while it moves between the main loop and the sampling thread, with when
/// its next sample is due and the requests it has yet to apply.
struct Parked {
    sampler: Sampler,
    schedule: Schedule,
    requests: Requests,
}

/// Where the sampler runs now.
enum Running {
    MainLoop(Box<Inline>),
    Thread(SamplingThread),
    /// Only while moving from one to the other.
    Moving,
}

/// The main loop's handle on the sampling, wherever it runs; a sampling thread stops
/// when it is dropped.
pub struct Worker {
    running: Running,
    placement: Placement,
    /// Where the sampling thread's samples wait, and its wake-up: one for every thread.
    handover: Arc<Handover>,
    /// The main loop's tick while it samples itself.
    ticker: Arc<Ticker>,
    /// Whether the main loop may not sample, once found (see [`Worker::main_loop_may_sample`]).
    main_loop_refused: bool,
}

impl Worker {
    /// Starts sampling with `sampler` on a thread of its own, until the times of its
    /// samples show that the main loop can take them: a sample at once, the next after
    /// `first_ms`, then one every `interval_ms`. Returns the handle and the sampler's
    /// sample as it is before the first (what the main loop shows until then). Fails if
    /// the thread cannot start or still holds capabilities (spawned before they were
    /// dropped): nothing may sample with them.
    pub fn spawn(
        sampler: Sampler,
        interval_ms: u32,
        first_ms: u32,
    ) -> Result<(Worker, Sample), String> {
        let first = sampler.sample().clone();
        let handover = Arc::new(
            Handover::new(&first)
                .map_err(|err| format!("cannot make the sample hand-over: {err}"))?,
        );
        let ticker =
            Arc::new(Ticker::new().map_err(|err| format!("cannot make the sample timer: {err}"))?);
        let parked = Parked {
            sampler,
            schedule: Schedule::new(interval_ms, first_ms),
            requests: Requests::default(),
        };
        let thread =
            SamplingThread::spawn(parked, handover.clone()).map_err(|refused| refused.0)?;
        let worker = Worker {
            running: Running::Thread(thread),
            placement: Placement::new(Place::Thread),
            handover,
            ticker,
            main_loop_refused: false,
        };
        Ok((worker, first))
    }

    fn request(&self, change: impl FnOnce(&mut Requests)) {
        match &self.running {
            Running::MainLoop(inline) => inline.request(change),
            Running::Thread(thread) => thread.request(change),
            Running::Moving => {}
        }
    }

    /// Takes the newest sample into `latest` if one came since the last call (taken on
    /// the main loop: [`Worker::sample`] shows it, `latest` is left as it was), and says
    /// so; moves the sampling where its times say. Steady ticks allocate nothing.
    pub fn receive(&mut self, latest: &mut Sample) -> Taken {
        let stamp = self.sample(latest).unix_ms;
        let taken = match &mut self.running {
            Running::MainLoop(inline) => inline.tick(),
            Running::Thread(thread) => match thread.parked() {
                Some(parked) => {
                    self.handover.take(latest);
                    self.onto_main_loop(parked, latest);
                    return Taken::Sample {
                        notices_changed: false,
                    };
                }
                None => self.handover.take(latest),
            },
            Running::Moving => Taken::Nothing,
        };
        // A new sample, not the latest re-ranked: its time counts.
        if taken.any() && self.sample(latest).unix_ms != stamp {
            let sample_us = self.sample(latest).sample_us;
            if let Some(place) = self.placement.sampled(sample_us) {
                self.move_to(place, latest);
            }
        }
        taken
    }

    /// The latest sample: the main loop's own while it samples, else `latest`, the one
    /// [`Worker::receive`] takes into.
    pub fn sample<'s>(&'s self, latest: &'s Sample) -> &'s Sample {
        match &self.running {
            Running::MainLoop(inline) => inline.sample(),
            _ => latest,
        }
    }

    fn move_to(&mut self, place: Place, latest: &mut Sample) {
        match (place, std::mem::replace(&mut self.running, Running::Moving)) {
            (Place::MainLoop, Running::Thread(thread)) => {
                if self.main_loop_may_sample(latest.source) {
                    // It comes back through the hand-over's wake-up (see `receive`).
                    thread.hand_back();
                } else {
                    self.placement = Placement::new(Place::Thread);
                }
                self.running = Running::Thread(thread);
            }
            (Place::Thread, Running::MainLoop(inline)) => {
                latest.clone_from(inline.sample());
                let parked = inline.park();
                tracing::debug!("samples are long: the sampling thread takes them");
                match SamplingThread::spawn(parked, self.handover.clone()) {
                    Ok(thread) => self.running = Running::Thread(thread),
                    Err(refused) => {
                        let (err, parked) = *refused;
                        tracing::warn!("{err}; the main loop goes on sampling");
                        self.placement = Placement::new(Place::MainLoop);
                        self.running = Running::MainLoop(Box::new(Inline::new(
                            parked,
                            self.ticker.clone(),
                            latest.notices.clone(),
                        )));
                    }
                }
            }
            (_, running) => self.running = running,
        }
    }

    fn onto_main_loop(&mut self, parked: Parked, latest: &Sample) {
        tracing::debug!("samples are short: the main loop takes them");
        // The thread has ended; what its malloc arena holds free stays resident until
        // trimmed (a few hundred KiB of a sampling thread's start).
        crate::app::heap::trim_after("the sampling thread");
        self.placement = Placement::new(Place::MainLoop);
        let inline = Inline::new(parked, self.ticker.clone(), latest.notices.clone());
        self.running = Running::MainLoop(Box::new(inline));
    }

    /// Whether the main loop may take samples from `source`: only from the probe in this
    /// process (the probe service may keep a sample waiting up to its timeout, however
    /// short its samples were), and only if the main thread holds no capability (checked
    /// once).
    fn main_loop_may_sample(&mut self, source: Source) -> bool {
        if self.main_loop_refused {
            return false;
        }
        if source != Source::Probe {
            tracing::debug!("samples from {} stay on the sampling thread", source.name());
            self.main_loop_refused = true;
        } else if let Err(err) = crate::records::privileges::check_this_thread_holds_none() {
            tracing::warn!("the main loop does not sample: {err}");
            self.main_loop_refused = true;
        }
        !self.main_loop_refused
    }

    /// A sample now; the interval restarts from it.
    pub fn sample_now(&self) {
        self.request(|r| r.sample_now = true);
    }

    /// A new interval, from a sample taken now.
    pub fn set_interval_ms(&self, interval_ms: u32) {
        self.request(|r| {
            r.interval_ms = Some(interval_ms);
            r.sample_now = true;
        });
    }

    /// Re-ranks the latest sample with or without kernel threads and hands it over.
    pub fn set_kernel_threads(&self, include: bool) {
        self.request(|r| r.kernel_threads = Some(include));
    }

    /// The config's `group_by`; re-ranks and hands over.
    pub fn set_group_by(&self, group_by: Option<GroupBy>) {
        self.request(|r| {
            r.group_by = Some(group_by);
            r.group_by_toggles = 0;
        });
    }

    /// The config's `[network] include_loopback`; re-ranks and hands over.
    pub fn set_net_include_local(&self, include: bool) {
        self.request(|r| r.net_include_local = Some(include));
    }

    /// Apps instead of processes or back; re-ranks and hands over (the thread logs it).
    pub fn toggle_group_by(&self) {
        self.request(|r| r.group_by_toggles += 1);
    }

    /// Rediscovers the sensors for a changed `[sensors]` table (see
    /// [`Sampler::reconfigure`]) and takes the modules' `readers` from now on.
    pub fn reconfigure(
        &self,
        sensors: &config::Sensors,
        readers: Vec<Box<dyn Reader>>,
        config_notices: Vec<Notice>,
    ) {
        let sensors = sensors.clone();
        self.request(|r| {
            r.sensors = Some((sensors, config_notices));
            r.readers = Some(readers);
        });
    }

    /// Whether samples are taken at all: not while the layout shows nothing of them (no
    /// monitor module, no report in a tooltip). Turned on, a sample comes at once.
    pub fn set_sampling(&self, sampling: bool) {
        self.request(|r| r.sampling = Some(sampling));
    }

    /// The system readings the samples take from now on; with `sample_now`, a sample
    /// at once that has them (a tooltip that needs them just opened).
    pub fn set_wanted(&self, wanted: Wanted, sample_now: bool) {
        self.request(|r| {
            r.wanted = Some(wanted);
            r.sample_now |= sample_now;
        });
    }

    /// What the main loop watches: the hand-over's wake-up and the tick.
    pub fn wakes(&self) -> (Arc<Handover>, Arc<Ticker>) {
        (self.handover.clone(), self.ticker.clone())
    }
}
