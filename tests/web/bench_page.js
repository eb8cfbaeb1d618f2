// The page's update time (make bench-web; the target: a control change updates
// everything in under 50 ms). Loads the built page in Debian's chromium headless, changes
// one control after another as a user would (every LL octet value 27..251 in steps of 8,
// each PHY, each ML-KEM level, both protocols) and reads the time the page measured for
// each update (estimate, verdicts, packet-simulator timeline, LL-octets curves and their
// drawing). Prints the median, 90th percentile and largest time, and whether the median
// and the 90th percentile meet the target. Exit 0 unless the page fails to run.
//   node tests/web/bench_page.js SITE_DIR
'use strict';

const { serve, launch } = require('./browser.js');

const TARGET_MS = 50;

function changes() {
  const list = [];
  for (let ll = 27; ll <= 251; ll += 8) list.push(['ll-octets', String(ll)]);
  for (const phy of ['2M', 'S2', 'S8', '1M']) list.push(['phy', phy]);
  for (const kem of ['ML-KEM-512', 'ML-KEM-1024', 'ML-KEM-768']) list.push(['kem', kem]);
  list.push(['protocol', 'pqpan'], ['auth', 'kem-auth-mutual'], ['protocol', 'study']);
  return list;
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function main() {
  const site = process.argv[2];
  if (!site) {
    console.error('usage: node bench_page.js SITE_DIR');
    process.exit(2);
  }
  const server = await serve(site);
  const { browser, close } = await launch();
  try {
    const page = await browser.newPage();
    await page.goto('http://127.0.0.1:' + server.address().port + '/index.html');
    await page.waitForFunction(() => document.body.dataset.state === 'ready', { timeout: 60000 });
    const first = await page.evaluate(() => window.pqpanPage.timings.length);
    for (const [id, value] of changes()) {
      await page.evaluate((i, v) => {
        const e = document.getElementById(i);
        e.value = v;
        e.dispatchEvent(new Event('change', { bubbles: true }));
      }, id, value);
    }
    const all = await page.evaluate(() => window.pqpanPage.timings.slice());
    const times = all.slice(first).sort((a, b) => a - b);
    const med = quantile(times, 0.5);
    const p90 = quantile(times, 0.9);
    console.log('page load, first update: ' + all[0].toFixed(1) + ' ms (WebAssembly compiled and warmed up)');
    console.log('control changes: ' + times.length + ', update time median ' + med.toFixed(1) + ' ms, p90 ' +
      p90.toFixed(1) + ' ms, max ' + times[times.length - 1].toFixed(1) + ' ms');
    console.log('target < ' + TARGET_MS + ' ms: median ' + (med < TARGET_MS ? 'met' : 'NOT met') +
      ', p90 ' + (p90 < TARGET_MS ? 'met' : 'NOT met'));
  } finally {
    await close();
    server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
