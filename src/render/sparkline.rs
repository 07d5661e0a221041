//! Unicode block sparklines (`▁▂▃▄▅▆▇█`) for the text outputs' history lines.

/// The eight block heights, lowest first.
pub const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// Appends one block per value, scaled so that `top` is the full block and 0 the lowest;
/// a gap (`None`) is a space. Values above `top` are full blocks, below 0 the lowest.
pub fn write(out: &mut String, values: &[Option<f32>], top: f32) {
    for value in values {
        out.push(match value {
            None => ' ',
            Some(v) => BLOCKS[level(*v, top)],
        });
    }
}

/// The block index of `value` on a 0..=`top` scale: 0 for nothing, 7 for `top`.
fn level(value: f32, top: f32) -> usize {
    if top.is_nan() || value.is_nan() || top <= 0.0 || value <= 0.0 {
        return 0;
    }
    let share = (value / top).min(1.0);
    // The lowest block is 0 to 1/8 of the top, the full block the last eighth.
    ((share * BLOCKS.len() as f32).ceil() as usize).clamp(1, BLOCKS.len()) - 1
}

/// The highest value, for an auto-scaled sparkline (rates); at least `floor`.
pub fn top(values: &[Option<f32>], floor: f32) -> f32 {
    values.iter().flatten().copied().fold(floor, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(values: &[Option<f32>], top: f32) -> String {
        let mut out = String::new();
        write(&mut out, values, top);
        out
    }

    #[test]
    fn percent_scale_from_the_lowest_to_the_full_block() {
        let values: Vec<Option<f32>> = [0.0, 12.5, 12.6, 50.0, 87.6, 100.0, 250.0, -3.0]
            .into_iter()
            .map(Some)
            .collect();
        assert_eq!(line(&values, 100.0), "▁▁▂▄███▁");
    }

    #[test]
    fn gaps_are_spaces_and_a_zero_scale_is_flat() {
        assert_eq!(line(&[Some(1.0), None, Some(2.0)], 2.0), "▄ █");
        assert_eq!(line(&[Some(0.0), Some(0.0)], 0.0), "▁▁");
        assert_eq!(line(&[Some(f32::NAN)], 100.0), "▁");
        assert_eq!(line(&[], 100.0), "");
    }

    #[test]
    fn auto_scale_takes_the_highest_value() {
        let values = [Some(1.0), None, Some(4.0), Some(2.0)];
        assert_eq!(top(&values, 0.5), 4.0);
        assert_eq!(top(&[None], 0.5), 0.5);
        assert_eq!(line(&values, top(&values, 0.5)), "▂ █▄");
    }
}
