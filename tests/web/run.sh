#!/bin/sh
# Runs the browser test of the web page (make test-web, in make test:
# tests/web/page_test.js) or its benchmark (make bench-web: tests/web/bench_page.js) in
# Debian's chromium, after installing the pinned puppeteer-core
# (tests/web/package-lock.json) from the npm registry when it is missing.
#   tests/web/run.sh test SITE_DIR PQPAN_BINARY LOG_DIR
#   tests/web/run.sh bench SITE_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mode=$1 site=$2

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
export NODE_PATH="$here/node_modules"
if [ "$mode" = bench ]; then
    exec node "$here/bench_page.js" "$site"
fi
mkdir -p "$4"
exec node "$here/page_test.js" "$site" "$3" "$4"
