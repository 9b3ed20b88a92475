# Sourced by scripts/test, scripts/play and scripts/serve: make .venv on first
# run and (re)install the project whenever pyproject.toml changes (scripts/_setup.py,
# which scripts/play.py and scripts/test.py use too; no sha256sum, so macOS works).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"${PYTHON:-python3}" scripts/_setup.py
