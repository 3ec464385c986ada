#!/usr/bin/env bash
# Install the table hub on Raspberry Pi OS (Bookworm or later, 64-bit), as a systemd service.
#
#   sudo scripts/install-pi.sh [--prefix /opt/tablehub] [--hostname tablehub] [--no-start] [--dry-run]
#
# What it does (each step is safe to repeat):
#   1. apt packages: python3-picamera2 (camera), python3-numpy, python3-lgpio (Pi 5 GPIO),
#      python3-jsonschema (file formats; pure Python, so pip need not build rpds-py),
#      python3-venv, avahi-daemon (tablehub.local), sqlite3, espeak-ng and alsa-utils (the voice);
#   2. a system user "tablehub" in the video, gpio and audio groups;
#   3. the project copied to the prefix, and a venv made with --system-site-packages so it sees
#      apt's picamera2 and numpy. numpy ABI: apt's picamera2 (and simplejpeg) are built against
#      Debian's numpy 1.x; recent OpenCV wheels require numpy 2. The venv keeps apt's numpy
#      (constraint numpy<2) and takes an OpenCV wheel that runs on numpy 1.x (<4.12);
#      `tablehub doctor` checks the result;
#   4. /etc/tablehub/{tablehub.toml,pins.toml}, /boot/firmware/tablehub.txt plus ONE
#      "include tablehub.txt" line in /boot/firmware/config.txt, the avahi service, the hostname;
#   5. the systemd unit, enabled and started; then `tablehub doctor`.
# docs/raspberry-pi.md explains every step and the wiring.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/opt/tablehub
HOSTNAME_WANTED=tablehub
START=1
DRY=0
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) PREFIX="$2"; shift 2 ;;
        --hostname) HOSTNAME_WANTED="$2"; shift 2 ;;
        --no-start) START=0; shift ;;
        --dry-run) DRY=1; shift ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "install-pi.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

run() {  # print, and run unless --dry-run
    echo "+ $*"
    if [ "$DRY" = 0 ]; then "$@"; fi
}
say() { echo "install-pi.sh: $*"; }

if [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install-pi.sh: run as root (sudo $0)" >&2
    exit 1
fi

BOOT=/boot/firmware
[ -d "$BOOT" ] || BOOT=/boot
CONFIG_TXT="$BOOT/config.txt"
APT_PACKAGES=(python3-picamera2 python3-numpy python3-lgpio python3-jsonschema python3-venv python3-pip avahi-daemon sqlite3
              libcap2-bin rsync espeak-ng alsa-utils)

say "1/5 apt packages"
run apt-get update
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

say "2/5 user tablehub (groups video, gpio, audio)"
if ! id tablehub >/dev/null 2>&1; then
    run useradd --system --home-dir /var/lib/tablehub --no-create-home --shell /usr/sbin/nologin tablehub
fi
for g in video gpio audio; do
    if getent group "$g" >/dev/null; then run usermod -aG "$g" tablehub; fi
done

say "3/5 project in $PREFIX and its venv"
run mkdir -p "$PREFIX"
run rsync -a --delete --exclude .venv --exclude var --exclude .git --exclude '__pycache__' "$SRC/" "$PREFIX/"
run python3 -m venv --system-site-packages "$PREFIX/.venv"
CONSTRAINTS="$PREFIX/.pi-constraints.txt"
if [ "$DRY" = 0 ]; then
    # Keep apt's numpy 1.x (what python3-picamera2 is built against); an OpenCV wheel that runs on it.
    printf 'numpy<2\nopencv-python-headless<4.12\n' > "$CONSTRAINTS"
else
    echo "+ write $CONSTRAINTS: numpy<2, opencv-python-headless<4.12"
fi
run "$PREFIX/.venv/bin/pip" install --quiet --constraint "$CONSTRAINTS" -e "$PREFIX"

say "4/5 settings, boot config, avahi, hostname"
run install -d -m 0755 /etc/tablehub
[ -f /etc/tablehub/tablehub.toml ] || run install -m 0644 "$SRC/firmware_config/tablehub.toml" /etc/tablehub/tablehub.toml
run install -m 0644 "$SRC/firmware_config/pins.toml" /etc/tablehub/pins.toml
run install -m 0644 "$SRC/firmware_config/tablehub.txt" "$BOOT/tablehub.txt"
if ! grep -qxF "include tablehub.txt" "$CONFIG_TXT" 2>/dev/null; then
    say "adding 'include tablehub.txt' to $CONFIG_TXT (takes effect after a reboot)"
    if [ "$DRY" = 0 ]; then printf '\n# tablehub (scripts/install-pi.sh)\ninclude tablehub.txt\n' >> "$CONFIG_TXT"; fi
fi
run install -m 0644 "$SRC/firmware_config/tablehub.avahi.service" /etc/avahi/services/tablehub.service
if [ -n "$HOSTNAME_WANTED" ] && [ "$(hostname)" != "$HOSTNAME_WANTED" ]; then
    run hostnamectl set-hostname "$HOSTNAME_WANTED"
fi

say "5/5 systemd unit"
UNIT=/etc/systemd/system/tablehub.service
if [ "$DRY" = 0 ]; then
    sed "s#/opt/tablehub#$PREFIX#g" "$SRC/systemd/tablehub.service" > "$UNIT"
else
    echo "+ install $SRC/systemd/tablehub.service -> $UNIT (paths under $PREFIX)"
fi
run systemctl daemon-reload
run systemctl enable tablehub.service
if [ "$START" = 1 ]; then run systemctl restart tablehub.service; fi

say "checking (the service holds the camera, so the camera check is skipped here)"
run runuser -u tablehub -- env TABLEHUB_DATA=/var/lib/tablehub "$PREFIX/.venv/bin/tablehub" doctor --no-camera \
    --config /etc/tablehub/tablehub.toml || true
say "done: open http://$HOSTNAME_WANTED.local/ on a phone; reboot once if config.txt was changed"
