#!/usr/bin/env bash
# One entry point for setting up and running ringbar from a checkout.
#
#   scripts/dev.sh run    install what is missing, build, run the main job
#   scripts/dev.sh test   install what is missing, build, run every test
#   scripts/dev.sh check  the fast inner loop: fmt, clippy, the core's unit tests
#   scripts/dev.sh hyprland  only the real-Hyprland stage of `test` (a VM, minutes)
#   scripts/dev.sh labwc  only the real-labwc stage of `test`, Wayfire too (same sid root)
#   scripts/dev.sh deb    build the Debian package (target/deb/ringbar_*.deb, lintian-clean)
#   scripts/dev.sh package  only the package stage of `test`: build it, install it into a
#                         clean Debian 12 root, use it, purge it
#   scripts/dev.sh setup  only install what is missing
#   scripts/dev.sh screenshot  regenerate data/screenshot.png in a headless sway
#   scripts/dev.sh fuzz [SECONDS]  run every fuzz target SECONDS each (default 60)
#   scripts/dev.sh soak [SECONDS [DAILY]]  the soak tests, release build: the probe's
#                         SECONDS (600 by default; the suite runs 60), the whole bar's
#                         DAILY (1800 by default; the suite runs 120)
#   scripts/dev.sh bench  ringbar side by side with a /proc walk, perf and Waybar, and its
#                         main loop's stall on a slow /proc walk (release), into
#                         docs/performance.md
#
# Works as root or through sudo on Debian 12; idempotent. Other distros: install the
# packages named in README.md by hand, the script then only builds and runs.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"

tag=dev
# shellcheck source=scripts/common.sh
. "$here/scripts/common.sh"

# Debian packages the build, the tests and the bar need.
apt_packages=(
    clang llvm make gcc pkg-config libelf-dev zlib1g-dev          # BPF skeleton + libbpf
    libgtk-4-dev                                                  # the bar
    meson ninja-build libwayland-dev wayland-protocols            # gtk4-layer-shell from source
    sway grim weston libcap2-bin                                  # compositor tests (setcap)
    bpftool linux-perf procps util-linux strace                   # tests and benchmarks
    dbus libglib2.0-bin python3-gi gir1.2-ayatanaappindicator3-0.1 # tray tests (bus, items)
    waybar tesseract-ocr fonts-font-awesome                       # Waybar beside ringbar, read by OCR; icons
    gsettings-desktop-schemas                                     # GTK's font settings: without them
                                                                  # text renders so OCR misreads it
    iproute2 iperf3                                               # network tests (netns, traffic)
    e2fsprogs                                                     # disk tests: mkfs.ext4 on a loop device
    pipewire pipewire-pulse wireplumber pulseaudio-utils pulseaudio # audio: real servers (PipeWire, PulseAudio)
    libpipewire-0.3-dev libspa-0.2-dev                            # privacy: PipeWire's video graph
    gstreamer1.0-tools gstreamer1.0-pipewire gstreamer1.0-plugins-base # privacy tests: video nodes
    power-profiles-daemon polkitd gamemode                        # power_profile, gamemode: the real daemons, polkit
    mpv mpv-mpris sox swayidle                                    # media: a real MPRIS player; idle inhibitor
    mpd mpc flac                                                  # mpd: the real daemon, its client, metaflac
    upower umockdev gir1.2-umockdev-1.0                          # upower: the real daemon over umockdev's fake sysfs
    systemd dbus-user-session                                     # systemd-failed-units: real managers (systemd --user)
    locales                                                       # the clock's locale: de_DE.UTF-8 (below)
)

install_apt_packages() {
    command -v apt-get >/dev/null || { log "no apt-get: install the packages listed in README.md yourself"; return; }
    install_missing "${apt_packages[@]}"
}

# shellcheck source=scripts/layer-shell.sh
. "$here/scripts/layer-shell.sh"

install_gtk4_layer_shell() {
    if pkg-config --atleast-version=1.0 gtk4-layer-shell-0 2>/dev/null; then return; fi
    build_gtk4_layer_shell /usr/local shared as_root
    as_root ldconfig
    pkg-config --atleast-version=1.0 gtk4-layer-shell-0 || die "gtk4-layer-shell build did not install a usable library"
}

