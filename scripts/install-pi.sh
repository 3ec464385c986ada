#!/usr/bin/env bash
# Install the table hub on Raspberry Pi OS (Bookworm or later, 64-bit) as a systemd service.
# docs/raspberry-pi.md explains every step and the wiring; usage() below is what --help prints.
set -euo pipefail

SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/_pi.sh
. "$SRC/scripts/_pi.sh"

usage() {
    cat <<'USAGE'
Usage: sudo scripts/install-pi.sh [--prefix DIR] [--hostname NAME] [--no-start] [--dry-run]

Install the table hub on Raspberry Pi OS (Bookworm or later, 64-bit) as the systemd service
"tablehub". Each step is safe to repeat.

  1. apt packages: picamera2, numpy, lgpio and jsonschema from apt, avahi-daemon, sqlite3,
     espeak-ng and alsa-utils (the voice), ...
  2. a system user "tablehub" in the video, gpio and audio groups
  3. the project copied to the prefix, with a venv that sees apt's picamera2 and numpy;
     pip keeps apt's numpy and takes the OpenCV of constraints/pi.txt
  4. /etc/tablehub/{tablehub.toml,pins.toml}, /boot/firmware/tablehub.txt and one
     "include tablehub.txt" line in config.txt, the avahi service, the hostname (and /etc/hosts)
  5. the systemd unit, enabled and started; then `tablehub doctor`

Options:
  --prefix DIR      where the project and its venv go (default /opt/tablehub)
  --hostname NAME   the Pi's host name, so phones open http://NAME.local/ (default tablehub;
                    an empty NAME keeps the current one)
  --no-start        enable the service but do not (re)start it
  --allow-missing   go on without the apt packages the apt sources lack (python3-picamera2 and
                    python3-lgpio come from the Raspberry Pi archive: on plain Debian, as in
                    scripts/rehearse-arm64.sh, the hub then runs without camera and GPIO)
  --dry-run         print the steps without changing anything (no root needed)
  -h, --help        this text

Afterwards reboot once if config.txt was changed. More: docs/raspberry-pi.md
USAGE
}
PREFIX=/opt/tablehub
HOSTNAME_WANTED=tablehub
START=1
DRY=0
ALLOW_MISSING=0
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix|--hostname)
            if [ $# -lt 2 ]; then echo "install-pi.sh: $1 needs a value (see --help)" >&2; exit 2; fi
            if [ "$1" = --prefix ]; then PREFIX="$2"; else HOSTNAME_WANTED="$2"; fi
            shift 2 ;;
        --no-start) START=0; shift ;;
        --dry-run) DRY=1; shift ;;
        --allow-missing) ALLOW_MISSING=1; shift ;;
        -h|--help) usage; exit 0 ;;
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
if [ "$DRY" = 0 ]; then
    missing=()
    for pkg in "${APT_PACKAGES[@]}"; do
        if [ -z "$(apt_version "$pkg")" ]; then missing+=("$pkg"); fi
    done
    if [ ${#missing[@]} -gt 0 ]; then
        if [ "$ALLOW_MISSING" = 0 ]; then
            echo "install-pi.sh: not in the apt sources: ${missing[*]} (python3-picamera2 and python3-lgpio come" \
                 "from the Raspberry Pi archive: is this Raspberry Pi OS? --allow-missing goes on without them)" >&2
            exit 1
        fi
        say "going on without ${missing[*]} (not in the apt sources): no camera or GPIO from apt"
        keep=()
        for pkg in "${APT_PACKAGES[@]}"; do
            case " ${missing[*]} " in *" $pkg "*) ;; *) keep+=("$pkg") ;; esac
        done
        APT_PACKAGES=("${keep[@]}")
    fi
fi
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

say "2/5 user tablehub (groups video, gpio, audio)"
if ! id tablehub >/dev/null 2>&1; then
    run useradd --system --home-dir /var/lib/tablehub --no-create-home --shell /usr/sbin/nologin tablehub
fi
for g in video gpio audio; do
    if getent group "$g" >/dev/null; then run usermod -aG "$g" tablehub; fi
done
# the service's data folder (systemd's StateDirectory makes it too, at the first start: doctor,
# run below, and --no-start need it before)
run install -d -o tablehub -g tablehub -m 0750 /var/lib/tablehub

