//! An event source as the modules see it: a state type that names its source, the
//! commands the source takes, the settings the listed modules give it, and (with the
//! `app` feature) the client that keeps the state. Nothing here lists the sources: a module names the state it follows
//! ([`EventSource::of`]), the bar starts each source some module follows, and a module finds
//! the state by its type in [`Events`].

use std::any::{Any, TypeId};
use std::fmt;
use std::sync::Arc;

/// The state of an event source; its type is the source's key.
pub trait EventState: Any + Send + Sync + Clone + fmt::Debug + PartialEq {
    /// The source's name, short and unique (`Media`), for logs and the test hook.
    const KEY: &'static str;
    /// What a click asks of the source ([`std::convert::Infallible`] for one that takes
    /// none).
    type Command: Any + Clone + fmt::Debug + PartialEq;
    /// What a module's config tells the source (`()` for one that takes nothing): the
    /// first listed module that gives settings for it ([`SourceSettings`]) sets them, and
    /// the source starts again when they change.
    type Settings: Any + Clone + fmt::Debug + PartialEq + Default;
    /// The client that keeps the state, on the main loop.
    #[cfg(feature = "app")]
    type Watch: Watch<Self>;
}

/// A running client of an event source; dropping it stops it.
#[cfg(feature = "app")]
pub trait Watch<S: EventState>: Sized + 'static {
    /// Starts following the source; `on_change` hears each new state, and `None` while
    /// the service is absent (at least once, so that `--once` need not wait for it).
    /// `None` (after one log line) where the source cannot run at all.
    fn start(settings: &S::Settings, on_change: OnChange<S>) -> Option<Self>;

    /// Carries out a click's command.
    fn command(&self, _command: &S::Command) {}
}

/// What a source's client calls with each new state.
#[cfg(feature = "app")]
pub type OnChange<S> = Box<dyn Fn(Option<&S>)>;

/// An event source, named by the type of its state.
#[derive(Clone, Copy)]
pub struct EventSource {
    key: &'static str,
    type_id: fn() -> TypeId,
    #[cfg(feature = "app")]
    start: running::Start,
}

impl EventSource {
    pub const fn of<S: EventState>() -> EventSource {
        EventSource {
            key: S::KEY,
            type_id: TypeId::of::<S>,
            #[cfg(feature = "app")]
            start: running::start::<S>,
        }
    }
}

impl PartialEq for EventSource {
    fn eq(&self, other: &EventSource) -> bool {
        (self.type_id)() == (other.type_id)()
    }
}

impl Eq for EventSource {}

impl fmt::Debug for EventSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key)
    }
}

/// A click's command for an event source, routed by its source.
pub struct SourceCommand {
    source: EventSource,
    what: Box<dyn AnyValue>,
}

impl SourceCommand {
    /// `what` for the source of `S`.
    pub fn to<S: EventState>(what: S::Command) -> SourceCommand {
        SourceCommand {
            source: EventSource::of::<S>(),
            what: Box::new(what),
        }
    }

    /// The source that carries the command out.
    pub fn source(&self) -> EventSource {
        self.source
    }

    /// The command, if it is for the source of `S`.
    pub fn get<S: EventState>(&self) -> Option<&S::Command> {
        self.what.as_any().downcast_ref()
    }
}

impl Clone for SourceCommand {
    fn clone(&self) -> SourceCommand {
        SourceCommand {
            source: self.source,
            what: self.what.clone_box(),
        }
    }
}

impl PartialEq for SourceCommand {
    fn eq(&self, other: &SourceCommand) -> bool {
        self.source == other.source && self.what.equals(other.what.as_any())
    }
}

impl fmt::Debug for SourceCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} for {}", self.what, self.source.key)
    }
}

/// A module's settings for an event source (the MPD server to ask), by the source's type.
pub struct SourceSettings {
    source: EventSource,
    settings: Box<dyn AnyValue>,
}

impl SourceSettings {
    pub fn of<S: EventState>(settings: S::Settings) -> SourceSettings {
        SourceSettings {
            source: EventSource::of::<S>(),
            settings: Box::new(settings),
        }
    }

    /// The source they are for.
    pub fn source(&self) -> EventSource {
        self.source
    }

    /// The settings, if they are for the source of `S`.
    pub fn get<S: EventState>(&self) -> Option<&S::Settings> {
        self.settings.as_any().downcast_ref()
    }
}

