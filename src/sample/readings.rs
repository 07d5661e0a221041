//! Readings a module owns. A module with data of its own (`disk`) declares a [`Reader`]
//! through `Module::reader`; the sampler takes every
//! reader of the layout's modules each tick on the sampling thread, and the values travel
//! in the sample, under the module's name, to every output. The report (tooltip, `--once`)
//! and the JSON document iterate over them: no code outside the module names its reading.

use std::any::Any;
use std::fmt;
use std::path::PathBuf;

use serde_json::{Map, Value as Json};

use crate::text::Sink;

/// Where readers find the system's files: `/sys` and `/proc` on a real machine, fake trees
/// in tests.
#[derive(Clone, Debug)]
pub struct Roots {
    pub sys: PathBuf,
    pub proc: PathBuf,
}

impl Roots {
    pub fn system() -> Roots {
        Roots {
            sys: PathBuf::from("/sys"),
            proc: PathBuf::from("/proc"),
        }
    }
}

/// One sample's value of a module's reading.
pub trait Reading: Any + Send + fmt::Debug {
    fn boxed_clone(&self) -> Box<dyn Reading>;
    /// Becomes `other`, a value of the same reader; allocates nothing once warm.
    fn copy_from(&mut self, other: &dyn Reading);
    /// Its section of the monitor's report (the tooltip, `--once`); none by default.
    fn write_report(&self, _sink: &mut dyn Sink) {}
    /// Its value in the JSON document, under its module's name.
    fn json(&self) -> Json;
    /// Puts its value into the JSON `document`: [`Reading::json`] under `key` (its
    /// module's name), unless the reading has more keys to fill.
    fn write_json(&self, key: &str, document: &mut Map<String, Json>) {
        document.insert(key.to_owned(), self.json());
    }
}

/// Copies `other` into `this` when it holds the same type: the body of
/// [`Reading::copy_from`] for a value whose `clone_from` reuses its buffers.
pub fn copy_same<T: Reading + Clone>(this: &mut T, other: &dyn Reading) {
    if let Some(other) = (other as &dyn Any).downcast_ref::<T>() {
        this.clone_from(other);
    }
}

/// Takes a reading on the sampling thread.
pub trait Reader: Send {
    /// Its module's name as listed (`disk`, `disk#home`): the reading's key in the sample
    /// and the JSON document.
    fn key(&self) -> &str;
    /// The value before the first read.
    fn empty(&self) -> Box<dyn Reading>;
    /// Reads into `out` (made by [`Reader::empty`]); allocates nothing once warm.
    fn read(&mut self, now_ns: u64, out: &mut dyn Reading);
    /// Whether it is read only while the monitor's report shows (see [`WhileShown`]).
    fn only_while_shown(&self) -> bool {
        false
    }
}

/// The reader of a report section whose module is not listed (the tooltip's pressure
/// line without the `pressure` module): read only while a monitor tooltip shows, and by
/// the text outputs. What is not read keeps its last value.
pub struct WhileShown(pub Box<dyn Reader>);

impl Reader for WhileShown {
    fn key(&self) -> &str {
        self.0.key()
    }
    fn empty(&self) -> Box<dyn Reading> {
        self.0.empty()
    }
    fn read(&mut self, now_ns: u64, out: &mut dyn Reading) {
        self.0.read(now_ns, out);
    }
    fn only_while_shown(&self) -> bool {
        true
    }
}

/// Downcasts a reader's own value; `None` for another reader's.
pub fn value_mut<T: Reading>(out: &mut dyn Reading) -> Option<&mut T> {
    (out as &mut dyn Any).downcast_mut::<T>()
}

/// The readings of one sample, in the layout's order, one per module name.
#[derive(Debug, Default)]
pub struct Readings(Vec<(Box<str>, Box<dyn Reading>)>);

impl Readings {
    /// Empty values for `readers`.
    pub fn of(readers: &[Box<dyn Reader>]) -> Readings {
        Readings(
            readers
                .iter()
                .map(|r| (r.key().into(), r.empty()))
                .collect(),
        )
    }

    /// The value of the reading `key`, if the sample has it and it is a `T`.
    pub fn get<T: Reading>(&self, key: &str) -> Option<&T> {
        let (_, value) = self.0.iter().find(|(k, _)| **k == *key)?;
        (value.as_ref() as &dyn Any).downcast_ref::<T>()
    }

