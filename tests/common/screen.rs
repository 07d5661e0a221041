//! What the tests see and do on screen: screenshots and a virtual pointer.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use gtk4::gdk_pixbuf::{Colorspace, Pixbuf};

use super::session::*;

/// A `size`×`size` PNG of one colour, written whole and renamed into place (a new
/// modification time, as an editor's save gives), readable by all.
pub fn write_png(path: &Path, size: i32, [r, g, b]: [u8; 3]) {
    let pixbuf = Pixbuf::new(Colorspace::Rgb, false, 8, size, size).expect("a pixbuf");
    pixbuf.fill(u32::from_be_bytes([r, g, b, 255]));
    let tmp = path.with_extension("tmp.png");
    pixbuf.savev(&tmp, "png", &[]).expect("save the PNG");
    fs::rename(&tmp, path).expect("rename the PNG into place");
    let _ = Command::new("chmod").arg("644").arg(path).status();
}

impl Session {
    /// A screenshot of a region of the layout (sway only: weston has no screencopy).
    pub fn screenshot(&self, x: u32, y: u32, w: u32, h: u32) -> Image {
        let out = self
            .as_user("grim")
            .args(["-t", "ppm", "-g", &format!("{x},{y} {w}x{h}"), "-"])
            .output()
            .expect("run grim");
        assert!(
            out.status.success(),
            "grim failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Image::from_ppm(&out.stdout)
    }

    /// How many pixels of `module` on screen are close to `colour` (a 20×20 picture has
    /// 400).
    pub fn pixels_near(&self, bar: &RunningBar, module: &str, colour: [u8; 3]) -> usize {
        let field = bar.laid_out_field(&format!("{module}.bounds"));
        let b: Vec<u32> = field.split(',').filter_map(|n| n.parse().ok()).collect();
        if b.len() != 4 || b[2] == 0 || b[3] == 0 {
            return 0;
        }
        let shot = self.screenshot(b[0], b[1], b[2], b[3]);
        let mut close = 0;
        for y in 0..b[3] as usize {
            for x in 0..b[2] as usize {
                let pixel = shot.pixel(x, y);
                close += usize::from((0..3).all(|i| pixel[i].abs_diff(colour[i]) < 40));
            }
        }
        close
    }

    /// Saves a PNG of a region (for README's screenshot).
    pub fn screenshot_png(&self, geometry: &str, to: &Path) {
        let tmp = self.home().join("shot.png");
        let status = self
            .as_user("grim")
            .args(["-g", geometry])
            .arg(&tmp)
            .status()
            .expect("run grim");
        assert!(status.success(), "grim failed");
        fs::copy(&tmp, to).expect("copy screenshot");
    }

    /// The session's one virtual pointer (sway's): made with the session, kept for its
    /// life. One at a time: a second borrow while one is held panics.
    pub fn pointer(&self) -> std::cell::RefMut<'_, Pointer> {
        std::cell::RefMut::map(self.pointer.borrow_mut(), |pointer| {
            pointer.get_or_insert_with(|| self.spawn_pointer())
        })
    }

    fn spawn_pointer(&self) -> Pointer {
        let helper = std::env::current_exe()
            .expect("test binary path")
            .parent()
            .and_then(Path::parent)
            .expect("target dir")
            .join("examples/virtual_pointer");
        assert!(
            helper.exists(),
            "{} is missing: `cargo test` builds it",
            helper.display()
        );
        let copy = self.path().join("virtual_pointer");
        fs::copy(&helper, &copy).expect("copy helper");
        Pointer::spawn(self.as_user(&copy), (WIDTH, HEIGHT))
    }
}

/// `examples/virtual_keyboard` on a compositor: a keyboard with XKB layouts, held
/// while this lives.
pub struct Keyboard {
    child: Child,
    _stdin: ChildStdin,
}