# Rust comes from rustup (Debian's rustc is too old). Under sudo, use the invoking user's toolchain.
find_cargo() {
    if ! command -v cargo >/dev/null && [ -n "${SUDO_USER:-}" ]; then
        local home
        home=$(getent passwd "$SUDO_USER" | cut -d: -f6)
        [ -x "$home/.cargo/bin/cargo" ] && export PATH="$home/.cargo/bin:$PATH"
        [ -d "$home/.rustup" ] && export RUSTUP_HOME="${RUSTUP_HOME:-$home/.rustup}"
    fi
    command -v cargo >/dev/null || die "cargo not found: install Rust >= 1.92 with rustup"
    rustup component add rustfmt clippy >/dev/null 2>&1 || true
}

# A build made as root through sudo stays usable by the user who ran sudo.
give_back_target() {
    if [ "$(id -u)" -eq 0 ] && [ -n "${SUDO_UID:-}" ] && [ -d target ]; then
        chown -R "$SUDO_UID:$SUDO_GID" target Cargo.lock 2>/dev/null || true
    fi
}

# A language besides the session's, for the clock's `locale` test.
install_test_locale() {
    if locale -a 2>/dev/null | grep -qx 'de_DE.utf8'; then return; fi
    command -v localedef >/dev/null || { log "no localedef: the clock's locale test will say de_DE.UTF-8 is missing"; return; }
    as_root localedef -i de_DE -c -f UTF-8 de_DE.UTF-8
}

setup() {
    install_apt_packages
    install_test_locale
    install_gtk4_layer_shell
    find_cargo
}

# The tests load the real probe and run compositors as a test user: they need root.
# The test suite builds with the test-support feature: the bar's test hook and the
# sensor fixtures, which a release build never contains.
cargo_test_as_root() {
    local profile=()
    if [[ " $* " == *" --release "* ]]; then profile=(--release); fi
    build_plugins "${profile[@]}"
    if [ "$(id -u)" -eq 0 ]; then
        cargo test --locked --features test-support "$@"
    else
        CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="sudo -E" cargo test --locked --features test-support "$@"
    fi
}

# The sessions' helpers (the virtual pointer, test windows) are examples: a whole
# `cargo test` builds them, a `--test` run alone does not.
# (for the profile of a `--release` argument too).
build_test_helpers() {
    cargo build --locked --features test-support --examples "$@"
    build_plugins "$@"
}

# The plugins (the workspace's other members: sound/, video/) are libraries the bar
# opens, beside its executable: no `cargo test` builds them. Their test build shares the
# bar's features.
build_plugins() {
    cargo build --locked --workspace --exclude ringbar --features ringbar/test-support "$@"
}

# The pure core (model, parsers, writers, modules, config) without GTK and libbpf.
check_core() {
    cargo fmt --all -- --check
    cargo clippy -p ringbar --lib --profile test --locked --no-default-features -- -D warnings
    cargo test -p ringbar --lib --locked --no-default-features
}

# The workspaces and window modules on a real Hyprland, and real Wi-Fi and Bluetooth in
# its guest kernel (tests/hyprland.rs): it boots a VM for minutes, so it is ignored by a plain `cargo test` and run here. The test skips
# with a loud warning when the VM cannot be set up (Debian sid moves); a failing check
# fails the stage.
hyprland_stage() {
    local started=$SECONDS status=0
    log "real-Hyprland stage: Hyprland 0.57 in a QEMU VM (several minutes)"
    cargo_test_as_root --test hyprland -- --ignored --exact real_hyprland_end_to_end --nocapture ||
        status=$?
    log "real-Hyprland stage took $((SECONDS - started))s"
    return "$status"
}

# The workspaces, window and taskbar modules on labwc (tests/labwc.rs) and the window and
# taskbar on Wayfire (tests/wayfire.rs): headless, in the sid root the Hyprland stage
# builds (built here if missing). Skips with a loud warning when the root cannot be set
# up; a failing check fails the stage.
labwc_stage() {
    local started=$SECONDS status=0
    log "real-labwc stage: labwc 0.20 and Wayfire 0.10 headless in the sid root"
    cargo_test_as_root --test labwc -- --ignored --nocapture || status=$?
    cargo_test_as_root --test wayfire -- --ignored --nocapture || status=$?
    log "real-labwc stage took $((SECONDS - started))s"
    return "$status"
}

# The Debian package, built and installed into a clean Debian 12 root (scripts/deb-test.sh).
package_stage() {
    local started=$SECONDS deb
    log "package stage: build the .deb, install it into a clean bookworm, use it, purge it"
    deb=$(bash scripts/deb.sh)
    as_root bash scripts/deb-test.sh "$deb"
    log "package stage took $((SECONDS - started))s"
}