    /// Puts `value` in as the reading `key`: a sample made by hand.
    #[cfg(any(test, feature = "test-support"))]
    pub fn insert(&mut self, key: &str, value: Box<dyn Reading>) {
        self.0.retain(|(k, _)| **k != *key);
        self.0.push((key.into(), value));
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &dyn Reading)> {
        self.0.iter().map(|(key, value)| (&**key, value.as_ref()))
    }

    /// Reads each of `readers` (the ones these values were made for) into its value;
    /// those [only while shown](Reader::only_while_shown) only if `report_shown`.
    pub fn read(&mut self, readers: &mut [Box<dyn Reader>], now_ns: u64, report_shown: bool) {
        for (reader, (_, value)) in readers.iter_mut().zip(&mut self.0) {
            if report_shown || !reader.only_while_shown() {
                reader.read(now_ns, value.as_mut());
            }
        }
    }

    fn same_keys(&self, other: &Readings) -> bool {
        self.0.len() == other.0.len() && self.0.iter().zip(&other.0).all(|(a, b)| a.0 == b.0)
    }
}

impl Clone for Readings {
    fn clone(&self) -> Self {
        Readings(
            self.0
                .iter()
                .map(|(key, value)| (key.clone(), value.boxed_clone()))
                .collect(),
        )
    }

    /// Copies value by value while the readers are the same ones (every tick).
    fn clone_from(&mut self, source: &Self) {
        if !self.same_keys(source) {
            *self = source.clone();
            return;
        }
        for ((_, value), (_, from)) in self.0.iter_mut().zip(&source.0) {
            value.copy_from(from.as_ref());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, PartialEq)]
    struct Count(Vec<u64>);

    // By hand: a derived `clone_from` clones whole and allocates.
    impl Clone for Count {
        fn clone(&self) -> Self {
            Count(self.0.clone())
        }
        fn clone_from(&mut self, source: &Self) {
            self.0.clone_from(&source.0);
        }
    }

    impl Reading for Count {
        fn boxed_clone(&self) -> Box<dyn Reading> {
            Box::new(self.clone())
        }
        fn copy_from(&mut self, other: &dyn Reading) {
            copy_same(self, other);
        }
        fn json(&self) -> Json {
            Json::from(self.0.clone())
        }
    }

    struct Counter(&'static str);

    impl Reader for Counter {
        fn key(&self) -> &str {
            self.0
        }
        fn empty(&self) -> Box<dyn Reading> {
            Box::new(Count::default())
        }
        fn read(&mut self, now_ns: u64, out: &mut dyn Reading) {
            let count = value_mut::<Count>(out).expect("its own value");
            count.0.clear();
            count.0.push(now_ns);
        }
    }

    #[test]
    fn values_follow_their_readers_and_copy_in_place() {
        let mut readers: Vec<Box<dyn Reader>> =
            vec![Box::new(Counter("a")), Box::new(Counter("b"))];
        let mut taken = Readings::of(&readers);
        taken.read(&mut readers, 7, true);
        let mut copy = Readings::default();
        copy.clone_from(&taken);
        assert_eq!(copy.get::<Count>("b"), Some(&Count(vec![7])));
        taken.read(&mut readers, 9, true);
        let before = copy.get::<Count>("a").expect("a").0.as_ptr();
        copy.clone_from(&taken);
        let after = copy.get::<Count>("a").expect("a");
        assert_eq!(after, &Count(vec![9]));
        assert_eq!(after.0.as_ptr(), before, "the same buffer, reused");
        assert!(copy.get::<Count>("c").is_none());
        let keys: Vec<_> = copy.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["a", "b"]);
    }

    #[test]
    fn a_reader_only_while_shown_waits_for_the_report() {
        let mut readers: Vec<Box<dyn Reader>> = vec![
            Box::new(Counter("a")),
            Box::new(WhileShown(Box::new(Counter("b")))),
        ];
        assert!(!readers[0].only_while_shown() && readers[1].only_while_shown());
        let mut taken = Readings::of(&readers);
        let values = |taken: &Readings| {
            let value = |key| taken.get::<Count>(key).expect("a value").0.clone();
            (value("a"), value("b"))
        };
        taken.read(&mut readers, 7, false);
        assert_eq!(values(&taken), (vec![7], vec![]));
        taken.read(&mut readers, 9, true);
        assert_eq!(values(&taken), (vec![9], vec![9]));
        taken.read(&mut readers, 11, false);
        assert_eq!(values(&taken), (vec![11], vec![9]), "kept while not shown");
    }
}
