//! With the `app` feature: compiles the BPF probe and generates its libbpf-rs skeleton
//! into OUT_DIR, and bundles the UI definitions and default style into a GResource. The
//! core alone (`--no-default-features`) needs neither.

fn main() {
    #[cfg(feature = "app")]
    app::build();
}

#[cfg(feature = "app")]
mod app {
    use std::env;
    use std::path::PathBuf;

    use libbpf_cargo::SkeletonBuilder;

    const SOURCE: &str = "bpf/ringbar.bpf.c";

    pub fn build() {
        let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
        let mut builder = SkeletonBuilder::new();
        builder
            .source(SOURCE)
            .clang_args(["-I", "bpf", "-Wall", "-Werror"]);
        // Honour a CLANG override, e.g. CLANG=clang-16.
        if let Some(clang) = env::var_os("CLANG") {
            builder.clang(clang);
        }
        if let Err(err) = builder.build_and_generate(out.join("ringbar.skel.rs")) {
            panic!("building the BPF probe {SOURCE} failed (is clang installed?): {err:#}");
        }
        println!("cargo:rerun-if-env-changed=CLANG");
        // The directory: a file added or changed in it (every header the probe includes).
        println!("cargo:rerun-if-changed=bpf");

        // Emits its own rerun-if-changed lines for every bundled file.
        glib_build_tools::compile_resources(
            &["resources", "ui"],
            "resources/ringbar.gresource.xml",
            "ringbar.gresource",
        );
    }
}
