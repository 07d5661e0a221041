//! Following a service on D-Bus, on the main loop. [`BusWatch`] does what every such
//! service needs: it reaches the bus, follows the service's names, subscribes to the
//! signals that change its state, reads the whole state when the service appears, tells
//! one change per burst of signals, says once that the service is absent and again when
//! it is back, and makes every call with the same timeout. A service supplies only its
//! names, its calls and how its answers and signals become its state ([`BusService`]).
//! Services that fit no such mould (media players, which come and go by the dozen) use
//! the same calls ([`calls`]) and connection ([`connect`]).

pub mod calls;
pub mod connect;
pub mod session_bus;
pub mod system_bus;
mod watch;

pub use calls::{call, properties, set_property, tell_next_turn, PROPERTIES};
pub use connect::{connect, Bus};
pub use watch::BusWatch;

use gtk4::gio;
use gtk4::glib::Variant;

use super::EventState;

/// A service on D-Bus whose state a [`BusWatch`] keeps.
pub trait BusService: 'static {
    type State: EventState;
    const BUS: Bus;
    /// The log lines' prefix (`bluetooth`).
    const LOG: &'static str;
    /// The service, as the log names it when it comes back (`BlueZ`)…
    const SERVICE: &'static str;
    /// …and when it is absent (`BlueZ (org.bluez)`).
    const ABSENT: &'static str;
    /// Its bus names, the preferred first; the state comes from the first one that has
    /// an owner.
    const NAMES: &'static [&'static str];

    /// The call that reads the whole state from `NAMES[index]`.
    fn read_call(index: usize) -> Call;

    /// The state, from that call's answer.
    fn parse(index: usize, reply: &Variant) -> Self::State;

    /// The signals of `NAMES[index]` that change the state.
    fn signals(index: usize) -> &'static [Signal];

    /// A signal (one of [`BusService::signals`], from `path`) onto the state; whether
    /// it changed it.
    fn on_signal(state: &mut Self::State, member: &str, path: &str, args: &Variant) -> bool;

    /// A call made each time `NAMES[index]` gets its owner, before the state is read:
    /// systemd sends its signals only to the clients that asked with `Subscribe`.
    fn on_appear(_index: usize) -> Option<Call> {
        None
    }

    /// Whether a signal left the state in need of a whole new read: systemd says how
    /// many units failed, not which.
    fn stale(_state: &Self::State) -> bool {
        false
    }

    /// Objects the state names whose properties it has not read yet (UPower's devices,
    /// as `EnumerateDevices` or `DeviceAdded` names them): each is read with `GetAll`
    /// of [`BusService::OBJECT_INTERFACE`] and given to [`BusService::read_object`].
    /// The state is told once no such read is on its way.
    fn unread(_state: &Self::State) -> Vec<String> {
        Vec::new()
    }

    /// The interface whose properties [`BusService::unread`]'s objects are read for.
    const OBJECT_INTERFACE: &'static str = "";

    /// An object's properties (`a{sv}`) onto the state, or `None` when it could not be
    /// read (it went meanwhile); whether that changed the state.
    fn read_object(_state: &mut Self::State, _path: &str, _properties: Option<&Variant>) -> bool {
        false
    }

    /// Carries out a click's command on the service in use.
    fn command(
        _service: &InUse<'_>,
        _state: &Self::State,
        _command: &<Self::State as EventState>::Command,
    ) {
    }
}

/// A method call on the service's object.
pub struct Call {
    pub path: &'static str,
    pub interface: &'static str,
    pub method: &'static str,
    pub args: Option<Variant>,
    /// The answer's D-Bus signature (`(a{sv})`); another answer is an error.
    pub reply: &'static str,
}

/// A signal of the service: `member` of `interface`, from the object at `path` or any.
pub struct Signal {
    pub interface: &'static str,
    pub member: &'static str,
    pub path: Option<&'static str>,
}

/// The service in use, for a command: the connection and the name that has an owner.
pub struct InUse<'a> {
    pub connection: &'a gio::DBusConnection,
    pub name: &'static str,
    /// Its place in [`BusService::NAMES`].
    pub index: usize,
}

impl InUse<'_> {
    /// Sets `interface`'s `property` of the object at `path`; `failure` is logged if it
    /// fails.
    pub fn set(
        &self,
        (path, interface): (&str, &str),
        property: &str,
        value: Variant,
        failure: String,
    ) {
        set_property(
            self.connection,
            (self.name, path, interface),
            property,
            value,
            failure,
        );
    }
}
