//! The MPD event source's client: one connection reads `status` and `currentsong`, then
//! waits in `idle` until MPD says the player, the mixer, the options or the queue
//! changed, and reads again; nothing is polled. While a song plays, the elapsed time moves
//! on by the clock every `playing-interval`, without asking MPD. Without MPD the state is
//! `None` (said in one log line), and a connection is tried every `interval` seconds.
//! Clicks go over a short connection of their own, so the idle one never waits for them.

use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::time::{Duration, Instant};

use gtk4::glib;

use super::connection::Connection;
use super::protocol::{self, Line};
use super::server::{self, Server};
use super::{MpdCommand, MpdServer, MpdState, Playback};
use crate::events::source::{OnChange, Watch};

/// What `idle` waits for: the play state and song, the volume, the options, the queue.
const IDLE: &str = "idle player mixer options playlist";
const READ: &str = "command_list_begin\nstatus\ncurrentsong\ncommand_list_end";

/// Follows MPD; dropping it disconnects.
pub struct MpdWatch {
    shared: Rc<Shared>,
    task: Option<glib::JoinHandle<()>>,
}

struct Shared {
    settings: MpdServer,
    on_change: OnChange<MpdState>,
    /// The state last said (`None`: not connected), with the elapsed time as read and
    /// when it was read.
    last: RefCell<Option<(MpdState, f64, Instant)>>,
    /// Moves the elapsed time on while a song plays.
    ticker: RefCell<Option<glib::SourceId>>,
}

impl Watch<MpdState> for MpdWatch {
    fn start(settings: &MpdServer, on_change: OnChange<MpdState>) -> Option<MpdWatch> {
        let shared = Rc::new(Shared {
            settings: settings.clone(),
            on_change,
            last: RefCell::new(None),
            ticker: RefCell::new(None),
        });
        let task = glib::MainContext::default().spawn_local(follow(shared.clone()));
        Some(MpdWatch {
            shared,
            task: Some(task),
        })
    }

    fn command(&self, command: &MpdCommand) {
        let playback = self
            .shared
            .last
            .borrow()
            .as_ref()
            .map(|(s, _, _)| s.playback);
        let text = match (command, playback) {
            (MpdCommand::PlayPause, Some(Playback::Playing)) => "pause 1",
            (MpdCommand::PlayPause, Some(Playback::Paused)) => "pause 0",
            (MpdCommand::PlayPause, _) => "play",
            (MpdCommand::Stop, _) => "stop",
            (MpdCommand::Next, _) => "next",
            (MpdCommand::Previous, _) => "previous",
        };
        let server = self.shared.server();
        let timeout = self.shared.timeout();
        glib::MainContext::default().spawn_local(async move {
            let sent = async {
                Connection::open(&server, timeout)
                    .await?
                    .command(text)
                    .await
            };
            if let Err(err) = sent.await {
                tracing::warn!("mpd: `{text}` to MPD at {} failed: {err}", server.address);
            }
        });
    }
}

impl Drop for MpdWatch {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
        if let Some(ticker) = self.shared.ticker.take() {
            ticker.remove();
        }
    }
}

impl Shared {
    /// Where MPD is now (a socket may have appeared since the last try).
    fn server(&self) -> Server {
        let s = &self.settings;
        server::find(
            s.server.as_deref(),
            s.port,
            s.password.as_deref(),
            |name| std::env::var(name).ok(),
            |path| path.exists(),
        )
    }

    fn timeout(&self) -> Duration {
        Duration::from_secs(u64::from(self.settings.timeout_s))
    }

    /// A new state read from MPD: said if it changed, and the ticker run while it plays.
    fn read(self: &Rc<Self>, state: MpdState, elapsed: f64) {
        let changed = self.last.borrow().as_ref().map(|(s, _, _)| s) != Some(&state);
        let playing = state.playback == Playback::Playing;
        self.last.replace(Some((state, elapsed, Instant::now())));
        if changed {
            self.say();
        }
        let mut ticker = self.ticker.borrow_mut();
        match (playing, ticker.is_some()) {
            (true, false) => {
                let weak = Rc::downgrade(self);
                let every = Duration::from_millis(u64::from(self.settings.playing_interval_ms));
                *ticker = Some(glib::timeout_add_local(every, move || tick(&weak)));
            }
            (false, true) => ticker.take().expect("a ticker").remove(),
            _ => {}
        }
    }

    /// Not connected: said once, until a connection.
    fn gone(&self, first: bool) {
        if let Some(ticker) = self.ticker.take() {
            ticker.remove();
        }
        if self.last.take().is_some() || first {
            (self.on_change)(None);
        }
    }

    fn say(&self) {
        let last = self.last.borrow();
        (self.on_change)(last.as_ref().map(|(state, _, _)| state));
    }
}

/// The elapsed time by the clock since MPD's reading, said when its second changed.
fn tick(weak: &Weak<Shared>) -> glib::ControlFlow {
    let Some(shared) = weak.upgrade() else {
        return glib::ControlFlow::Break;
    };
    let moved = {
        let mut last = shared.last.borrow_mut();
        let Some((state, elapsed, read_at)) = last.as_mut() else {
            return glib::ControlFlow::Continue;
        };
        let now = *elapsed + read_at.elapsed().as_secs_f64();
        let now = (now as u32).min(state.total_s.max(state.elapsed_s));
        let moved = now != state.elapsed_s;
        state.elapsed_s = now;
        moved
    };
    if moved {
        shared.say();
    }
    glib::ControlFlow::Continue
}

/// Connects, follows MPD while the connection lasts, and tries again every `interval`.
async fn follow(shared: Rc<Shared>) {
    let mut absence_said = false;
    let mut first = true;
    loop {
        let server = shared.server();
        let Err(err) = session(&shared, &server, &mut absence_said).await;
        if !absence_said {
            tracing::info!(
                "mpd: no MPD at {} ({err}); hidden until it answers, tried every {} s",
                server.address,
                shared.settings.reconnect_s
            );
            absence_said = true;
        }
        shared.gone(first);
        first = false;
        let wait = Duration::from_secs(u64::from(shared.settings.reconnect_s));
        glib::timeout_future(wait).await;
    }
}

/// One connection: the state read, then read again after each `idle` answer.
async fn session(
    shared: &Rc<Shared>,
    server: &Server,
    absence_said: &mut bool,
) -> Result<std::convert::Infallible, String> {
    let connection = Connection::open(server, shared.timeout()).await?;
    if *absence_said {
        tracing::info!("mpd: connected to MPD at {}", server.address);
        *absence_said = false;
    }
    loop {
        let lines = connection.command(READ).await?;
        let pairs = lines.iter().filter_map(|line| match protocol::line(line) {
            Line::Pair(key, value) => Some((key, value)),
            _ => None,
        });
        let (state, elapsed) = protocol::state_of(pairs);
        shared.read(state, elapsed);
        connection.send(IDLE).await?;
        connection.reply(false).await?;
    }
}