run_tests() {
    check_core
    cargo fmt --manifest-path fuzz/Cargo.toml -- --check
    cargo clippy --all-targets --locked --features test-support -- -D warnings
    cargo_test_as_root
    hyprland_stage
    labwc_stage
    package_stage
    fuzz "${RINGBAR_FUZZ_SECONDS:-10}"
}

# cargo-fuzz needs a nightly toolchain (libFuzzer and sanitizers); rustup fetches it.
fuzz() {
    local seconds=$1
    # Missing tools are installed; if that is impossible here (no rustup mirror), the run
    # is skipped with a warning. A crash found by a run that does happen fails.
    if ! cargo +nightly --version >/dev/null 2>&1; then
        log "installing the nightly toolchain for cargo-fuzz"
        if ! rustup toolchain install nightly --profile minimal >/dev/null 2>&1; then
            log "WARNING: no nightly toolchain can be installed: fuzz run skipped"
            return 0
        fi
    fi
    if ! cargo fuzz --version >/dev/null 2>&1; then
        log "installing cargo-fuzz"
        if ! cargo install --locked cargo-fuzz >/dev/null 2>&1; then
            log "WARNING: cargo-fuzz cannot be installed: fuzz run skipped"
            return 0
        fi
    fi
    local target corpus
    for target in $(cargo fuzz list --fuzz-dir fuzz); do
        # New inputs go to a scratch corpus; the committed seeds are only read.
        corpus=$(mktemp -d)
        log "fuzzing $target for ${seconds}s"
        cargo +nightly fuzz run --fuzz-dir fuzz "$target" "$corpus" "fuzz/seeds/$target" -- \
            -max_total_time="$seconds" -print_final_stats=0 2>&1 | tail -n 3
        rm -rf "$corpus"
    done
}

trap give_back_target EXIT
case "${1:-}" in
    setup) setup ;;
    run)
        setup
        cargo build --release --locked
        # The installed form: file capabilities instead of running as root.
        as_root setcap cap_bpf,cap_perfmon+ep target/release/ringbar
        if [ -n "${WAYLAND_DISPLAY:-}" ]; then
            log "starting the bar on $WAYLAND_DISPLAY (Ctrl-C stops it)"
            target/release/ringbar
        else
            log "no WAYLAND_DISPLAY: printing one snapshot instead of starting the bar"
            target/release/ringbar --once
        fi
        ;;
    screenshot)
        setup
        cargo_test_as_root --test bar -- --ignored --exact drawing::screenshot_for_the_readme --nocapture
        ;;
    test)
        setup
        run_tests
        ;;
    check)
        find_cargo
        check_core
        ;;
    hyprland)
        setup
        build_test_helpers
        hyprland_stage
        ;;
    labwc)
        setup
        build_test_helpers
        labwc_stage
        ;;
    deb)
        setup
        bash scripts/deb.sh
        ;;
    package)
        setup
        package_stage
        ;;
    fuzz)
        setup
        fuzz "${2:-60}"
        ;;
    soak)
        setup
        build_test_helpers --release
        RINGBAR_SOAK_SECONDS="${2:-600}" RINGBAR_DAILY_SOAK_SECONDS="${3:-1800}" \
            cargo_test_as_root --release --test soak -- --nocapture --test-threads 1
        ;;
    bench)
        setup
        # Waybar and yambar are the comparisons (setup installs Waybar already, for
        # tests/waybar.rs).
        apt_packages=(waybar yambar)
        install_apt_packages
        build_test_helpers --release
        cargo_test_as_root --release --test bench -- --ignored --exact benchmark --nocapture
        # Publish the report in docs/performance.md, between its bench markers; a run of
        # some sections only writes report-sections.md, and publishes nothing.
        if [ -n "${RINGBAR_BENCH_SECTIONS:-}" ]; then
            log "sections $RINGBAR_BENCH_SECTIONS only: target/bench/report-sections.md; docs/performance.md left as it was"
        else
            awk -v report=target/bench/report.md '
                /<!-- bench:start -->/ { print; while ((getline line < report) > 0) print line; skip = 1; next }
                /<!-- bench:end -->/ { skip = 0 }
                !skip' docs/performance.md >docs/performance.md.new && mv docs/performance.md.new docs/performance.md
            log "docs/performance.md updated from target/bench/report.md"
        fi
        ;;
    *) die "usage: scripts/dev.sh run|test|check|hyprland|labwc|deb|package|setup|screenshot|fuzz [SECONDS]|soak [SECONDS [DAILY]]|bench" ;;
esac
