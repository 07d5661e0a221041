//! A Wayland connection of the bar's own, beside GTK's, for a source that follows the
//! compositor's standard protocols (workspaces, the toplevel windows): its socket is
//! watched on the main loop, and what it holds is read and dispatched into the source's
//! state `D` without ever waiting for the compositor.

use std::io::ErrorKind;
use std::os::fd::AsRawFd;
use std::path::Path;

use gtk4::glib::{self, ControlFlow, IOCondition};
use wayland_client::backend::WaylandError;
use wayland_client::protocol::{wl_callback::WlCallback, wl_registry::WlRegistry};
use wayland_client::{Connection, Dispatch, EventQueue};

use super::compositor::io;

pub struct Link<D: 'static> {
    connection: Connection,
    queue: EventQueue<D>,
    watch: glib::Source,
}

impl<D> Link<D>
where
    D: Dispatch<WlRegistry, ()> + Dispatch<WlCallback, ()> + 'static,
{
    /// Connects to the compositor at `path` and asks for its globals, then a
    /// `wl_callback` once they are all in; `on_readable` runs whenever the socket has
    /// something (it should call [`Link::pump`]).
    pub fn open(
        path: &Path,
        on_readable: impl FnMut() -> ControlFlow + 'static,
    ) -> Result<Self, String> {
        let socket = io::connect(path).map_err(|err| err.to_string())?;
        let connection = Connection::from_socket(socket).map_err(|err| err.to_string())?;
        let queue = connection.new_event_queue();
        connection.display().get_registry(&queue.handle(), ());
        connection.display().sync(&queue.handle(), ());
        connection.flush().map_err(|err| err.to_string())?;
        let fd = connection.backend().poll_fd().as_raw_fd();
        let watch = io::watch(&fd, IOCondition::IN, on_readable);
        Ok(Link {
            connection,
            queue,
            watch,
        })
    }

    /// Reads what the socket holds, dispatches it into `state`, and sends the requests
    /// made meanwhile. `Err` when the connection is gone.
    pub fn pump(&mut self, state: &mut D) -> Result<(), String> {
        self.queue
            .dispatch_pending(state)
            .map_err(|err| err.to_string())?;
        if let Some(guard) = self.queue.prepare_read() {
            match guard.read() {
                Ok(_) => {}
                Err(WaylandError::Io(err)) if err.kind() == ErrorKind::WouldBlock => {}
                Err(err) => return Err(err.to_string()),
            }
        }
        self.queue
            .dispatch_pending(state)
            .map_err(|err| err.to_string())?;
        self.flush()
    }

    /// Sends the requests made since the last read.
    pub fn flush(&self) -> Result<(), String> {
        match self.connection.flush() {
            Ok(()) => Ok(()),
            Err(WaylandError::Io(err)) if err.kind() == ErrorKind::WouldBlock => Ok(()),
            Err(err) => Err(err.to_string()),
        }
    }
}

impl<D> Drop for Link<D> {
    fn drop(&mut self) {
        self.watch.destroy();
    }
}
