//! MPRIS players on the session bus, through gio's asynchronous D-Bus on the main loop.
//! The players are the names under `org.mpris.MediaPlayer2.`: listed when the bus is
//! reached, then followed through `NameOwnerChanged`. Each is read with `GetAll` (its
//! identity, its status and metadata), then kept up to date from `PropertiesChanged`,
//! which comes from its unique name. Every call has a timeout: a player that hangs is
//! not waited for. A burst of signals is told once, on the next turn of the main loop.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use gtk4::gio;
use gtk4::glib::prelude::*;
use gtk4::glib::{self, Variant};

use super::properties::apply;
use super::{MediaCommand, MediaState, PlayerAction, Roster, BUS_PREFIX};
use crate::events::bus_watch::{call, tell_next_turn, PROPERTIES};
use crate::events::source::{OnChange, Watch};

const PATH: &str = "/org/mpris/MediaPlayer2";
const ROOT: &str = "org.mpris.MediaPlayer2";
const PLAYER: &str = "org.mpris.MediaPlayer2.Player";
const DBUS: &str = "org.freedesktop.DBus";

struct Inner {
    connection: Option<gio::DBusConnection>,
    state: MediaState,
    roster: Roster,
    /// Calls under way whose answers belong in the first state told.
    pending: usize,
    /// The order the next player to start playing gets.
    next_order: u64,
    signals: Vec<gio::SignalSubscription>,
    queued: Cell<bool>,
    on_change: OnChange<MediaState>,
}

/// Follows the media players; dropping it stops.
pub struct MediaWatch {
    inner: Rc<RefCell<Inner>>,
}

impl Watch<MediaState> for MediaWatch {
    fn start(_: &(), on_change: OnChange<MediaState>) -> Option<MediaWatch> {
        let inner = Rc::new(RefCell::new(Inner {
            connection: None,
            state: MediaState::default(),
            roster: Roster::default(),
            pending: 1, // the list of names
            next_order: 1,
            signals: Vec::new(),
            queued: Cell::new(false),
            on_change,
        }));
        crate::events::bus_watch::connect(
            crate::events::bus_watch::Bus::Session,
            "media",
            &inner,
            connected,
            |inner| (inner.borrow().on_change)(None),
        );
        Some(MediaWatch { inner })
    }

    /// Carries out a click's or a scroll's command on the player shown.
    fn command(&self, command: &MediaCommand) {
        let inner = self.inner.borrow();
        let (Some(connection), Some(player)) =
            (&inner.connection, inner.state.current(&command.ignored))
        else {
            return;
        };
        let (interface, method) = match command.action {
            PlayerAction::PlayPause => (PLAYER, "PlayPause"),
            PlayerAction::Next => (PLAYER, "Next"),
            PlayerAction::Previous => (PLAYER, "Previous"),
            PlayerAction::Raise => (ROOT, "Raise"),
        };
        let name = player.bus_name.clone();
        call(
            connection,
            &player.owner,
            PATH,
            interface,
            method,
            None,
            None,
            move |result| {
                if let Err(err) = result {
                    tracing::warn!("media: {name} did not {method}: {}", err.message());
                }
            },
        );
    }
}

impl Drop for MediaWatch {
    fn drop(&mut self) {
        self.inner.borrow_mut().signals.clear();
    }
}

fn connected(inner_rc: &Rc<RefCell<Inner>>, connection: gio::DBusConnection) {
    let weak = Rc::downgrade(inner_rc);
    let on_owner = weak.clone();
    let owners = connection.subscribe_to_signal(
        Some(DBUS),
        Some(DBUS),
        Some("NameOwnerChanged"),
        Some("/org/freedesktop/DBus"),
        Some(BUS_PREFIX.trim_end_matches('.')),
        gio::DBusSignalFlags::MATCH_ARG0_NAMESPACE,
        move |signal| owner_changed(&on_owner, signal.parameters),
    );
    let on_properties = weak.clone();
    let properties = connection.subscribe_to_signal(
        None,
        Some(PROPERTIES),
        Some("PropertiesChanged"),
        Some(PATH),
        None,
        gio::DBusSignalFlags::NONE,
        move |signal| properties_changed(&on_properties, signal.sender_name, signal.parameters),
    );
    {
        let mut inner = inner_rc.borrow_mut();
        inner.signals = vec![owners, properties];
        inner.connection = Some(connection.clone());
    }
    call(
        &connection,
        DBUS,
        "/org/freedesktop/DBus",
        DBUS,
        "ListNames",
        None,
        Some("(as)"),
        move |result| {
            let Some(inner_rc) = weak.upgrade() else {
                return;
            };
            match result {
                Ok(reply) => {
                    let names = reply.child_value(0);
                    for i in 0..names.n_children() {
                        let name = names.child_value(i);
                        if let Some(name) = name.str().filter(|n| n.starts_with(BUS_PREFIX)) {
                            find_owner(&inner_rc, name);
                        }
                    }
                }
                Err(err) => {
                    tracing::warn!("media: the bus did not list its names: {}", err.message())
                }
            }
            answered(&inner_rc);
        },
    );
}

/// A listed player's unique name, then the player.
fn find_owner(inner_rc: &Rc<RefCell<Inner>>, name: &str) {
    let Some(connection) = inner_rc.borrow().connection.clone() else {
        return;
    };
    inner_rc.borrow_mut().pending += 1;
    let weak = Rc::downgrade(inner_rc);
    let bus_name = name.to_owned();
    call(
        &connection,
        DBUS,
        "/org/freedesktop/DBus",
        DBUS,
        "GetNameOwner",
        Some(&(name,).to_variant()),
        Some("(s)"),
        move |result| {
            let Some(inner_rc) = weak.upgrade() else {
                return;
            };
            if let Ok(reply) = result {
                if let Some(owner) = reply.child_value(0).str() {
                    appeared(&inner_rc, &bus_name, owner);
                }
            }
            answered(&inner_rc);
        },
    );
}

