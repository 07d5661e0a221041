#!/usr/bin/env bash
# Installs the Debian package into a clean Debian 12 root and uses it as a user would:
#
#   scripts/deb-test.sh target/deb/ringbar_VERSION_ARCH.deb     (root)
#
# mmdebstrap makes a minimal bookworm with apt and man-db; `apt-get install ./ringbar.deb`
# must pull every dependency from Debian itself. Then: the file capabilities are set,
# `ringbar --once` runs as an ordinary user with the probe loaded (the chroot shares this
# kernel; /proc and /sys are mounted), the packaged config is the one read, each man page
# renders, and purging removes every file the package installed.
set -euo pipefail

deb=$(realpath "${1:?usage: scripts/deb-test.sh PACKAGE.deb}")
tag=deb-test
# shellcheck source=scripts/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
fail() { printf '[deb-test] FAIL: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "run as root (chroot, mounts)"

command -v mmdebstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq mmdebstrap >/dev/null; }

root=$(mktemp -d /var/tmp/ringbar-deb-test.XXXXXX)
cleanup() {
    for d in sys proc; do mountpoint -q "$root/$d" && umount -R "$root/$d"; done
    rm -rf --one-file-system "$root"
}
trap cleanup EXIT

log "a clean Debian 12 root in $root"
mmdebstrap --quiet --variant=apt --include=man-db,ca-certificates bookworm "$root" "$(debian_mirror)"
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

cp "$deb" "$root/tmp/"
log "apt-get install ./$(basename "$deb")"
# mmdebstrap leaves no package lists behind.
in_root apt-get update -q >"$root/tmp/update.log" 2>&1 || { cat "$root/tmp/update.log" >&2; fail "apt-get update"; }
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "/tmp/$(basename "$deb")" >"$root/tmp/install.log" 2>&1 ||
    { cat "$root/tmp/install.log" >&2; fail "the package does not install"; }
installed=$(in_root dpkg-query -L ringbar)

caps=$(in_root getcap /usr/bin/ringbar)
case $caps in
    *cap_perfmon,cap_bpf=ep* | *cap_bpf,cap_perfmon=ep*) log "capabilities: $caps" ;;
    *) fail "no cap_bpf,cap_perfmon on /usr/bin/ringbar: '$caps'" ;;
esac

# The probe service's units are installed, never enabled.
for unit in ringbar-probe.service ringbar-probe.socket; do
    [ -f "$root/usr/lib/systemd/system/$unit" ] || fail "$unit is not installed"
done
if ls "$root"/etc/systemd/system/*.wants/ringbar* >/dev/null 2>&1; then
    fail "the package enabled a unit: $(ls "$root"/etc/systemd/system/*.wants/ringbar*)"
fi
grep -q '^ExecStart=/usr/bin/ringbar-probe$' "$root/usr/lib/systemd/system/ringbar-probe.service" ||
    fail "ringbar-probe.service does not start /usr/bin/ringbar-probe"

in_root useradd --create-home --shell /bin/sh tester
out=$(chroot --userspec=tester:tester "$root" env -i PATH=/usr/bin:/bin HOME=/home/tester \
    ringbar --once --interval-ms 300 2>"$root/tmp/once.err") ||
    { cat "$root/tmp/once.err" >&2; fail "ringbar --once fails as an ordinary user"; }
grep -q '^CPU ' <<<"$out" || fail "no CPU section in ringbar --once: $out"
grep -q 'µs from the BPF probe ·' <<<"$out" ||
    fail "the probe did not load with the package's capabilities: $(cat "$root/tmp/once.err") $out"
log "ringbar --once as tester: $(head -n1 <<<"$out")"
# The plugins: installed, their libraries brought by the package's dependencies, each
# with its own (the sound plugin speaks the PulseAudio protocol itself: neither libpulse
# nor libpipewire), and the bar itself free of them.
for plugin in 'sound:libglib-2.0:libpulse\|libpipewire' video:libpipewire:libpulse; do
    IFS=: read -r name links lacks <<<"$plugin"
    plugin=/usr/lib/ringbar/libringbar_$name.so
    [ -f "$root$plugin" ] || fail "the $name plugin $plugin is not installed"
    libs=$(in_root ldd "$plugin") || fail "ldd $plugin: $libs"
    if grep -q 'not found' <<<"$libs"; then fail "the $name plugin's libraries are missing: $libs"; fi
    grep -q "$links" <<<"$libs" || fail "the $name plugin does not link $links: $libs"
    if grep -q "$lacks" <<<"$libs"; then fail "the $name plugin links $lacks: $libs"; fi
done
# Every plugin installed (a new member's too) finds its libraries.
for plugin in "$root"/usr/lib/ringbar/*.so; do
    libs=$(in_root ldd "${plugin#"$root"}") || fail "ldd $plugin: $libs"
    if grep -q 'not found' <<<"$libs"; then fail "$plugin's libraries are missing: $libs"; fi
done
if in_root ldd /usr/bin/ringbar | grep -E 'libpulse|libpipewire'; then
    fail "/usr/bin/ringbar links the sound libraries itself"
fi
if grep 'plugin cannot be opened' "$root/tmp/once.err"; then fail "the installed bar cannot open a plugin"; fi
check=$(chroot --userspec=tester:tester "$root" env -i PATH=/usr/bin:/bin HOME=/home/tester ringbar check 2>&1) ||
    fail "ringbar check on the packaged config: $check"
grep -q '/etc/xdg/ringbar/config.toml' <<<"$check" || fail "the packaged config is not the one read: $check"

for page in "1 ringbar" "5 ringbar" "8 ringbar-probe"; do
    # shellcheck disable=SC2086
    text=$(in_root env MANWIDTH=80 man -P cat $page 2>&1) || fail "man $page: $text"
    grep -q 'NAME' <<<"$text" || fail "man $page renders no NAME section"
    log "man $page: $(grep -m1 -A1 '^NAME' <<<"$text" | tail -n1 | sed 's/^ *//')"
done

log "apt-get purge ringbar"
in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q ringbar >"$root/tmp/purge.log" 2>&1 ||
    { cat "$root/tmp/purge.log" >&2; fail "the package does not purge"; }
left=()
while read -r path; do
    [ -e "$root$path" ] && [ ! -d "$root$path" ] && left+=("$path")
done <<<"$installed"
[ -e "$root/etc/xdg/ringbar" ] && left+=(/etc/xdg/ringbar)
[ ${#left[@]} -eq 0 ] || fail "left after purge: ${left[*]}"
log "ok: installed, capabilities set, ran as a user, man pages render, purged clean"
