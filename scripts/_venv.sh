# Sourced by scripts/demo and scripts/test: make (or refresh) a virtual environment and
# activate it. By default the project's .venv; scripts/test's second pass sets
#   TABLEHUB_VENV=.venv-pi TABLEHUB_CONSTRAINTS=constraints/pi.txt
# for the Raspberry Pi's stack. TABLEHUB_SYSTEM_SITE=1 (set by scripts/demo on a Pi) makes
# the venv with --system-site-packages so it sees apt's picamera2, lgpio and numpy.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${TABLEHUB_VENV:-$ROOT/.venv}"
PY="${PYTHON:-python3}"
CONSTRAINTS="${TABLEHUB_CONSTRAINTS:-}"
if [ ! -x "$VENV/bin/python" ]; then
    venv_opts=()
    if [ "${TABLEHUB_SYSTEM_SITE:-0}" = 1 ]; then venv_opts+=(--system-site-packages); fi
    echo "tablehub: creating virtual environment in $VENV ${venv_opts[*]:-}" >&2
    "$PY" -m venv "${venv_opts[@]}" "$VENV"
elif [ "${TABLEHUB_SYSTEM_SITE:-0}" = 1 ] && grep -qi '^include-system-site-packages *= *false' "$VENV/pyvenv.cfg"; then
    echo "tablehub: $VENV now sees the system's packages (apt's picamera2, lgpio): --system-site-packages" >&2
    "$PY" -m venv --system-site-packages "$VENV"
    rm -f "$VENV/.tablehub-installed"
fi
# Re-install only when pyproject.toml (or the constraints file) changed since the last install.
STAMP="$VENV/.tablehub-installed"
if [ ! -f "$STAMP" ] || [ "$ROOT/pyproject.toml" -nt "$STAMP" ] \
        || { [ -n "$CONSTRAINTS" ] && [ "$CONSTRAINTS" -nt "$STAMP" ]; }; then
    echo "tablehub: installing dependencies into $VENV${CONSTRAINTS:+ (constraints: $CONSTRAINTS)}" >&2
    "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
    "$VENV/bin/python" -m pip install --quiet ${CONSTRAINTS:+--constraint "$CONSTRAINTS"} \
        -e "$ROOT[${TABLEHUB_EXTRAS:-test}]" >&2
    touch "$STAMP"
fi
# shellcheck disable=SC1091
. "$VENV/bin/activate"
cd "$ROOT"
