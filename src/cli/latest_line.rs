//! `--waybar`'s stdout, written without ever blocking the main loop. When the reader
//! stops reading and the pipe fills, the line in flight is finished later (a reader must
//! never get half a line followed by another) and only the newest line waits behind it:
//! older ones are dropped, as a status bar only ever wants the latest. Meanwhile the main
//! loop goes on serving `ringbar msg` and SIGTERM.

use std::cell::RefCell;
use std::os::fd::BorrowedFd;
use std::rc::{Rc, Weak};

use gtk4::glib::{self, thread_guard::ThreadGuard, ControlFlow, IOCondition, Priority};
use rustix::fs::{fcntl_getfl, fcntl_setfl, fstat, FileType, OFlags};
use rustix::io::Errno;

pub struct LatestLine {
    /// The unsent rest of the line in flight, with its newline.
    pending: RefCell<Vec<u8>>,
    /// The newest line, waiting for the one in flight to go out.
    latest: RefCell<Option<String>>,
    /// Watches stdout for room while something waits.
    watch: RefCell<Option<glib::Source>>,
    on_closed: Box<dyn Fn()>,
    weak: Weak<LatestLine>,
}

fn stdout() -> BorrowedFd<'static> {
    // SAFETY: fd 1 stays open for the life of the process: ringbar never closes it.
    unsafe { BorrowedFd::borrow_raw(libc::STDOUT_FILENO) }
}

impl LatestLine {
    /// Takes over stdout; `on_closed` runs once the reader has gone (EPIPE).
    pub fn new(on_closed: impl Fn() + 'static) -> Rc<LatestLine> {
        make_non_blocking_if_a_pipe();
        Rc::new_cyclic(|weak| LatestLine {
            pending: RefCell::new(Vec::new()),
            latest: RefCell::new(None),
            watch: RefCell::new(None),
            on_closed: Box::new(on_closed),
            weak: weak.clone(),
        })
    }

    /// Writes `line` and a newline now, or as soon as the reader makes room (replacing
    /// any line that was waiting).
    pub fn write(&self, line: String) {
        if self.pending.borrow().is_empty() {
            let mut pending = self.pending.borrow_mut();
            pending.extend_from_slice(line.as_bytes());
            pending.push(b'\n');
        } else {
            *self.latest.borrow_mut() = Some(line);
        }
        self.flush();
    }

    fn flush(&self) {
        loop {
            let written = rustix::io::write(stdout(), &self.pending.borrow());
            match written {
                // Ok(0) only for an empty write; never spin on it.
                Ok(0) | Err(Errno::AGAIN) => {
                    self.watch_for_room();
                    return;
                }
                Ok(n) => {
                    self.pending.borrow_mut().drain(..n);
                    if !self.pending.borrow().is_empty() {
                        continue;
                    }
                    let Some(next) = self.latest.borrow_mut().take() else {
                        self.stop_watching();
                        return;
                    };
                    let mut pending = self.pending.borrow_mut();
                    pending.extend_from_slice(next.as_bytes());
                    pending.push(b'\n');
                }
                Err(Errno::INTR) => {}
                Err(err) => {
                    tracing::info!("stdout closed ({err}): exiting");
                    self.stop_watching();
                    self.pending.borrow_mut().clear();
                    (self.on_closed)();
                    return;
                }
            }
        }
    }

    fn watch_for_room(&self) {
        if self.watch.borrow().is_some() {
            return;
        }
        let weak = ThreadGuard::new(self.weak.clone());
        let condition = IOCondition::OUT | IOCondition::ERR | IOCondition::HUP;
        let source = glib_unix::fd_source_new(
            libc::STDOUT_FILENO,
            condition,
            None,
            Priority::DEFAULT,
            move |_, _| {
                if let Some(out) = weak.get_ref().upgrade() {
                    // This source ends here; `flush` makes a new one if the pipe is full again.
                    out.watch.borrow_mut().take();
                    out.flush();
                }
                ControlFlow::Break
            },
        );
        source.attach(None);
        *self.watch.borrow_mut() = Some(source);
    }

    fn stop_watching(&self) {
        if let Some(source) = self.watch.borrow_mut().take() {
            source.destroy();
        }
    }
}

/// O_NONBLOCK on stdout when it is a pipe or socket (Waybar's case). A terminal or a file
/// is left as it is: its flags are shared with the shell, and neither fills like a pipe.
fn make_non_blocking_if_a_pipe() {
    let fd = stdout();
    let is_pipe = fstat(fd).is_ok_and(|st| {
        matches!(
            FileType::from_raw_mode(st.st_mode),
            FileType::Fifo | FileType::Socket
        )
    });
    if !is_pipe {
        return;
    }
    match fcntl_getfl(fd) {
        Ok(flags) => {
            if let Err(err) = fcntl_setfl(fd, flags | OFlags::NONBLOCK) {
                tracing::warn!("stdout stays blocking: {err}");
            }
        }
        Err(err) => tracing::warn!("stdout stays blocking: {err}"),
    }
}
