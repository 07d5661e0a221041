use std::io::{BufRead, BufReader};

use super::*;

type Seen = Rc<RefCell<Vec<Message>>>;

/// Runs `test` with a fresh runtime dir and a main context of its own as the default.
fn on_own_context(test: impl FnOnce(&Path, &glib::MainContext)) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let context = glib::MainContext::new();
    context
        .with_thread_default(|| test(tmp.path(), &context))
        .expect("context");
}

/// Runs `client` on a thread while `context` serves, until the client is done.
fn serve_while<T: Send + 'static>(
    context: &glib::MainContext,
    client: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (done, result) = std::sync::mpsc::channel();
    let waker = context.clone();
    let thread = std::thread::spawn(move || {
        done.send(client()).expect("report");
        waker.wakeup();
    });
    loop {
        if let Ok(value) = result.try_recv() {
            thread.join().expect("client thread");
            return value;
        }
        context.iteration(true);
    }
}

fn send_served(context: &glib::MainContext, dir: &Path, command: Message) -> usize {
    let dir = dir.to_owned();
    serve_while(context, move || send(&dir, command).expect("send").acted)
}

fn recording(dir: &Path, kind: &str) -> (Server, Seen) {
    let seen = Seen::default();
    let sink = seen.clone();
    let server = Server::start(dir, kind, move |c| sink.borrow_mut().push(c)).expect("start");
    (server, seen)
}

fn exchange(path: &Path, bytes: &[u8]) -> Vec<u8> {
    exchange_on(UnixStream::connect(path).expect("connect"), bytes)
}

fn exchange_on(stream: UnixStream, bytes: &[u8]) -> Vec<u8> {
    (&stream).write_all(bytes).expect("write");
    let mut reply = Vec::new();
    let read = BufReader::new(&stream).read_until(b'\n', &mut reply);
    read.expect("read");
    reply
}

#[test]
fn words_round_trip() {
    for command in Message::ALL {
        assert_eq!(Message::parse(command.word()), Some(command));
    }
    assert_eq!(Message::parse("Reload"), None);
}

#[test]
fn a_command_reaches_one_server_then_two() {
    on_own_context(|dir, context| {
        let (bar, seen) = recording(dir, "bar");
        let mode = |p: &Path| fs::metadata(p).expect("stat").mode() & 0o777;
        assert_eq!(mode(&dir.join("ringbar")), 0o700);
        assert_eq!(mode(bar.path()), 0o600);
        assert_eq!(send_served(context, dir, Message::Reload), 1);
        assert_eq!(*seen.borrow(), [Message::Reload]);

        let (waybar, seen_too) = recording(dir, "waybar");
        assert_eq!(
            send_served(context, dir, Message::Monitor(Request::CycleInterval)),
            2
        );
        assert_eq!(
            *seen.borrow(),
            [Message::Reload, Message::Monitor(Request::CycleInterval)]
        );
        assert_eq!(
            *seen_too.borrow(),
            [Message::Monitor(Request::CycleInterval)]
        );

        let paths = [bar.path().to_owned(), waybar.path().to_owned()];
        drop((bar, waybar));
        assert!(paths.iter().all(|p| !p.exists()), "the files go too");
        assert!(!send(dir, Message::Reload).expect("send").found());
    });
}

#[test]
fn nothing_runs_and_stale_sockets_are_swept() {
    let tmp = tempfile::tempdir().expect("tempdir");
    assert!(!send(tmp.path(), Message::Reload).expect("no dir").found());
    let dir = tmp.path().join("ringbar");
    DirBuilder::new().mode(0o700).create(&dir).expect("mkdir");
    let (stale, unnamed) = (dir.join("bar.4194304.sock"), dir.join("bar.1.socket"));
    drop(UnixListener::bind(&stale).expect("bind"));
    drop(UnixListener::bind(&unnamed).expect("bind"));
    fs::write(dir.join("notes.sock"), "not a socket").expect("write");
    assert!(!send(tmp.path(), Message::Reload).expect("send").found());
    assert!(!stale.exists(), "a dead instance's socket is removed");
    assert!(unnamed.exists() && dir.join("notes.sock").exists());
}

#[test]
fn garbage_and_silent_clients_get_nothing_done() {
    on_own_context(|dir, context| {
        let (bar, seen) = recording(dir, "bar");
        let (path, runtime) = (bar.path().to_owned(), dir.to_owned());
        let replies = serve_while(context, move || {
            let silent = UnixStream::connect(&path).expect("connect");
            let replies = [b"\xff\xfe\n" as &[u8], &[b'r'; 200], b"reboot\n"]
                .map(|bytes| exchange(&path, bytes));
            // The silent client holds its connection, yet the next one is served...
            assert_eq!(send(&runtime, Message::Reload).expect("send").acted, 1);
            // ...and it is dropped after a second, unanswered.
            let patience = Some(Duration::from_secs(3));
            silent.set_read_timeout(patience).expect("timeout");
            assert_eq!((&silent).read(&mut [0; 8]).expect("dropped"), 0);
            // A line that arrives in pieces is put together.
            let slow = UnixStream::connect(&path).expect("connect");
            (&slow).write_all(b"cycle-").expect("write");
            std::thread::sleep(Duration::from_millis(50));
            let rest = exchange_on(slow, b"interval\n");
            assert_eq!(rest, b"ok\n");
            replies
        });
        assert!(replies.iter().all(|r| r == b"error: unknown command\n"));
        assert_eq!(
            *seen.borrow(),
            [Message::Reload, Message::Monitor(Request::CycleInterval)]
        );
        assert!(bar.shared.clients.borrow().is_empty());
    });
}

#[test]
fn another_users_peer_is_not_obeyed() {
    on_own_context(|dir, context| {
        DirBuilder::new()
            .mode(0o700)
            .create(dir.join("ringbar"))
            .expect("mkdir");
        let acted = Rc::new(Cell::new(false));
        let flag = acted.clone();
        let path = dir.join("ringbar/bar.1.sock");
        let someone_else = effective_uid().wrapping_add(1);
        let server = Server::listen(path, someone_else, Box::new(move |_| flag.set(true)));
        let _server = server.expect("listen");
        assert_eq!(send_served(context, dir, Message::Reload), 0);
        assert!(!acted.get());
    });
}

#[test]
fn an_open_directory_is_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("ringbar");
    fs::create_dir(&dir).expect("mkdir");
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).expect("chmod");
    let refused = |result: io::Result<_>| result.err().map(|e| e.kind());
    let denied = Some(ErrorKind::PermissionDenied);
    assert_eq!(
        refused(Server::start(tmp.path(), "bar", |_| {}).map(drop)),
        denied
    );
    assert_eq!(refused(send(tmp.path(), Message::Reload).map(drop)), denied);
}
