#!/bin/sh
# The browser test of the web page (make test-web, in make test): installs the pinned
# puppeteer-core (tests/web/package-lock.json) from the npm registry when it is missing,
# then drives Debian's chromium over the built page (tests/web/page_test.js).
#   tests/web/run.sh SITE_DIR PQPAN_BINARY LOG_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
site=$1 pqpan=$2 logdir=$3

for tool in node npm "${CHROMIUM:-chromium}"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "test-web: $tool not found: run scripts/deps.sh (or make test NO_WEB=1 to skip the browser test)" >&2
        exit 1
    fi
done
if [ ! -f "$site/index.html" ] || [ ! -f "$site/pqpan.wasm" ]; then
    echo "test-web: $site has no built page: run make web" >&2
    exit 1
fi
# node_modules is kept while the lock file is unchanged (npm ci installs exactly the lock).
stamp=$here/node_modules/.pqpan-lock
if ! cmp -s "$here/package-lock.json" "$stamp" 2>/dev/null; then
    (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$here/package-lock.json" "$stamp"
fi
mkdir -p "$logdir"
NODE_PATH=$here/node_modules exec node "$here/page_test.js" "$site" "$pqpan" "$logdir"
