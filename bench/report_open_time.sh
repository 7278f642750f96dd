#!/usr/bin/env bash
# report.html benchmark: how long a page takes to open in headless Chromium
# (Debian's chromium), measured in the page: performance.now() at the load
# event (the page's script has drawn everything by then), after a forced
# layout, and how many elements the page has. A script is appended to a copy
# of each page; the page itself is never changed.
#   bench/report_open_time.sh [RUNS] REPORT.html...    (RUNS: a number, default 3)
# Runs alternate between the pages (before/after), one Chromium each; the
# load average and UTC time are printed with every figure.
set -euo pipefail
runs=3
if [[ ${1:-} =~ ^[0-9]+$ ]]; then runs=$1; shift; fi
[[ $# -ge 1 ]] || { echo "usage: $0 [RUNS] REPORT.html..." >&2; exit 2; }
work=$(mktemp -d /tmp/lockcheck-open-time.XXXXXX)
trap 'rm -rf "$work"' EXIT
probe='<script>window.addEventListener("load",function(){var t=performance.now();var h=document.body.offsetHeight;var t2=performance.now();var p=document.createElement("pre");p.id="open-timing";p.textContent="load_ms="+Math.round(t)+" layout_ms="+Math.round(t2)+" elements="+document.getElementsByTagName("*").length+" height_px="+h;document.body.appendChild(p);});</script>'
n=0
for page in "$@"; do
  n=$((n + 1))
  python3 - "$page" "$work/page$n.html" "$probe" <<'PY'
import sys
html = open(sys.argv[1], encoding="utf-8").read()
at = html.rfind("</body>")
open(sys.argv[2], "w", encoding="utf-8").write(html[:at] + sys.argv[3] + html[at:])
PY
done
for ((run = 1; run <= runs; run++)); do
  n=0
  for page in "$@"; do
    n=$((n + 1))
    timing=$(timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
      --window-size=1280,900 --user-data-dir="$work/profile" --dump-dom "file://$work/page$n.html" 2>/dev/null |
      grep -o '<pre id="open-timing">[^<]*' | sed 's/.*>//' || true)
    echo "$page: ${timing:-no timing (the page did not load)} bytes=$(stat -c %s "$page")" \
      "$(uptime | sed 's/.*load/load/') $(date -u +%H:%M:%SZ)"
  done
done
