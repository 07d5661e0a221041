//! Waybar's `max-length`, `min-length` and `align` on any module whose text is a label:
//! at most so many characters shown (the rest ellipsized), at least so many wide, and
//! where the text sits in that width (0 left, 0.5 centre, 1 right); `tooltip = false`, no
//! tooltip; and `cursor`, the pointer's shape over it (`true` a hand, `false` the arrow,
//! or a CSS cursor name). Taken out of the module's table, as `rotate` is; a module that cuts its
//! own text to `max-length` (`media`, `custom/NAME`) or reads `tooltip` keeps that key.

use serde::Deserialize;
use toml::de::{DeValue, ValueDeserializer};
use toml::Spanned;

use super::rotate::Located;

/// How a module's label is sized; `None` leaves GTK's default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabelShape {
    pub max_chars: Option<u16>,
    pub min_chars: Option<u16>,
    pub align: Option<f32>,
    /// `false`: the module shows no tooltip.
    pub tooltip: Option<bool>,
    /// The name of the pointer's shape over the module (`pointer`).
    pub cursor: Option<String>,
    /// Pixels between the tooltip's edge and its text (Waybar's upower
    /// `tooltip-padding`).
    pub tooltip_padding: Option<u16>,
}

/// The shape a module table asks for, taken out of it (`max-length` and `tooltip` only
/// unless the module reads them itself); `None` when it asks for none.
pub(super) fn take(
    table: &mut Spanned<DeValue<'_>>,
    with_max_length: bool,
    with_tooltip: bool,
) -> Option<Result<LabelShape, Located>> {
    let DeValue::Table(keys) = table.get_mut() else {
        return None;
    };
    let asked = |key: &str| keys.contains_key(key);
    let tooltip = with_tooltip && asked("tooltip");
    let max_length = with_max_length && asked("max-length");
    let others = ["min-length", "align", "cursor", "tooltip-padding"];
    if !(others.iter().any(|key| asked(key)) || max_length || tooltip) {
        return None;
    }
    let mut shape = LabelShape::default();
    let read = (|| {
        if with_max_length {
            shape.max_chars = characters(keys.remove("max-length"), "max-length")?;
        }
        shape.min_chars = characters(keys.remove("min-length"), "min-length")?;
        shape.align = alignment(keys.remove("align"))?;
        if tooltip {
            shape.tooltip = flag(keys.remove("tooltip"), "tooltip")?;
        }
        shape.cursor = cursor(keys.remove("cursor"))?;
        shape.tooltip_padding = pixels(keys.remove("tooltip-padding"), "tooltip-padding")?;
        Ok(shape)
    })();
    Some(read)
}

fn characters(value: Option<Spanned<DeValue<'_>>>, key: &str) -> Result<Option<u16>, Located> {
    let Some(value) = value else {
        return Ok(None);
    };
    let span = value.span();
    u16::deserialize(ValueDeserializer::from(value))
        .map(Some)
        .map_err(|err| (span, format!("`{key}`: {} (characters)", err.message())))
}

fn pixels(value: Option<Spanned<DeValue<'_>>>, key: &str) -> Result<Option<u16>, Located> {
    let Some(value) = value else {
        return Ok(None);
    };
    let span = value.span();
    match u16::deserialize(ValueDeserializer::from(value)) {
        Ok(pixels) if pixels <= 256 => Ok(Some(pixels)),
        Ok(pixels) => Err((span, format!("`{key}` {pixels} is more than 256 pixels"))),
        Err(err) => Err((span, format!("`{key}`: {} (pixels)", err.message()))),
    }
}

fn flag(value: Option<Spanned<DeValue<'_>>>, key: &str) -> Result<Option<bool>, Located> {
    let Some(value) = value else {
        return Ok(None);
    };
    let span = value.span();
    bool::deserialize(ValueDeserializer::from(value))
        .map(Some)
        .map_err(|err| (span, format!("`{key}`: {}", err.message())))
}

/// Waybar's `cursor`: `true` the hand (`pointer`), `false` the arrow, or a name.
fn cursor(value: Option<Spanned<DeValue<'_>>>) -> Result<Option<String>, Located> {
    let Some(value) = value else {
        return Ok(None);
    };
    let span = value.span();
    match value.into_inner() {
        DeValue::Boolean(true) => Ok(Some("pointer".to_owned())),
        DeValue::Boolean(false) => Ok(Some("default".to_owned())),
        DeValue::String(name) if !name.trim().is_empty() => Ok(Some(name.trim().to_owned())),
        _ => Err((
            span,
            "`cursor`: true (a hand), false (the arrow) or a cursor's name, such as \"pointer\""
                .to_owned(),
        )),
    }
}

fn alignment(value: Option<Spanned<DeValue<'_>>>) -> Result<Option<f32>, Located> {
    let Some(value) = value else {
        return Ok(None);
    };
    let span = value.span();
    match f64::deserialize(ValueDeserializer::from(value)) {
        Ok(align) if (0.0..=1.0).contains(&align) => Ok(Some(align as f32)),
        Ok(align) => Err((
            span,
            format!("`align` {align} is not from 0 (left) to 1 (right)"),
        )),
        Err(err) => Err((span, format!("`align`: {}", err.message()))),
    }
}