impl Clone for SourceSettings {
    fn clone(&self) -> SourceSettings {
        SourceSettings {
            source: self.source,
            settings: self.settings.clone_box(),
        }
    }
}

impl PartialEq for SourceSettings {
    fn eq(&self, other: &SourceSettings) -> bool {
        self.source == other.source && self.settings.equals(other.settings.as_any())
    }
}

impl fmt::Debug for SourceSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} for {}", self.settings, self.source.key)
    }
}

/// What the event sources last said, by the type of their states; none while a source
/// is not followed or its service is absent.
#[derive(Clone, Debug, Default)]
pub struct Events {
    states: Vec<(TypeId, Arc<dyn AnyValue + Send + Sync>)>,
}

/// No event source: for outputs and tests that follow none.
pub static NO_EVENTS: Events = Events { states: Vec::new() };

impl Events {
    /// The state of `S`'s source, if there is one.
    pub fn get<S: EventState>(&self) -> Option<&S> {
        let key = TypeId::of::<S>();
        let (_, state) = self.states.iter().find(|(k, _)| *k == key)?;
        state.as_any().downcast_ref()
    }

    /// Sets the state of `S`'s source; `None` removes it.
    pub fn set<S: EventState>(&mut self, state: Option<S>) {
        let key = TypeId::of::<S>();
        self.states.retain(|(k, _)| *k != key);
        if let Some(state) = state {
            self.states.push((key, Arc::new(state)));
        }
    }

    /// Forgets what `source` said (it starts again).
    pub fn clear(&mut self, source: EventSource) {
        let key = (source.type_id)();
        self.states.retain(|(k, _)| *k != key);
    }

    /// These events with `state` set (`None`: removed), for tests.
    #[cfg(test)]
    pub fn with<S: EventState>(mut self, state: Option<S>) -> Events {
        self.set(state);
        self
    }
}

/// A value of any type that can be cloned, compared and printed.
trait AnyValue: Any + fmt::Debug {
    fn as_any(&self) -> &dyn Any;
    fn clone_box(&self) -> Box<dyn AnyValue>;
    fn equals(&self, other: &dyn Any) -> bool;
}

impl<T: Any + Clone + fmt::Debug + PartialEq> AnyValue for T {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn clone_box(&self) -> Box<dyn AnyValue> {
        Box::new(self.clone())
    }

    fn equals(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>() == Some(self)
    }
}

#[cfg(feature = "app")]
pub use running::{Changed, Running};

/// Starting a source and handing it commands, the same for every source.
#[cfg(feature = "app")]
mod running {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::{EventState, Events, SourceCommand, SourceSettings, Watch};

    /// What a source calls after it wrote its state into [`Events`].
    pub type Changed = Rc<dyn Fn()>;

    pub(super) type Start =
        fn(Option<&SourceSettings>, &Rc<RefCell<Events>>, Changed) -> Option<Box<dyn Running>>;

    /// A started source, whatever its type; dropping it stops it.
    pub trait Running {
        /// Carries out `command` if it is meant for this source.
        fn command(&self, command: &SourceCommand);
    }

    struct Started<S: EventState>(S::Watch);

    impl<S: EventState> Running for Started<S> {
        fn command(&self, command: &SourceCommand) {
            if let Some(command) = command.get::<S>() {
                self.0.command(command);
            }
        }
    }

    pub(super) fn start<S: EventState>(
        settings: Option<&SourceSettings>,
        events: &Rc<RefCell<Events>>,
        changed: Changed,
    ) -> Option<Box<dyn Running>> {
        let settings = settings.and_then(SourceSettings::get::<S>);
        let events = events.clone();
        let on_change = Box::new(move |state: Option<&S>| {
            events.borrow_mut().set(state.cloned());
            changed();
        });
        let watch = S::Watch::start(settings.unwrap_or(&S::Settings::default()), on_change)?;
        Some(Box::new(Started::<S>(watch)))
    }

    impl super::EventSource {
        /// Starts the source with `settings` (its defaults if `None`); its states go
        /// into `events`, and `changed` is called after each. `None` (after one log
        /// line) when it cannot run at all.
        pub fn start(
            &self,
            settings: Option<&SourceSettings>,
            events: &Rc<RefCell<Events>>,
            changed: Changed,
        ) -> Option<Box<dyn Running>> {
            (self.start)(settings, events, changed)
        }
    }
}

#[cfg(test)]
mod tests;
