//! A module table's click keys (`on-click`…), taken out of it so that the module reads
//! the rest: every module takes them, whatever its own settings.

use serde::Deserialize;
use toml::de::{DeTable, DeValue, ValueDeserializer};
use toml::Spanned;

use super::rotate::Located;
use crate::modules::Clicks;

/// The click keys of `table`; when they do not read, where they are and why.
pub(super) fn take(table: &mut Spanned<DeValue<'_>>) -> Result<Clicks, Located> {
    let DeValue::Table(keys) = table.get_mut() else {
        return Ok(Clicks::default());
    };
    let mut taken = DeTable::new();
    let mut span: Option<std::ops::Range<usize>> = None;
    for key in Clicks::KEYS {
        if let Some((key, value)) = keys.remove_entry(key) {
            let at = key.span().start.min(value.span().start)..value.span().end;
            span = Some(span.map_or(at.clone(), |s| s.start.min(at.start)..s.end.max(at.end)));
            taken.insert(key, value);
        }
    }
    let Some(span) = span else {
        return Ok(Clicks::default());
    };
    let value = Spanned::new(span.clone(), DeValue::Table(taken));
    Clicks::deserialize(ValueDeserializer::from(value)).map_err(|err| {
        let at = err.span().unwrap_or(span);
        (at, err.message().to_owned())
    })
}
