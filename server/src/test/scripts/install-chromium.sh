#!/usr/bin/env bash
# Installs a headless-capable Chromium for the search page's browser test (UiBrowserTest) when none
# is on this machine: Debian's/Ubuntu's `chromium` package through apt (as root, or with sudo that
# needs no password). Prints the browser's path on success; exits non-zero, saying why, otherwise.
# Quick when a browser is already there: nothing is installed then.
set -euo pipefail

find_browser() {
  for candidate in "${QUARRY_CHROMIUM:-}" chromium chromium-browser google-chrome-stable google-chrome; do
    [ -n "$candidate" ] || continue
    if path=$(command -v "$candidate" 2>/dev/null) && [ -x "$path" ]; then
      echo "$path"
      return 0
    fi
  done
  return 1
}

if find_browser; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "no Chromium found and no apt-get to install one: install Chromium (or Chrome) and put it on PATH, or set QUARRY_CHROMIUM" >&2
  exit 2
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  echo "no Chromium found, and installing it needs root: run 'apt-get install -y chromium' as root, or set QUARRY_CHROMIUM" >&2
  exit 3
fi

export DEBIAN_FRONTEND=noninteractive
echo "installing chromium with apt-get (once per machine)…" >&2
"${as_root[@]}" apt-get update -qq >&2 || true
# Debian names it chromium; older Ubuntu chromium-browser (a snap wrapper there)
if ! "${as_root[@]}" apt-get install -y -qq chromium >&2; then
  "${as_root[@]}" apt-get install -y -qq chromium-browser >&2
fi

if find_browser; then
  exit 0
fi
echo "apt-get finished but no chromium is on PATH" >&2
exit 4
