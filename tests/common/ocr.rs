//! Reading a bar's text from a screenshot with tesseract (Debian's tesseract-ocr).
//!
//! A bar strip is small text, light or dark, on blocks of colour (the bar, its modules).
//! Tesseract reads dark text on white at 20–40 px: each block's background becomes white and
//! ink is the distance from it, so any text on any background turns dark on white; then the
//! strip is scaled up smoothly (nearest-neighbour blocks make `G` read as `6`).

use std::io::Write;
use std::process::Command;

use super::session::Image;

const SCALE: usize = 4;
/// White space around the text, in scaled pixels: tesseract misreads glyphs at an edge.
const MARGIN: usize = 16;

/// The text of a one-line strip (a bar), trimmed.
pub fn read_text(image: &Image) -> String {
    let page = upscale(&ink(image), image.width, image.height);
    let scaled_width = image.width * SCALE;
    let width = scaled_width + 2 * MARGIN;
    let height = image.height * SCALE + 2 * MARGIN;
    let mut pgm = format!("P5\n{width} {height}\n255\n").into_bytes();
    let blank = vec![255; width * MARGIN + MARGIN];
    pgm.extend_from_slice(&blank);
    for (i, row) in page.chunks(scaled_width).enumerate() {
        if i > 0 {
            pgm.extend_from_slice(&blank[..2 * MARGIN]);
        }
        pgm.extend_from_slice(row);
    }
    pgm.extend_from_slice(&blank);
    let mut file = tempfile::Builder::new()
        .suffix(".pgm")
        .tempfile()
        .expect("tempfile");
    file.write_all(&pgm).expect("write PGM");
    file.flush().expect("flush PGM");
    // --psm 7: one line of text. One thread: OpenMP only slows tesseract on small images.
    let out = Command::new("tesseract")
        .arg(file.path())
        .args(["stdout", "--psm", "7"])
        .env("OMP_THREAD_LIMIT", "1")
        .output()
        .expect("run tesseract (apt install tesseract-ocr)");
    assert!(
        out.status.success(),
        "tesseract failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Grey levels: 255 where a pixel is its block's background, darker the more it differs.
/// A block is a run of columns whose top pixel has one colour (a module: text keeps off the
/// strip's edge), and its background is its most common colour.
fn ink(image: &Image) -> Vec<f32> {
    let mut grey = vec![255.0; image.width * image.height];
    let mut start = 0;
    while start < image.width {
        let top = image.pixel(start, 0);
        let end = (start..image.width)
            .find(|&x| image.pixel(x, 0) != top)
            .unwrap_or(image.width);
        let mut colours: Vec<[u8; 3]> = (start..end)
            .flat_map(|x| (0..image.height).map(move |y| (x, y)))
            .map(|(x, y)| image.pixel(x, y))
            .collect();
        colours.sort_unstable();
        let background = colours
            .chunk_by(|a, b| a == b)
            .max_by_key(|run| run.len())
            .map_or(top, |run| run[0]);
        for y in 0..image.height {
            for x in start..end {
                let pixel = image.pixel(x, y);
                let distance = (0..3)
                    .map(|c| pixel[c].abs_diff(background[c]))
                    .max()
                    .unwrap_or(0);
                grey[y * image.width + x] = 255.0 - (f32::from(distance) * 2.0).min(255.0);
            }
        }
        start = end;
    }
    grey
}

/// `SCALE`× bilinear upscaling to bytes.
fn upscale(grey: &[f32], width: usize, height: usize) -> Vec<u8> {
    let at = |x: usize, y: usize| grey[y.min(height - 1) * width + x.min(width - 1)];
    let mut out = Vec::with_capacity(width * height * SCALE * SCALE);
    for row in 0..height * SCALE {
        // Sample centres: scaled pixel `row` covers source row (row + 0.5) / SCALE - 0.5.
        let fy = ((row as f32 + 0.5) / SCALE as f32 - 0.5).max(0.0);
        let (y, wy) = (fy as usize, fy.fract());
        for column in 0..width * SCALE {
            let fx = ((column as f32 + 0.5) / SCALE as f32 - 0.5).max(0.0);
            let (x, wx) = (fx as usize, fx.fract());
            let top = at(x, y) * (1.0 - wx) + at(x + 1, y) * wx;
            let bottom = at(x, y + 1) * (1.0 - wx) + at(x + 1, y + 1) * wx;
            out.push((top * (1.0 - wy) + bottom * wy).round() as u8);
        }
    }
    out
}
