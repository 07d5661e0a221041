//! A sensor reading that may be missing or failed, for the hardware and the battery.

/// One sensor value. `Absent` (the machine has no such sensor) shows nothing; `Failed`
/// (the sensor exists but this read failed or gave garbage) shows as `–`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Value<T> {
    #[default]
    Absent,
    Failed,
    Known(T),
}

impl<T: Copy> Value<T> {
    /// A read of a sensor that exists: `None` means it failed.
    pub fn read(value: Option<T>) -> Value<T> {
        value.map_or(Value::Failed, Value::Known)
    }

    pub fn known(self) -> Option<T> {
        match self {
            Value::Known(v) => Some(v),
            _ => None,
        }
    }

    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Value<U> {
        match self {
            Value::Absent => Value::Absent,
            Value::Failed => Value::Failed,
            Value::Known(v) => Value::Known(f(v)),
        }
    }

    pub fn is_absent(self) -> bool {
        matches!(self, Value::Absent)
    }
}
