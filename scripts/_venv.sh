# Sourced by scripts/demo and scripts/test: make (or refresh) the project's
# virtual environment in .venv and activate it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${TABLEHUB_VENV:-$ROOT/.venv}"
PY="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
    echo "tablehub: creating virtual environment in $VENV" >&2
    "$PY" -m venv "$VENV"
fi
# Re-install only when pyproject.toml changed since the last install.
STAMP="$VENV/.tablehub-installed"
if [ ! -f "$STAMP" ] || [ "$ROOT/pyproject.toml" -nt "$STAMP" ]; then
    echo "tablehub: installing dependencies into $VENV" >&2
    "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
    "$VENV/bin/python" -m pip install --quiet -e "$ROOT[${TABLEHUB_EXTRAS:-test}]" >&2
    touch "$STAMP"
fi
# shellcheck disable=SC1091
. "$VENV/bin/activate"
cd "$ROOT"
