//! `IconPixmap`: `a(iiay)`, each an ARGB32 image in network byte order. Items send several
//! sizes; the bar wants one near its icon size, as RGBA for a GDK texture.

use thiserror::Error;

/// The largest side accepted: a tray icon is a few dozen pixels; 256 leaves room for
/// HiDPI while bounding a hostile item's memory (256 × 256 × 4 = 256 KiB).
pub const MAX_SIDE: i32 = 256;
/// How many sizes of one icon are looked at.
pub const MAX_CANDIDATES: usize = 16;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum PixmapError {
    #[error("size {0}×{1} is not within 1–{MAX_SIDE}")]
    BadSize(i32, i32),
    #[error("{got} bytes for {width}×{height} (wants {want})")]
    BadLength {
        width: i32,
        height: i32,
        got: usize,
        want: usize,
    },
}

/// A checked image: `width × height` pixels of non-premultiplied RGBA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pixmap {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

fn checked_len(width: i32, height: i32) -> Result<usize, PixmapError> {
    if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
        return Err(PixmapError::BadSize(width, height));
    }
    // Both within 1..=256: no overflow.
    Ok(width as usize * height as usize * 4)
}

impl Pixmap {
    /// Converts one ARGB32 (network byte order) image; its length must match its size.
    pub fn from_argb(width: i32, height: i32, argb: &[u8]) -> Result<Pixmap, PixmapError> {
        let want = checked_len(width, height)?;
        if argb.len() != want {
            return Err(PixmapError::BadLength {
                width,
                height,
                got: argb.len(),
                want,
            });
        }
        let mut rgba = Vec::with_capacity(want);
        for px in argb.chunks_exact(4) {
            rgba.extend_from_slice(&[px[1], px[2], px[3], px[0]]);
        }
        Ok(Pixmap {
            width: width as u32,
            height: height as u32,
            rgba,
        })
    }
}

/// Of the candidates' `(width, height, byte length)`, the index of the one to show at
/// `target` pixels: valid ones only; the smallest at least `target`, else the largest.
pub fn pick(candidates: &[(i32, i32, usize)], target: u32) -> Option<usize> {
    let valid = candidates
        .iter()
        .take(MAX_CANDIDATES)
        .enumerate()
        .filter(|(_, &(w, h, len))| checked_len(w, h).is_ok_and(|want| want == len))
        .map(|(index, &(w, h, _))| (index, w.max(h) as u32));
    let mut best: Option<(usize, u32)> = None;
    for (index, side) in valid {
        best = match best {
            None => Some((index, side)),
            Some((_, best_side)) => {
                let better = if best_side >= target {
                    side >= target && side < best_side
                } else {
                    side > best_side
                };
                if better {
                    Some((index, side))
                } else {
                    best
                }
            }
        };
    }
    best.map(|(index, _)| index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argb_in_network_order_becomes_rgba() {
        let argb = [0xff, 0x10, 0x20, 0x30, 0x80, 0xaa, 0xbb, 0xcc];
        let pixmap = Pixmap::from_argb(2, 1, &argb).expect("valid");
        assert_eq!(
            pixmap.rgba,
            [0x10, 0x20, 0x30, 0xff, 0xaa, 0xbb, 0xcc, 0x80]
        );
        assert_eq!((pixmap.width, pixmap.height), (2, 1));
    }

    #[test]
    fn wrong_lengths_and_sizes_are_refused() {
        assert_eq!(
            Pixmap::from_argb(2, 2, &[0; 15]),
            Err(PixmapError::BadLength {
                width: 2,
                height: 2,
                got: 15,
                want: 16
            })
        );
        assert!(Pixmap::from_argb(2, 2, &[0; 17]).is_err());
        assert_eq!(
            Pixmap::from_argb(0, 4, &[]),
            Err(PixmapError::BadSize(0, 4))
        );
        assert!(Pixmap::from_argb(-1, -1, &[0; 4]).is_err());
        assert!(Pixmap::from_argb(MAX_SIDE + 1, 1, &[]).is_err());
        assert!(Pixmap::from_argb(i32::MAX, i32::MAX, &[]).is_err());
        let side = MAX_SIDE as usize;
        assert!(Pixmap::from_argb(MAX_SIDE, MAX_SIDE, &vec![0; side * side * 4]).is_ok());
    }

    #[test]
    fn picks_the_smallest_size_that_covers_the_target() {
        let sizes = [(16, 16, 1024), (64, 64, 16384), (32, 32, 4096)];
        assert_eq!(pick(&sizes, 22), Some(2));
        assert_eq!(pick(&sizes, 16), Some(0));
        assert_eq!(pick(&sizes, 100), Some(1), "none covers it: the largest");
        let hostile = [(1000, 1000, 4_000_000), (8, 8, 3), (16, 16, 1024)];
        assert_eq!(pick(&hostile, 22), Some(2), "invalid ones are skipped");
        assert_eq!(pick(&[(4, 4, 1)], 22), None);
        assert_eq!(pick(&[], 22), None);
        let many = vec![(16, 16, 1024); MAX_CANDIDATES + 5];
        assert_eq!(pick(&many, 16), Some(0));
        let late = [vec![(0, 0, 0); MAX_CANDIDATES], vec![(16, 16, 1024)]].concat();
        assert_eq!(
            pick(&late, 16),
            None,
            "only the first candidates are looked at"
        );
    }
}
