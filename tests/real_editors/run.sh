#!/usr/bin/env bash
# The real-editor suite in one command: installs what it needs (once; later runs reuse it),
# then drives the VS Code extension in code-server through Chromium against the emulator.
# Screenshots land in tests/real_editors/artifacts/screenshots. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
if ! .venv/bin/python -c "import adt, pytest_lsp" 2>/dev/null; then
  .venv/bin/pip install -q -e '.[test]'
fi
.venv/bin/python tests/real_editors/provision.py
ABAP_ADT_REAL_EDITORS=1 exec .venv/bin/python -m pytest tests/real_editors \
  -p no:cacheprovider -n 0 --timeout 900 -v "$@"
