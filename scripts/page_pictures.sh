#!/usr/bin/env bash
# Makes docs/img/'s pictures of what a reader sees (docs/rendering.md, "Where
# it is read"): the PNG for a 760 px blog column, and the HTML page in the
# system's headless Chromium at a laptop's viewport (1366x660: 768 less the
# browser's chrome) and a phone's (390x844). Run after a build:
#   bash scripts/page_pictures.sh        (PPSIM=/path/to/ppsim to use another)
set -euo pipefail
cd "$(dirname "$0")/.."
PPSIM=${PPSIM:-build/ppsim}
test -x "$PPSIM" || { echo "build ppsim first (bash scripts/setup.sh)" >&2; exit 1; }
command -v chromium >/dev/null || { echo "needs chromium (apt-get install chromium)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scene=examples/zb_vs_1f1b.toml
# A blog column: the frame twice the column's width, its text sized for 760 px.
"$PPSIM" render "$scene" --size 1520x1000 --display-width 760 -o docs/img/zb_vs_1f1b_760.png 2>/dev/null
"$PPSIM" render "$scene" -o "$tmp/page.html" 2>/dev/null
shoot() {  # WIDTH HEIGHT OUT: the page, paused at its last tick
  chromium --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/profile-$1" --hide-scrollbars \
    --window-size="$1,$2" --screenshot="$3" "file://$tmp/page.html#tick=999" >/dev/null 2>&1
}
shoot 1366 660 docs/img/page_1366x660.png
shoot 390 844 docs/img/page_390x844.png
echo "wrote docs/img/zb_vs_1f1b_760.png docs/img/page_1366x660.png docs/img/page_390x844.png" >&2
