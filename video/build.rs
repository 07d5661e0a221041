//! The plugin's SONAME: Debian's tools name a shared object by it.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libringbar_video.so");
}
