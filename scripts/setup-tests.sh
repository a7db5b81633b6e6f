#!/usr/bin/env bash
# What the tests need beyond scripts/setup.sh: a Chromium for the web app's browser tests
# (Debian's `chromium`, driven by playwright-core; Playwright's own browser download is not
# used). Safe to run again. CHROMIUM_PATH names another Chromium to use instead.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${CHROMIUM_PATH:-}" ] || command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if command -v apt-get >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "setup-tests: chromium is missing; run as root or install it: apt-get install -y chromium" >&2
      exit 1
    fi
  fi
  echo "setup-tests: installing chromium with apt-get (for the web app's browser tests)"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
else
  echo "setup-tests: chromium is missing; install Chromium and set CHROMIUM_PATH to its executable" >&2
  exit 1
fi