impl Drop for Keyboard {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Session {
    /// A virtual keyboard with `layouts` (`["us", "de"]`), once the compositor has it.
    pub fn keyboard(&self, layouts: &[&str]) -> Keyboard {
        let helper = std::env::current_exe()
            .expect("test binary path")
            .parent()
            .and_then(Path::parent)
            .expect("target dir")
            .join("examples/virtual_keyboard");
        let copy = self.path().join("virtual_keyboard");
        fs::copy(&helper, &copy).expect("copy helper: `cargo test` builds it");
        let mut child = self
            .as_user(&copy)
            .args(layouts)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("start virtual_keyboard");
        let stdin = child.stdin.take().expect("stdin");
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().expect("stdout")),
            &mut line,
        )
        .expect("read virtual_keyboard");
        assert_eq!(line.trim(), "ready", "virtual_keyboard did not start");
        Keyboard {
            child,
            _stdin: stdin,
        }
    }
}

/// `examples/virtual_pointer` on a compositor: one wlr virtual pointer.
pub struct Pointer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// The output layout's size, for absolute motion.
    layout: (u32, u32),
}

impl Pointer {
    /// Starts the helper by `command` (a Wayland client of the compositor meant).
    pub fn spawn(mut command: Command, layout: (u32, u32)) -> Pointer {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the virtual pointer");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Pointer {
            child,
            stdin,
            stdout,
            layout,
        }
    }

    fn command(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to the pointer helper");
        self.stdin.flush().expect("flush");
        let mut reply = String::new();
        self.stdout.read_line(&mut reply).expect("pointer reply");
        assert_eq!(reply.trim(), "ok", "pointer helper failed on `{line}`");
    }

    pub fn move_to(&mut self, x: u32, y: u32) {
        let (w, h) = self.layout;
        self.command(&format!("move {x} {y} {w} {h}"));
    }

    pub fn click(&mut self, button: &str) {
        self.command(&format!("click {button}"));
    }

    /// One wheel step, `up` or `down`.
    pub fn scroll(&mut self, direction: &str) {
        self.command(&format!("scroll {direction}"));
    }
}

impl Drop for Pointer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An RGB image from `grim -t ppm`.
pub struct Image {
    pub width: usize,
    pub height: usize,
    pixels: Vec<u8>,
}

impl Image {
    pub fn from_ppm(data: &[u8]) -> Image {
        // "P6\n<w> <h>\n255\n" then RGB triples.
        let mut fields = Vec::new();
        let mut at = 0;
        while fields.len() < 4 {
            while data[at].is_ascii_whitespace() {
                at += 1;
            }
            let start = at;
            while !data[at].is_ascii_whitespace() {
                at += 1;
            }
            fields.push(
                std::str::from_utf8(&data[start..at])
                    .expect("ppm header")
                    .to_owned(),
            );
        }
        assert_eq!(fields[0], "P6", "grim -t ppm writes binary PPM");
        let width = fields[1].parse().expect("width");
        let height = fields[2].parse().expect("height");
        let pixels = data[at + 1..].to_vec();
        assert_eq!(pixels.len(), width * height * 3, "PPM size");
        Image {
            width,
            height,
            pixels,
        }
    }

    pub fn pixel(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]]
    }

    /// The image turned a quarter clockwise: text turned a quarter the other way (read
    /// from bottom to top) reads upright again.
    pub fn turned_clockwise(&self) -> Image {
        let (width, height) = (self.height, self.width);
        let mut pixels = Vec::with_capacity(self.pixels.len());
        for y in 0..height {
            for x in 0..width {
                pixels.extend_from_slice(&self.pixel(y, self.height - 1 - x));
            }
        }
        Image {
            width,
            height,
            pixels,
        }
    }

    /// How many pixels in rows `y0..y1` satisfy `test`.
    pub fn count(&self, y0: usize, y1: usize, test: impl Fn([u8; 3]) -> bool) -> usize {
        (y0..y1.min(self.height))
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&(x, y)| test(self.pixel(x, y)))
            .count()
    }
}
