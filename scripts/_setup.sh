# Sourced by scripts/test, scripts/play and scripts/serve: make .venv on first
# run and (re)install the project whenever pyproject.toml changes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
py="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "setting up .venv (first run)..." >&2
  "$py" -m venv .venv
fi
stamp=.venv/.seventh-street-installed
want="$(sha256sum pyproject.toml | cut -d' ' -f1)-${SETUP_EXTRAS:-test}"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip >&2 || true
  .venv/bin/python -m pip install --quiet -e ".[${SETUP_EXTRAS:-test}]" >&2
  echo "$want" > "$stamp"
fi