say "3/5 project in $PREFIX and its venv"
run mkdir -p "$PREFIX"
run rsync -a --delete --exclude .venv --exclude .venv-pi --exclude var --exclude .git --exclude '__pycache__' "$SRC/" "$PREFIX/"
run python3 -m venv --system-site-packages "$PREFIX/.venv"
# pip keeps apt's numpy (python3-picamera2 is built against it: 1.24 on Bookworm, 2.x on Trixie)
# and takes an OpenCV that runs on it: constraints/pi.txt, its numpy line set to apt's version.
CONSTRAINTS="$PREFIX/.pi-constraints.txt"
NUMPY_APT="$(apt_version python3-numpy)"
if [ "$DRY" = 0 ]; then
    pi_constraints "$SRC/constraints/pi.txt" "$NUMPY_APT" > "$CONSTRAINTS"
fi
echo "+ write $CONSTRAINTS (constraints/pi.txt, numpy==${NUMPY_APT:-as written}):" \
    "$(pi_constraints "$SRC/constraints/pi.txt" "$NUMPY_APT" | grep -v '^#' | cut -d' ' -f1 | tr '\n' ' ')"
run "$PREFIX/.venv/bin/pip" install --quiet --constraint "$CONSTRAINTS" -e "$PREFIX"

say "4/5 settings, boot config, avahi, hostname"
run install -d -m 0755 /etc/tablehub
[ -f /etc/tablehub/tablehub.toml ] || run install -m 0644 "$SRC/firmware_config/tablehub.toml" /etc/tablehub/tablehub.toml
run install -m 0644 "$SRC/firmware_config/pins.toml" /etc/tablehub/pins.toml
run install -m 0644 "$SRC/firmware_config/tablehub.txt" "$BOOT/tablehub.txt"
if ! grep -qxF "include tablehub.txt" "$CONFIG_TXT" 2>/dev/null; then
    say "adding '[all]' and 'include tablehub.txt' to $CONFIG_TXT (takes effect after a reboot)"
fi
if [ "$DRY" = 0 ]; then add_boot_include "$CONFIG_TXT"; fi
SETTINGS=/etc/tablehub/tablehub.toml
[ -f "$SETTINGS" ] || SETTINGS="$SRC/firmware_config/tablehub.toml"  # a dry run installs nothing
PORT="$(settings_port "$SETTINGS")"
echo "+ install $SRC/firmware_config/tablehub.avahi.service -> /etc/avahi/services/tablehub.service (port $PORT)"
if [ "$DRY" = 0 ]; then
    install -d -m 0755 /etc/avahi/services
    avahi_service "$SRC/firmware_config/tablehub.avahi.service" "$PORT" > /etc/avahi/services/tablehub.service
fi
if [ -n "$HOSTNAME_WANTED" ] && [ "$(hostname)" != "$HOSTNAME_WANTED" ]; then
    # /etc/hosts first, so that sudo resolves the new name as soon as it is set
    echo "+ /etc/hosts: 127.0.1.1 $HOSTNAME_WANTED"
    if [ "$DRY" = 0 ]; then set_hosts_name /etc/hosts "$HOSTNAME_WANTED"; fi
    if [ -d /run/systemd/system ] || [ "$DRY" = 1 ]; then
        run hostnamectl set-hostname "$HOSTNAME_WANTED"
    else  # no systemd running (a chroot, an image being prepared): the name for the next boot
        echo "+ /etc/hostname: $HOSTNAME_WANTED (systemd is not running here)"
        echo "$HOSTNAME_WANTED" > /etc/hostname
    fi
fi

say "5/5 systemd unit"
UNIT=/etc/systemd/system/tablehub.service
if [ "$DRY" = 0 ]; then
    sed "s#/opt/tablehub#$PREFIX#g" "$SRC/systemd/tablehub.service" > "$UNIT"
else
    echo "+ install $SRC/systemd/tablehub.service -> $UNIT (paths under $PREFIX)"
fi
if [ -d /run/systemd/system ] || [ "$DRY" = 1 ]; then
    run systemctl daemon-reload
    run systemctl enable tablehub.service
    if [ "$START" = 1 ]; then run systemctl restart tablehub.service; fi
else  # a chroot or an image: enabled for the next boot, nothing to start
    say "systemd is not running here: the service is enabled for the next boot, not started"
    run systemctl enable tablehub.service
fi

say "checking (the service holds the camera and the pins, so doctor leaves them out)"
run runuser -u tablehub -- "$PREFIX/.venv/bin/tablehub" doctor --no-camera \
    --config /etc/tablehub/tablehub.toml --data /var/lib/tablehub || true
NAME="${HOSTNAME_WANTED:-$(hostname)}"
if [ "$PORT" = 80 ]; then PAGE="http://$NAME.local/"; else PAGE="http://$NAME.local:$PORT/"; fi
say "done: open $PAGE on a phone; reboot once if config.txt was changed"
