//! One request per connection, as Hyprland's `.socket.sock` takes them: connect, write
//! the request, read the reply until the compositor closes, all without blocking, with
//! a time limit and a cap on the reply's size. A compositor that keeps a connection for
//! more requests (niri) is told there are none by closing the writing half.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::rc::{Rc, Weak};
use std::time::Duration;

use gtk4::glib::{self, ControlFlow, IOCondition};

use super::io;

/// The longest reply kept: `j/clients` of a few hundred windows is a few hundred KiB.
pub const MAX_REPLY: usize = 16 << 20;
/// A compositor that has not answered by then is taken as busy or hung.
pub const TIMEOUT: Duration = Duration::from_secs(10);

type Done = Box<dyn FnOnce(Result<Vec<u8>, String>)>;

/// The requests under way; dropping it (or [`OneShots::cancel_all`]) abandons them, and
/// their callbacks never run.
#[derive(Default)]
pub struct OneShots {
    me: Weak<OneShots>,
    pending: RefCell<HashMap<u64, Pending>>,
    next: Cell<u64>,
    /// Shut the socket for writing once the request is out.
    half_close: bool,
}

struct Pending {
    socket: UnixStream,
    out: Vec<u8>,
    reply: Vec<u8>,
    watch: glib::Source,
    writing: bool,
    timer: glib::Source,
    done: Option<Done>,
}

impl Drop for Pending {
    fn drop(&mut self) {
        self.watch.destroy();
        self.timer.destroy();
    }
}

impl OneShots {
    pub fn new() -> Rc<OneShots> {
        Rc::new_cyclic(|me| OneShots {
            me: me.clone(),
            ..OneShots::default()
        })
    }

    /// For a compositor that answers each line and closes when the client has no more
    /// to say.
    pub fn half_closing() -> Rc<OneShots> {
        Rc::new_cyclic(|me| OneShots {
            me: me.clone(),
            half_close: true,
            ..OneShots::default()
        })
    }

    /// Sends `request` to the socket at `path`; `done` gets the whole reply, or why
    /// there is none. It always runs later on the main loop, never inside this call.
    pub fn send(
        &self,
        path: &Path,
        request: &[u8],
        done: impl FnOnce(Result<Vec<u8>, String>) + 'static,
    ) {
        let id = self.next.get();
        self.next.set(id + 1);
        let socket = match io::connect(path) {
            Ok(socket) => socket,
            Err(err) => {
                let why = format!("{}: {err}", path.display());
                // Later, like every other outcome: the caller may hold borrows now.
                io::after(Duration::ZERO, move || done(Err(why)));
                return;
            }
        };
        let me = self.me.clone();
        let timer = io::after(TIMEOUT, move || {
            if let Some(shots) = me.upgrade() {
                shots.finish(id, Err("no answer in time".into()));
            }
        });
        let pending = Pending {
            watch: self.watch(&socket, id, IOCondition::OUT),
            socket,
            out: request.to_vec(),
            reply: Vec::new(),
            writing: true,
            timer,
            done: Some(Box::new(done)),
        };
        self.pending.borrow_mut().insert(id, pending);
    }

    pub fn cancel_all(&self) {
        let pending = self.pending.take();
        drop(pending);
    }

    fn watch(&self, socket: &UnixStream, id: u64, condition: IOCondition) -> glib::Source {
        let me = self.me.clone();
        io::watch(socket, condition, move || match me.upgrade() {
            Some(shots) => shots.on_ready(id),
            None => ControlFlow::Break,
        })
    }

    fn on_ready(&self, id: u64) -> ControlFlow {
        let outcome = {
            let mut pending = self.pending.borrow_mut();
            let Some(shot) = pending.get_mut(&id) else {
                return ControlFlow::Break;
            };
            if shot.writing {
                match io::write_available(&mut shot.socket, &mut shot.out) {
                    Err(err) => Some(Err(err.to_string())),
                    Ok(()) if shot.out.is_empty() => {
                        // All written: now wait for the answer.
                        shot.writing = false;
                        if self.half_close {
                            // A peer that is gone shows when the answer is read.
                            let _ = shot.socket.shutdown(std::net::Shutdown::Write);
                        }
                        let old = std::mem::replace(
                            &mut shot.watch,
                            self.watch(&shot.socket, id, IOCondition::IN),
                        );
                        old.destroy();
                        None
                    }
                    Ok(()) => None,
                }
            } else {
                let reply = &mut shot.reply;
                let read = io::read_available(&mut shot.socket, MAX_REPLY, |bytes| {
                    let room = (MAX_REPLY + 1).saturating_sub(reply.len());
                    reply.extend_from_slice(&bytes[..bytes.len().min(room)]);
                });
                match read {
                    Err(err) => Some(Err(err.to_string())),
                    Ok(_) if shot.reply.len() > MAX_REPLY => Some(Err("reply too long".into())),
                    Ok(true) => Some(Ok(std::mem::take(&mut shot.reply))),
                    Ok(false) => None,
                }
            }
        };
        match outcome {
            Some(result) => {
                self.finish(id, result);
                ControlFlow::Break
            }
            None => ControlFlow::Continue,
        }
    }

    fn finish(&self, id: u64, result: Result<Vec<u8>, String>) {
        let Some(mut shot) = self.pending.borrow_mut().remove(&id) else {
            return;
        };
        let done = shot.done.take();
        drop(shot);
        if let Some(done) = done {
            done(result);
        }
    }
}
