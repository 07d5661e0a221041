use super::*;

#[derive(Clone, Debug, PartialEq)]
struct Volume(u32);

#[derive(Clone, Debug, PartialEq)]
struct Links(Vec<String>);

#[derive(Clone, Copy, Debug, PartialEq)]
enum VolumeCommand {
    Up,
    Down,
}

impl EventState for Volume {
    const KEY: &'static str = "Volume";
    type Command = VolumeCommand;
    /// Where the knob starts.
    type Settings = u32;
    #[cfg(feature = "app")]
    type Watch = Knob;
}

impl EventState for Links {
    const KEY: &'static str = "Links";
    type Command = std::convert::Infallible;
    type Settings = ();
    #[cfg(feature = "app")]
    type Watch = Never;
}

/// A client that cannot start.
#[cfg(feature = "app")]
struct Never;

#[cfg(feature = "app")]
impl<S: EventState> Watch<S> for Never {
    fn start(_: &S::Settings, _: OnChange<S>) -> Option<Never> {
        None
    }
}

/// A volume knob: says where it starts (50 unless set), and moves by 5 a command.
#[cfg(feature = "app")]
struct Knob {
    volume: std::cell::Cell<u32>,
    on_change: OnChange<Volume>,
}

#[cfg(feature = "app")]
impl Watch<Volume> for Knob {
    fn start(settings: &u32, on_change: OnChange<Volume>) -> Option<Knob> {
        let at = if *settings == 0 { 50 } else { *settings };
        on_change(Some(&Volume(at)));
        let volume = std::cell::Cell::new(at);
        Some(Knob { volume, on_change })
    }

    fn command(&self, command: &VolumeCommand) {
        let step: i32 = if *command == VolumeCommand::Up { 5 } else { -5 };
        self.volume
            .set(self.volume.get().saturating_add_signed(step));
        (self.on_change)(Some(&Volume(self.volume.get())));
    }
}

#[cfg(feature = "app")]
#[test]
fn a_started_source_writes_its_state_and_takes_its_commands() {
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;
    let events = Rc::new(RefCell::new(Events::default()));
    let changes = Rc::new(Cell::new(0));
    let counted = changes.clone();
    let changed: Changed = Rc::new(move || counted.set(counted.get() + 1));
    let knob = EventSource::of::<Volume>().start(None, &events, changed.clone());
    let knob = knob.expect("the knob starts");
    assert_eq!(events.borrow().get::<Volume>(), Some(&Volume(50)));
    knob.command(&SourceCommand::to::<Volume>(VolumeCommand::Up));
    knob.command(&SourceCommand::to::<Volume>(VolumeCommand::Up));
    knob.command(&SourceCommand::to::<Volume>(VolumeCommand::Down));
    assert_eq!(events.borrow().get::<Volume>(), Some(&Volume(55)));
    assert_eq!(changes.get(), 4);
    assert!(EventSource::of::<Links>()
        .start(None, &events, changed.clone())
        .is_none());
    // Settings given: the knob starts where they say.
    drop(knob);
    events.borrow_mut().clear(EventSource::of::<Volume>());
    assert_eq!(events.borrow().get::<Volume>(), None);
    let at_20 = SourceSettings::of::<Volume>(20);
    let knob = EventSource::of::<Volume>().start(Some(&at_20), &events, changed);
    assert!(knob.is_some());
    assert_eq!(events.borrow().get::<Volume>(), Some(&Volume(20)));
}

#[test]
fn settings_are_told_apart_by_their_source_and_value() {
    let at_20 = SourceSettings::of::<Volume>(20);
    assert_eq!(at_20.source(), EventSource::of::<Volume>());
    assert_eq!(at_20.get::<Volume>(), Some(&20));
    assert_eq!(at_20.get::<Links>(), None);
    assert_eq!(at_20.clone(), at_20);
    assert_ne!(at_20, SourceSettings::of::<Volume>(30));
    assert_ne!(SourceSettings::of::<Links>(()), at_20);
    assert_eq!(format!("{at_20:?}"), "20 for Volume");
}

#[test]
fn states_are_found_by_their_type_and_replaced_or_removed() {
    let mut events = Events::default().with(Some(Volume(40)));
    assert_eq!(events.get::<Volume>(), Some(&Volume(40)));
    assert_eq!(events.get::<Links>(), None);
    events.set(Some(Links(vec!["eth0".into()])));
    events.set(Some(Volume(55)));
    assert_eq!(events.get::<Volume>(), Some(&Volume(55)));
    assert_eq!(events.get::<Links>(), Some(&Links(vec!["eth0".into()])));
    let copy = events.clone();
    events.set::<Volume>(None);
    assert_eq!(events.get::<Volume>(), None);
    assert_eq!(
        copy.get::<Volume>(),
        Some(&Volume(55)),
        "a clone keeps its own"
    );
    assert_eq!(NO_EVENTS.get::<Links>(), None);
}

#[test]
fn a_command_reaches_only_its_own_source() {
    let up = SourceCommand::to::<Volume>(VolumeCommand::Up);
    assert_eq!(up.source(), EventSource::of::<Volume>());
    assert_ne!(up.source(), EventSource::of::<Links>());
    assert_eq!(up.get::<Volume>(), Some(&VolumeCommand::Up));
    assert_eq!(up.get::<Links>(), None);
    assert_eq!(up.clone(), up);
    assert_ne!(up, SourceCommand::to::<Volume>(VolumeCommand::Down));
    assert_eq!(format!("{up:?}"), "Up for Volume");
    assert_eq!(format!("{:?}", EventSource::of::<Links>()), "Links");
}
