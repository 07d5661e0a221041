//! One connection to MPD through gio's async sockets, on the main loop: opened (the
//! greeting checked, the password sent), then commands and their replies. Each wait has
//! the `timeout`, except `idle`'s, which lasts until MPD has news (MPD does not time out a
//! client in `idle`; TCP keepalive finds a peer that is gone).

use std::future::Future;
use std::time::Duration;

use gtk4::gio::{self, prelude::*};
use gtk4::glib;

use super::protocol::{self, Line};
use super::server::{Address, Server};

/// A reply longer than this (lines) is cut: `status` and `currentsong` are ~40.
const MAX_REPLY_LINES: usize = 512;

pub struct Connection {
    input: gio::DataInputStream,
    output: gio::OutputStream,
    timeout: Duration,
    // Kept open while the streams are used.
    _connection: gio::SocketConnection,
}

impl Connection {
    pub async fn open(server: &Server, timeout: Duration) -> Result<Connection, String> {
        let connectable: gio::SocketConnectable = match &server.address {
            Address::Tcp { host, port } => gio::NetworkAddress::new(host, *port).upcast(),
            Address::Unix(path) => gio::UnixSocketAddress::new(path).upcast(),
            Address::Abstract(name) => {
                let path = gio::prelude::UnixSocketAddressPath::Abstract(name.as_bytes());
                gio::UnixSocketAddress::with_type(path).upcast()
            }
        };
        let client = gio::SocketClient::new();
        let connection = within(timeout, client.connect_future(&connectable))
            .await?
            .map_err(|e| e.message().to_owned())?;
        if matches!(server.address, Address::Tcp { .. }) {
            connection.socket().set_keepalive(true);
        }
        let input = gio::DataInputStream::new(&connection.input_stream());
        input.set_newline_type(gio::DataStreamNewlineType::Lf);
        let output = connection.output_stream();
        let connection = Connection {
            input,
            output,
            timeout,
            _connection: connection,
        };
        let greeting = connection.line(true).await?;
        if protocol::greeting(&greeting).is_none() {
            let said: String = crate::text::shown(&greeting, '?').take(64).collect();
            return Err(format!("it is not MPD (it said {said:?})"));
        }
        if let Some(password) = &server.password {
            let command = format!("password {}", protocol::quoted(password));
            connection.command(&command).await?;
        }
        Ok(connection)
    }

    /// Sends `command` (one line, or a command list) and reads its reply.
    pub async fn command(&self, command: &str) -> Result<Vec<String>, String> {
        self.send(command).await?;
        self.reply(true).await
    }

    /// Sends `text` and a newline.
    pub async fn send(&self, text: &str) -> Result<(), String> {
        let bytes = format!("{text}\n").into_bytes();
        let written = self.output.write_all_future(bytes, glib::Priority::DEFAULT);
        within(self.timeout, written)
            .await?
            .map(|_| ())
            .map_err(|(_, e)| e.message().to_owned())
    }

    /// The lines of a reply up to its `OK`; an `ACK` is the error. `timed`: within the
    /// timeout, else as long as it takes (`idle`).
    pub async fn reply(&self, timed: bool) -> Result<Vec<String>, String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line(timed).await?;
            match protocol::line(&line) {
                Line::Ok => return Ok(lines),
                Line::Ack(message) => return Err(format!("MPD refused: {message}")),
                Line::Pair(..) | Line::Other if lines.len() < MAX_REPLY_LINES => lines.push(line),
                Line::Pair(..) | Line::Other => {}
            }
        }
    }

    async fn line(&self, timed: bool) -> Result<String, String> {
        let read = self.input.read_line_future(glib::Priority::DEFAULT);
        let read = match timed {
            true => within(self.timeout, read).await?,
            false => read.await,
        };
        match read {
            Ok(Some(bytes)) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
            Ok(None) => Err("MPD closed the connection".to_owned()),
            Err(err) => Err(err.message().to_owned()),
        }
    }
}

/// `future`, or an error once `timeout` has passed.
async fn within<T>(timeout: Duration, future: impl Future<Output = T>) -> Result<T, String> {
    glib::future_with_timeout(timeout, future)
        .await
        .map_err(|_| format!("no answer within {} s", timeout.as_secs()))
}
