#!/usr/bin/env bash
# Runs the README's test command, `npm test`, on one Node.js major, as CI's matrix does for each.
#
#   scripts/test-node.sh 24            # the latest Node 24, on the dependencies already installed
#   scripts/test-node.sh system        # the Node first on PATH
#   scripts/test-node.sh 24 --ci       # first `npm ci` on that Node, of the project and of test/tools/, as a fresh clone in CI does
#   scripts/test-node.sh 24 --install  # only fetch that Node, print the folder of its binary
#
# A major other than `system` comes from the npm package node-linux-<arch>@<major>, which holds the
# official binary, installed into .cache/node-<major> (never into the project's node_modules) and
# put first on PATH for the run, so every `node` the tests start, and process.execPath, is that one.
# The last line printed is the summary: `node 24.21.0: 857 passed, 0 failed`.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/test-node.sh <major>|system [--ci|--install]" >&2
  exit 2
}

major="${1:-}"
mode="${2:-test}"
if [[ ! "$major" =~ ^([0-9]+|system)$ ]]; then usage; fi
case "$mode" in
  test | --ci | --install) ;;
  *) usage ;;
esac

# The folder holding `node` for a major: the package's bin, refreshed to the major's latest release.
node_folder() {
  local machine arch prefix
  machine="$(uname -m)"
  case "$machine" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *)
      echo "no node-linux package for the machine type $machine" >&2
      exit 2
      ;;
  esac
  prefix=".cache/node-$1"
  # Outside any package.json, so it neither reads nor changes the project's dependencies; stdout
  # goes to stderr so this function's own output is the folder alone.
  if ! npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "node-linux-$arch@$1" >&2; then
    # Offline: a binary fetched before still runs the suite.
    if [ ! -x "$prefix/node_modules/node-linux-$arch/bin/node" ]; then
      echo "could not install node-linux-$arch@$1" >&2
      exit 2
    fi
    echo "could not refresh node-linux-$arch@$1: using the one in $prefix" >&2
  fi
  (cd "$prefix/node_modules/node-linux-$arch/bin" && pwd)
}

if [ "$major" = system ]; then
  folder="$(dirname "$(command -v node)")"
else
  folder="$(node_folder "$major")"
  export PATH="$folder:$PATH"
fi
if [ "$mode" = --install ]; then
  echo "$folder"
  exit 0
fi

version="$(node --version)"
version="${version#v}"
log=".cache/test-node-$major.log"
mkdir -p .cache
echo "Node $version ($(command -v node))"

warnings=""
if [ "$mode" = --ci ]; then
  # The install on this Node; its engine warnings are reported below. (npm test builds what it runs:
  # npm start's `prestart`, and the packing tests into stages of their own.)
  if ! npm ci --no-audit --no-fund 2>&1 | tee ".cache/npm-ci-node-$major.log"; then
    echo "node $version: npm ci failed, no test ran"
    exit 1
  fi
  # The test tools' own package (test/tools/README.md), installed afresh on this Node as well; npm
  # test's pretest would install them only when missing or stale.
  if ! node test/tools/install.mjs --ci 2>&1 | tee -a ".cache/npm-ci-node-$major.log"; then
    echo "node $version: npm ci of the test tools failed, no test ran"
    exit 1
  fi
  if grep -q EBADENGINE ".cache/npm-ci-node-$major.log"; then
    warnings=", npm ci warned EBADENGINE for $(grep -o "package: '[^']*'" ".cache/npm-ci-node-$major.log" | sed "s/package: //; s/'//g" | sort -u | paste -sd ' ' -)"
  fi
fi

# A hang guard, far above the 5 minutes one run takes on an idle machine (and the 8 of a busy one),
# that keeps the four runs of .ci/run inside CI's 90 minutes even if each one hung.
status=0
# The Nodes after the first leave out the tests of what is not Node's (scripts/test-files.mjs).
if [ "${PETSTORE_MATRIX_REPEAT:-}" = 1 ]; then echo "Tests of what is not Node's (browser, balancers, pooler, Deno and Bun, linters, Prism) ran on the first Node: left out here"; fi
timeout --kill-after=30s 15m npm test 2>&1 | tee "$log" || status=$?
passed="$(grep -E '^ℹ pass [0-9]+$' "$log" | tail -n 1 | grep -oE '[0-9]+' || echo '?')"
failed="$(grep -E '^ℹ fail [0-9]+$' "$log" | tail -n 1 | grep -oE '[0-9]+' || echo '?')"
note=""
# A run that failed with no failed test to show for it failed elsewhere: say how it ended.
if [ "$status" -ne 0 ] && { [ "$failed" = 0 ] || [ "$failed" = '?' ]; }; then note=", npm test exited $status (type-check, coverage or the hang guard)"; fi
echo "node $version: $passed passed, $failed failed$note$warnings"
exit "$status"