/// `NameOwnerChanged` under `org.mpris.MediaPlayer2`: a player came, went, or changed
/// hands.
fn owner_changed(weak: &Weak<RefCell<Inner>>, args: &Variant) {
    let Some(inner_rc) = weak.upgrade() else {
        return;
    };
    let Some((name, _old, new)) = args.get::<(String, String, String)>() else {
        return;
    };
    if !name.starts_with(BUS_PREFIX) {
        return;
    }
    let promoted = {
        let mut inner = inner_rc.borrow_mut();
        let inner = &mut *inner;
        inner.roster.left(&mut inner.state.players, &name)
    };
    if let Some(owner) = promoted {
        read_player(&inner_rc, &owner);
    }
    if new.is_empty() {
        queue_change(&inner_rc);
    } else {
        appeared(&inner_rc, &name, &new);
    }
}

/// A player is on the bus as `owner`: followed and read, if there is room.
fn appeared(inner_rc: &Rc<RefCell<Inner>>, bus_name: &str, owner: &str) {
    let followed = {
        let mut inner = inner_rc.borrow_mut();
        let inner = &mut *inner;
        inner
            .roster
            .appeared(&mut inner.state.players, bus_name, owner)
    };
    if followed {
        read_player(inner_rc, owner);
    }
}

/// Both of a newly followed player's interfaces.
fn read_player(inner_rc: &Rc<RefCell<Inner>>, owner: &str) {
    read(inner_rc, owner, ROOT);
    read(inner_rc, owner, PLAYER);
}

/// The connection `owner` did not answer (in time): others take its players' places.
fn went_silent(inner_rc: &Rc<RefCell<Inner>>, owner: &str) {
    let promoted = {
        let mut inner = inner_rc.borrow_mut();
        let inner = &mut *inner;
        inner.roster.went_silent(&mut inner.state.players, owner)
    };
    for owner in promoted {
        read_player(inner_rc, &owner);
    }
}

/// `GetAll` of one of a player's interfaces.
fn read(inner_rc: &Rc<RefCell<Inner>>, owner: &str, interface: &'static str) {
    let Some(connection) = inner_rc.borrow().connection.clone() else {
        return;
    };
    inner_rc.borrow_mut().pending += 1;
    let weak = Rc::downgrade(inner_rc);
    let from = owner.to_owned();
    call(
        &connection,
        owner,
        PATH,
        PROPERTIES,
        "GetAll",
        Some(&(interface,).to_variant()),
        Some("(a{sv})"),
        move |result| {
            let Some(inner_rc) = weak.upgrade() else {
                return;
            };
            match result {
                Ok(reply) => {
                    let mut inner = inner_rc.borrow_mut();
                    let inner = &mut *inner;
                    if let Some(player) = inner.state.players.iter_mut().find(|p| p.owner == from) {
                        apply(player, &reply.child_value(0), &mut inner.next_order);
                    }
                }
                Err(err) => {
                    tracing::info!(
                        "media: the player at {from} did not give {interface}: {}",
                        err.message()
                    );
                    // Without its player interface, a name is no player: it gives
                    // up its place (a name that never answers would hold it forever).
                    if interface == PLAYER {
                        went_silent(&inner_rc, &from);
                    }
                }
            }
            answered(&inner_rc);
        },
    );
}

/// `PropertiesChanged` from a player's unique name.
fn properties_changed(weak: &Weak<RefCell<Inner>>, sender: &str, args: &Variant) {
    let Some(inner_rc) = weak.upgrade() else {
        return;
    };
    let Some((interface, changed, invalidated)) =
        args.get::<(String, glib::VariantDict, Vec<String>)>()
    else {
        return;
    };
    if interface != PLAYER && interface != ROOT {
        return;
    }
    let found = {
        let mut inner = inner_rc.borrow_mut();
        let inner = &mut *inner;
        let player = inner.state.players.iter_mut().find(|p| p.owner == sender);
        if let Some(player) = player {
            apply(player, &changed.end(), &mut inner.next_order);
            true
        } else {
            false
        }
    };
    if !found {
        let followed = {
            let mut inner = inner_rc.borrow_mut();
            let inner = &mut *inner;
            inner.roster.spoke(&mut inner.state.players, sender)
        };
        if followed {
            read_player(&inner_rc, sender);
        }
        return;
    }
    if invalidated.is_empty() {
        queue_change(&inner_rc);
    } else {
        let interface = if interface == PLAYER { PLAYER } else { ROOT };
        read(&inner_rc, sender, interface);
    }
}

/// One of the calls the first state waits for has its answer.
fn answered(inner_rc: &Rc<RefCell<Inner>>) {
    {
        let mut inner = inner_rc.borrow_mut();
        inner.pending = inner.pending.saturating_sub(1);
    }
    queue_change(inner_rc);
}

/// One call of `on_change` per burst, on the next turn of the main loop; none before
/// the first reads are in.
fn queue_change(inner_rc: &Rc<RefCell<Inner>>) {
    if inner_rc.borrow().pending > 0 {
        return;
    }
    tell_next_turn(
        inner_rc,
        |inner| &inner.queued,
        |inner| {
            (inner.on_change)(Some(&inner.state));
        },
    );
}
