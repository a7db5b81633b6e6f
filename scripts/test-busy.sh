#!/usr/bin/env bash
# The test suite's two jest passes (one Redis, then a Redis Cluster, as `npm test` runs them) on
# a machine kept busy by two CPU burners: stress-ng --cpu 2 when installed, else two node busy
# loops. A test that passes only on an idle machine fails here. The burners are stopped when this
# script ends, however it ends. Arguments go to both jest runs (a test file, -t, --maxWorkers=1).
set -uo pipefail
cd "$(dirname "$0")/.."

npm run build || exit 1

burners=()
jest_pid=""
stop_all() {
  # jest runs in a process group of its own (set -m below): its workers and servers go with it.
  if [ -n "$jest_pid" ]; then kill -TERM -- "-$jest_pid" 2>/dev/null; fi
  for pid in "${burners[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${burners[@]}"; do wait "$pid" 2>/dev/null; done
  burners=()
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

if command -v stress-ng >/dev/null 2>&1; then
  # A time limit of its own as well, in case this shell is killed with SIGKILL and cannot stop it.
  stress-ng --cpu 2 --timeout 3h --quiet &
  burners+=($!)
  echo "test:busy: stress-ng --cpu 2 (pid ${burners[0]})"
else
  for _ in 1 2; do
    node -e 'const end = Date.now() + 3 * 3600e3; while (Date.now() < end);' &
    burners+=($!)
  done
  echo "test:busy: two node busy loops (pids ${burners[*]})"
fi

# One jest pass in the background, waited for: `wait` returns on a signal, so the traps run at
# once instead of after the pass. A path the cluster pass leaves out is no failure.
run_pass() {
  set -m
  env "$@" &
  jest_pid=$!
  set +m
  wait "$jest_pid"
  local code=$?
  jest_pid=""
  return "$code"
}

status=0
run_pass npx jest --passWithNoTests "$@" || status=$?
run_pass TEST_REDIS=cluster npx jest --passWithNoTests "$@" || status=$?
exit "$status"
