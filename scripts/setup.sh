#!/usr/bin/env bash
# Installs what the project needs on a fresh machine: redis-server (with apt on Debian/Ubuntu)
# and the npm packages. Safe to run again: it only installs what is missing or out of date.
set -euo pipefail
cd "$(dirname "$0")/.."

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node.js 20 or newer is needed (found: $(node --version 2>/dev/null || echo none))." >&2
  exit 1
fi

if ! command -v redis-server >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
      if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
        echo "setup: redis-server is missing; run as root or install it: apt-get install -y redis-server" >&2
        exit 1
      fi
    fi
    echo "setup: installing redis-server with apt-get"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq redis-server >/dev/null
  elif command -v brew >/dev/null 2>&1; then
    echo "setup: installing redis with Homebrew"
    brew install redis
  else
    echo "setup: redis-server is missing. Install Redis 6.2 or newer so that redis-server is on PATH," >&2
    echo "       or set REDIS_URL to an existing Redis when starting the server." >&2
    exit 1
  fi
fi
echo "setup: $(redis-server --version | cut -d' ' -f1-3)"

# npm ci only when the lock file changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund
fi
