// The browser test of the web page (docs/WEB.md): serves build/web on loopback, drives
// Debian's chromium headless with puppeteer-core, sets the page's controls for a grid of
// configurations, reads the rendered figures and compares each with what the native CLI
// prints for the same options (`pqpan estimate --format json`). Also: a bad profile file
// gets the CLI's own message, a good one is used; the page makes no request to any other
// host; a screenshot goes to the log directory. The battery figures (average current and
// battery life with rekeying) against `pqpan idle --exchange-uj` with the exchange's energy
// from the CLI's own estimate; a refused option's message at its control, and gone after
// the next good run. A grid of requests generated from estimate's option tables (`help
// --json`) goes through the page's WASM entry on the run layer (web-run: pqpan_run) and
// each result is compared with the native `pqpan estimate --format json`, field by field.
//   node tests/web/page_test.js SITE_DIR PQPAN_BINARY LOG_DIR
'use strict';

const assert = require('node:assert');
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { serve, launch } = require('./browser.js');

const [site, pqpan, logDir] = process.argv.slice(2);
if (!site || !pqpan || !logDir) {
  console.error('usage: node page_test.js SITE_DIR PQPAN_BINARY LOG_DIR');
  process.exit(2);
}

// The grid: each entry is the controls to set (id -> value); every other control keeps
// its value from the entry before, as a user would leave it.
const GRID = [
  {},
  { kem: 'ML-KEM-512' },
  { kem: 'ML-KEM-1024', 'll-octets': '251' },
  { phy: '2M', 'ci-ms': '7.5', 'idle-ci-ms': '500', 'idle-latency': '3' },
  { phy: 'S8', 'att-mtu': '517', transfer: 'notify/write-cmd', 'ci-ms': '20' },
  { kem: 'LESC-P256', phy: '1M', 'll-octets': '27', 'ci-ms': '50', transfer: 'study', 'att-mtu': '403' },
  { kem: 'ML-KEM-768', protocol: 'pqpan', auth: 'none' },
  { auth: 'psk', 'll-octets': '123', phy: 'S2', role: 'central', 'rekey-every': '1h', 'battery-mah': '1000', 'app-ua': '2' },
  { auth: 'kem-auth-mutual', transfer: 'indicate/write-cmd', 'att-mtu': '247' },
  { profile: 'nrf54l15', auth: 'numeric', transfer: 'indicate/write-req' },
  { profile: 'cc2340r5', protocol: 'study', transfer: 'notify/long-write', 'ci-ms': '100' },
  { profile: 'nrf52840', 'tx-dbm': '8', transfer: 'indicate/write-req', 'ci-ms': '30', 'crypto-impl': 'm4fspeed' },
  { currents: 'radio-only', 'tx-dbm': '0', 'crypto-impl': 'm4fstack' },
  { link: '802154', kem: 'ML-KEM-768', currents: 'system', 'tx-dbm': '0', 'poll-ms': '2000', 'device-side': 'responder' },
  { kem: 'ML-KEM-1024', csma: 'contiki', addr: 'short', busy: '0.3' },
  { link: 'ble', kem: 'ML-KEM-512', phy: '2M', 'll-octets': '251', 'tx-dbm': '0', role: 'peripheral' },
  { protocol: 'pqpan', auth: 'sig-mutual', sig: 'ML-DSA-87', 'keygen-side': 'central' },
  { hybrid: 'p256', 'p256-impl': 'p256-m', auth: 'kem-auth' },
  { kem: 'LESC-P256', 'p256-impl': 'tinycrypt', 'lesc-keypair': 'fresh' },
  { link: '802154', kem: 'ML-KEM-768', auth: 'sig', sig: 'ML-DSA-65', idle: 'sleep', hybrid: 'none' },
  { hybrid: 'p256', 'p256-impl': 'cc310', auth: 'kem-auth-mutual', idle: 'listen' },
  { link: 'ble', kem: 'ML-KEM-512', 'keygen-side': 'peripheral', auth: 'none', hybrid: 'none' },
];

// The options each added control must put on the command line (issue 28 item 3): the
// command the page shows for that grid entry holds them.
const WANT_ARGS = {
  16: ['--auth sig-mutual', '--sig ML-DSA-87', '--keygen-side central'],
  17: ['--hybrid p256', '--p256-impl p256-m', '--auth kem-auth'],
  18: ['--kem LESC-P256', '--p256-impl tinycrypt', '--lesc-keypair fresh'],
  19: ['--link 802154', '--auth sig', '--sig ML-DSA-65', '--idle sleep'],
  20: ['--hybrid p256', '--p256-impl cc310', '--auth kem-auth-mutual', '--idle listen'],
};

// The options the battery controls must put on the idle command line.
const WANT_BATTERY_ARGS = {
  3: ['--idle-ci-ms 500', '--idle-latency 3'],
  7: ['--role central', '--rekey-every 1h', '--battery-mah 1000', '--app-ua 2'],
  13: ['--link 802154', '--poll-ms 2000'],
};

function log(msg) { process.stdout.write(msg + '\n'); }

function cliEstimate(args) {
  const r = spawnSync(pqpan, ['estimate'].concat(args, ['--format', 'json']), { encoding: 'utf8' });
  return { rc: r.status, out: r.stdout, err: r.stderr };
}

async function setControls(page, controls) {
  // Link first (it shows and hides the other fieldsets), then the rest in order.
  const keys = Object.keys(controls).sort((a, b) => (b === 'link') - (a === 'link'));
  for (const id of keys) {
    const before = await page.$eval('body', (b) => Number(b.dataset.updates));
    const tag = await page.$eval('#' + id, (e) => e.tagName);
    if (tag === 'SELECT') {
      await page.select('#' + id, controls[id]);
    } else {
      // Typed as a user would: focus, select all, type, then leave the field.
      await page.focus('#' + id);
      await page.keyboard.down('Control');
      await page.keyboard.press('KeyA');
      await page.keyboard.up('Control');
      await page.keyboard.type(controls[id]);
      await page.keyboard.press('Tab');
    }
    await page.waitForFunction((n) => Number(document.body.dataset.updates) > n, {}, before);
  }
}

async function readFigures(page) {
  return page.$$eval('td[data-side][data-field]', (tds) => tds.map((td) => ({
    side: td.dataset.side, field: td.dataset.field, text: td.textContent, title: td.title })));
}

// The options of estimate without one option and its value.
function without(args, opt) {
  const out = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === opt) i++;
    else out.push(args[i]);
  }
  return out;
}

// The timeline's summary against the native packet simulator for the same options
// (`pqpan simulate`, which takes estimate's --protocol: the study's raw messages for
// study, the real PQKE for pqpan, the LE SC pairing for LESC-P256; the advertising phase's
// expected case, as the page runs it).
function checkTimeline(check, name, args, summary) {
  const simArgs = args.concat(['--adv-case', 'mean', '--format', 'json']);
  const r = spawnSync(pqpan, ['simulate'].concat(simArgs), { encoding: 'utf8' });
  check(name + ': timeline = pqpan simulate ' + simArgs.join(' '), () => {
    // Exit 1: the simulated exchange failed (its result says why, as the page does).
    assert.ok(r.status === 0 || r.status === 1, r.stderr);
    const sim = JSON.parse(r.stdout).simulation;
    assert.ok(summary, 'no timeline drawn');
    assert.strictEqual(summary.status, sim.result, 'result');
    assert.strictEqual(Number(summary.connEvents), sim.conn_events, 'connection events');
    // The page prints the latency to 3 decimals from the nanoseconds, simulate's JSON to 4:
    // a tie like 953.3065 may round either way from the two doubles, so the page's figure
    // must be a rounding of simulate's to within half its last digit.
    assert.ok(/^\d+\.\d{3}$/.test(summary.latencyMs) &&
      Math.abs(Number(summary.latencyMs) - sim.latency_ms) <= 0.0005 + 1e-9,
    'latency ' + summary.latencyMs + ' vs ' + sim.latency_ms);
    assert.strictEqual(Number(summary.packetsCentral), sim.central.packets_tx, 'central packets');
    assert.strictEqual(Number(summary.packetsPeripheral), sim.peripheral.packets_tx, 'peripheral packets');
  });
}

// The LL-octets curves against `pqpan sweep` over the same grid (3 levels x 27..251:8).
function checkCurve(check, name, args, curves) {
  const sweepArgs = without(without(args, '--kem'), '--ll-octets').concat(['--kem',
    'ML-KEM-512,ML-KEM-768,ML-KEM-1024', '--ll-octets', '27..251:8', '--format', 'jsonl']);
  const r = spawnSync(pqpan, ['sweep'].concat(sweepArgs), { encoding: 'utf8' });
  check(name + ': curves = pqpan sweep ' + sweepArgs.join(' '), () => {
    assert.strictEqual(r.status, 0, r.stderr);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.strictEqual(curves.length, 6, 'curves drawn');
    for (const c of curves) {
      const want = rows.filter((row) => row.in_kem === c.kem).map((row) => row.status === 'ok' ? row[c.field] : null);
      assert.deepStrictEqual(c.values, want, c.kem + ' ' + c.field);
    }
  });
}

// The option's value in an argv, or undefined.
function argOf(args, opt) {
  const i = args.indexOf(opt);
  return i >= 0 ? args[i + 1] : undefined;
}

// The battery table against `pqpan idle` run natively with the command the page shows,
// and the exchange it was given against the CLI's estimate of the same configuration: the
// battery side's e_exchange_events_uj (BLE) or e_total_events_uj (802.15.4, the device's
// side) and its latency.
async function checkBattery(check, name, page, est) {
  const command = await page.$eval('#battery-command', (e) => e.textContent).catch(() => '');
  const args = command.replace(/^pqpan idle /, '').split(' ');
  const figures = await page.$$eval('#battery-figures td[data-field]', (tds) =>
    tds.map((td) => ({ field: td.dataset.field, text: td.textContent })));
  const r = spawnSync(pqpan, ['idle'].concat(args, ['--format', 'json']), { encoding: 'utf8' });
  check(name + ': battery = ' + command, () => {
    assert.strictEqual(r.status, 0, r.stderr);
    const b = JSON.parse(r.stdout).battery;
    assert.strictEqual(figures.length, 6, 'battery figures rendered');
    for (const f of figures) {
      const digits = /^(rekey_current|drain)_ua$/.test(f.field) ? 6 : 4;
      assert.strictEqual(f.text, Number(b[f.field]).toFixed(digits), f.field);
    }
  });
  const lowpan = est.link === '802154';
  const sideName = lowpan ? await page.$eval('#device-side', (e) => e.value) : (argOf(args, '--role') || 'peripheral');
  const side = est.sides.find((s) => s.side === sideName);
  const field = lowpan ? 'e_total_events_uj' : 'e_exchange_events_uj';
  check(name + ': the battery\'s exchange is the estimate\'s ' + field + ' of the ' + sideName, () => {
    assert.ok(side, 'no side ' + sideName);
    assert.strictEqual(argOf(args, '--exchange-uj'), side[field].toFixed(3));
    assert.strictEqual(argOf(args, '--exchange-ms'), side.latency_ms.toFixed(3));
  });
  return command;
}

// The requests of the generated grid, per command on the run layer: its option rows (help
// --json) one at a time on the defaults, each with every word it takes (a flag on and off;
// a number its ends, its default and one past its end); estimate on each link (802.15.4
// with --hops up to the chain's 8), and every --auth (BLE with --encrypted off and on);
// idle on both links (its battery options too: alone they are refused, --exchange-uj at its
// end gives the "battery" member); advise over 802.15.4 (a search there takes
// milliseconds), on one hop and across a chain of 3 (--sed-idle listen, as it needs); simulate on both links (its JSON; over 802.15.4 two runs each, --runs
// itself at its low end, and the chain at 3 hops); sweep on the three links (ble-mesh: the
// provisioning), each option a list of two of its values beside two KEMs (its JSON Lines),
// --per by hand (a list of rates has no words). Left out: --link and --format (the request's frame), text options without
// words (a file, OP=X: simulate's --pcap and --trace) and sweep's --out and --jobs (the
// face's).
const SKIP = new Set(['--link', '--format']);
const SIM154_BASE = [['--runs', '2']];
const SWEEP_SKIP = new Set(['--out', '--jobs', '--runs', '--seed', '--per']);
const SWEEP_KEMS = ['--kem', 'ML-KEM-512,ML-KEM-768'];

function generatedRequests(help) {
  const requests = [];
  for (const link of ['ble', '802154']) generatedLinkRequests(help, 'estimate', link, requests);
  for (const link of ['ble', '802154']) generatedLinkRequests(help, 'idle', link, requests);
  generatedLinkRequests(help, 'advise', '802154', requests);
  generatedLinkRequests(help, 'advise', '802154', requests, [['--hops', '3'], ['--sed-idle', 'listen']]);
  generatedLinkRequests(help, 'simulate', 'ble', requests);
  generatedLinkRequests(help, 'simulate', '802154', requests, SIM154_BASE);
  generatedLinkRequests(help, 'simulate', '802154', requests, SIM154_BASE.concat([['--hops', '3']]));
  for (const link of ['ble', '802154', 'ble-mesh']) generatedSweepRequests(help, link, requests);
  // estimate --link ble-mesh on each bearer (a row of the other bearer's is refused by both)
  for (const bearer of ['pb-adv', 'pb-gatt']) generatedLinkRequests(help, 'estimate', 'ble-mesh', requests, [['--bearer', bearer]]);
  // simulate --link ble-mesh: the same rows executed (keys and crypto real), on each bearer,
  // one run each (--runs at its top would run the crypto 10000 times), then three lossy runs
  for (const bearer of ['pb-adv', 'pb-gatt']) generatedLinkRequests(help, 'simulate', 'ble-mesh', requests, [['--bearer', bearer], ['--runs', '1']]);
  requests.push({ command: 'simulate', options: [['--link', 'ble-mesh'], ['--runs', '3'], ['--per', '0.1']] });
  // advise over BLE: one search at the defaults (a BLE search takes seconds); over BLE Mesh
  // provisioning (--link ble-mesh) one search from each --min-level
  requests.push({ command: 'advise', options: [] });
  for (const level of ['1', '3', '5']) requests.push({ command: 'advise', options: [['--link', 'ble-mesh'], ['--min-level', level], ['--top', '2']] });
  // compare at 2 runs a cell, without --out (a directory), and its mesh table (--mesh) with
  // each other row; reproduce on one reading unless the row is --reading.
  generatedBaseRequests(help, 'compare', [['--runs', '2']], new Set(['--runs', '--out']), requests);
  generatedBaseRequests(help, 'compare', [['--mesh', 'on']], new Set(['--runs', '--seed', '--mesh', '--out']), requests);
  generatedBaseRequests(help, 'reproduce', [['--reading', 'defaults']], new Set(['--out']), requests);
  generatedTraceRequests(help, requests);
  generatedCalibrateRequests(help, requests);
  generatedProfilesRequests(help, requests);
  return requests;
}

// profiles: the list, then --show (the CLI's `profiles show NAME`) on each built-in profile
// (estimate's --profile words), one in another case and a name that is none.
function generatedProfilesRequests(help, requests) {
  const profileRow = help.commands.find((c) => c.name === 'estimate').groups
    .flatMap((g) => g.table.options).find((o) => o.name === '--profile');
  requests.push({ command: 'profiles', options: [] });
  for (const name of profileRow.words) requests.push({ command: 'profiles', options: [['--show', name]] });
  requests.push({ command: 'profiles', options: [['--show', profileRow.words[0].toUpperCase()]] });
  requests.push({ command: 'profiles', options: [['--show', 'no-such-profile']] });
}

// trace and calibrate read PPK2 captures: the fixtures of tests/fixtures are put into the
// page's file system (pqpanPage.putFile) at the relative paths the CLI is given when run
// from tests/ (FIXTURE_CWD), so both answers name the same files. A request with files
// set runs the CLI there.
const FIXTURE_CWD = path.join(__dirname, '..');
const FIXTURE_DIRS = ['fixtures/ppk2', 'fixtures/calibrate'];
// Values of the text rows, which have no words in the tables: a good one and a refused one.
const TRACE_TEXT = { '--phases': ['d0=crypto,d1=radio', 'd9=x'], '--window': ['w=0.5:3', 'w=3:1'],
  '--baseline-ua': ['auto', '2.5', 'amps'] };
const CAL_TEXT = { '--ops': ['kem_keygen,kem_decaps', 'kem_encaps', '-,kem_decaps', 'kdf'],
  '--phases': ['d0=crypto,d1=radio', 'd0=crypto,d1=radio,d2=advertise', 'd0=crypto,d0=radio'] };
const CAL_BASE = [['--protocol', 'study'], ['--trace', 'fixtures/calibrate/peripheral_1.csv'],
  ['--trace', 'fixtures/calibrate/peripheral_2.csv'], ['--trace', 'central:fixtures/calibrate/central_1.csv']];

// The fixtures as [relative path, text].
function fixtureFiles() {
  const files = [];
  for (const dir of FIXTURE_DIRS) {
    for (const name of fs.readdirSync(path.join(FIXTURE_CWD, dir)).sort()) {
      if (name.endsWith('.csv')) files.push([dir + '/' + name, fs.readFileSync(path.join(FIXTURE_CWD, dir, name), 'utf8')]);
    }
  }
  return files;
}

// trace: every capture at the defaults, then each option row of trace's tables at its
// values (TRACE_TEXT's for a text row) on one capture, and the phases' segments.
function generatedTraceRequests(help, requests) {
  const one = (options) => requests.push({ command: 'trace', files: true, options: options });
  const capture = ['FILE', 'fixtures/ppk2/segments.csv'];
  for (const [file] of fixtureFiles()) if (file.startsWith('fixtures/ppk2/')) one([['FILE', file]]);
  for (const g of help.commands.find((c) => c.name === 'trace').groups) {
    for (const o of g.table.options) {
      if (SKIP.has(o.name)) continue;
      for (const v of TRACE_TEXT[o.name] || valuesOf(o)) one([capture, [o.name, v]]);
    }
  }
  one([capture, ['--phases', 'd0=crypto'], ['--segments', 'on'], ['--lenient', 'on']]);
}

// calibrate: each option row of its tables (but --trace and --out, the files) at up to
// three of its values over CAL_BASE's three captures (a row of the base replaces its
// value), and pqpan's protocol over its own captures.
function generatedCalibrateRequests(help, requests) {
  for (const g of help.commands.find((c) => c.name === 'calibrate').groups) {
    for (const o of g.table.options) {
      if (SKIP.has(o.name) || o.name === '--trace' || o.name === '--out') continue;
      const kept = CAL_BASE.filter(([name]) => name !== o.name);
      for (const v of (CAL_TEXT[o.name] || valuesOf(o)).slice(0, 3)) {
        requests.push({ command: 'calibrate', files: true, options: kept.concat([[o.name, v]]) });
      }
    }
  }
  requests.push({ command: 'calibrate', files: true, options: [['--protocol', 'pqpan'],
    ['--trace', 'fixtures/calibrate/peripheral_pqpan.csv'], ['--trace', 'central:fixtures/calibrate/central_pqpan.csv']] });
}

// sweep: each option row a list of its first two values (a number: its ends; one past its
// end alone, refused), a flag given, beside two KEMs; --per with --runs and --seed.
function generatedSweepRequests(help, link, requests) {
  const prefix = link === 'ble' ? [] : [['--link', link]];
  const one = (options) => requests.push({ command: 'sweep', options: prefix.concat([SWEEP_KEMS], options) });
  for (const g of help.commands.find((c) => c.name === 'sweep').groups) {
    if (g.link !== null && g.link !== link) continue;
    for (const o of g.table.options) {
      if (SKIP.has(o.name) || SWEEP_SKIP.has(o.name) || o.name === '--kem') continue;
      const values = valuesOf(o);
      if (o.kind === 'flag') one([[o.name, 'on']]);
      else if (values.length >= 2) one([[o.name, values.slice(0, 2).join(',')]]);
      if (o.kind === 'uint' || o.kind === 'int' || o.kind === 'number') one([[o.name, values[2]]]);
    }
  }
  one([['--per', '0,0.1,1'], ['--runs', '3'], ['--seed', '7']]);
  one([['--runs', '3']]);
}

// Each option row of command (but skip) at each of its values, after base (a row of base
// replaces its value).
function generatedBaseRequests(help, command, base, skip, requests) {
  for (const g of help.commands.find((c) => c.name === command).groups) {
    for (const o of g.table.options) {
      if (SKIP.has(o.name) || skip.has(o.name)) continue;
      const kept = base.filter(([name]) => name !== o.name);
      for (const v of valuesOf(o)) requests.push({ command: command, options: kept.concat([[o.name, v]]) });
    }
  }
}

// The values of one option row the grid tries.
function valuesOf(o) {
  if (o.kind === 'flag') return ['on', 'off'];
  if (o.kind === 'uint' || o.kind === 'int' || o.kind === 'number') {
    const values = [String(o.min), String(o.max), String(o.max + 1)];
    if (o.default !== null) values.push(o.default);
    return values;
  }
  return (o.words || []).slice();
}

function generatedLinkRequests(help, command, link, requests, base) {
  const prefix = (link === 'ble' ? [] : [['--link', link]]).concat(base || []);
  const given = new Set(prefix.map(([name]) => name));
  const one = (options) => requests.push({ command: command, options: prefix.concat(options) });
  let auths = [];
  for (const g of help.commands.find((c) => c.name === command).groups) {
    if (g.link !== null && g.link !== link) continue;
    for (const o of g.table.options) {
      if (SKIP.has(o.name) || given.has(o.name)) continue;
      const values = valuesOf(o);
      if (o.name === '--auth') auths = values;
      for (const v of values) one([[o.name, v]]);
    }
  }
  if (command !== 'estimate') return;
  if (link === 'ble') {
    for (const a of auths) for (const e of ['off', 'on']) one([['--auth', a], ['--encrypted', e]]);
  } else {
    for (const a of auths) one([['--auth', a]]);
  }
}

// The names of each command's flags (help --json): command -> Set.
function flagsOf(help) {
  const flags = {};
  for (const c of help.commands) {
    flags[c.name] = new Set();
    for (const g of c.groups) for (const o of g.table.options) if (o.kind === 'flag') flags[c.name].add(o.name);
  }
  return flags;
}

// A request as the CLI's argv (a flag: present when on).
function argvOf(request, flags) {
  const argv = [request.command];
  for (const [name, value] of request.options) {
    if (name === 'FILE') argv.push(value); /* trace's positional FILE */
    else if (request.command === 'profiles' && name === '--show') argv.push('show', value);
    else if (!flags[request.command].has(name)) argv.push(name, value);
    else if (value === 'on') argv.push(name);
  }
  return argv.concat(['--format', request.command === 'sweep' ? 'jsonl' : 'json']);
}

// The page's result of a request against the CLI's: the same exit code and message, or
// the same JSON: each array the run lists (the sides as "rows"; "phases", "nodes") item by
// item and field by field, and the members, with the fields of a record the CLI prints as
// members ("record": idle's figures) among them. Returns the number of fields compared.
function compareRun(request, page, cli) {
  assert.strictEqual(page.rc, cli.status, 'exit code; CLI: ' + cli.stderr);
  if (cli.status !== 0) {
    assert.strictEqual(page.err.trim(), cli.stderr.trim(), 'message');
    if (!cli.stdout) return 0; // a failed simulated exchange is printed all the same
  }
  if (request.command === 'sweep') return compareLines(page.json.lines, cli.stdout);
  if (request.command === 'profiles') return compareProfiles(page.json, JSON.parse(cli.stdout));
  const want = JSON.parse(cli.stdout);
  const lists = Object.assign({}, page.json.lists);
  if (page.json.rows.length > 0) lists.sides = page.json.rows;
  let fields = 0;
  for (const key of Object.keys(lists)) {
    assert.ok(Array.isArray(want[key]), 'the CLI has no "' + key + '" list');
    assert.strictEqual(lists[key].length, want[key].length, key + ': items');
    want[key].forEach((item, k) => {
      assert.deepStrictEqual(Object.keys(lists[key][k]), Object.keys(item), key + ' ' + k + ': field names');
      for (const f of Object.keys(item)) {
        assert.deepStrictEqual(lists[key][k][f], item[f], key + ' ' + k + ' ' + f);
        fields++;
      }
    });
    delete want[key];
  }
  const members = Object.assign({}, page.json.record, page.json.members);
  delete members.entry;
  assert.deepStrictEqual(members, want, 'members');
  return fields;
}

// profiles: the run's PROFILE and FIGURE rows (web-run's lists "profiles" and "figures")
// against the CLI's layout of them (pqpan_run_record_key, run.h): the list is a bare array of
// profiles, each with "sources" {column: source} from its FIGURE rows; show is the profile's
// name and description with its figures, each figure's value its number, else its word, else
// null, and "derived" / "other_chip" only where it has them. Every member the CLI prints is
// compared; a figure's field the CLI leaves out must be empty (null) or one it folds (value's
// word, the column of a source). Returns the fields compared.
function compareProfiles(got, want) {
  const lists = got.lists;
  const show = !Array.isArray(want);
  const profiles = show ? [{ name: want.name, description: want.description }]
    : want.map((p) => Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'sources')));
  const figures = show ? want.figures
    : want.flatMap((p) => Object.entries(p.sources).map(([column, source]) => ({ column, source })));
  assert.strictEqual(lists.profiles.length, profiles.length, 'profiles');
  assert.strictEqual(lists.figures.length, figures.length, 'figures');
  const folded = new Set(['text', 'column']);
  let fields = 0;
  const compareItem = (item, wanted, what) => {
    for (const f of Object.keys(item)) {
      if (f in wanted) {
        assert.deepStrictEqual(item[f], wanted[f], what + ' ' + f);
        fields++;
      } else if (what.startsWith('figure') && !folded.has(f)) {
        assert.strictEqual(item[f], null, what + ' ' + f + ': not in the CLI\'s output, so empty');
      }
    }
    for (const f of Object.keys(wanted)) assert.ok(f in item, what + ': the run has no ' + f);
  };
  profiles.forEach((p, k) => compareItem(lists.profiles[k], p, 'profile ' + k));
  figures.forEach((fig, k) => {
    const item = Object.assign({}, lists.figures[k]);
    if (show) item.value = item.value !== null ? item.value : item.text;
    compareItem(item, fig, 'figure ' + k);
  });
  assert.deepStrictEqual(Object.keys(got.record), [], 'no members');
  return fields;
}

// A sweep's lines (web-run's "lines") against the CLI's JSON Lines: the same
// configurations, each with the same members in the same order. Returns the fields compared.
function compareLines(lines, stdout) {
  const want = stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  assert.strictEqual(lines.length, want.length, 'configurations');
  let fields = 0;
  want.forEach((line, k) => {
    assert.deepStrictEqual(Object.keys(lines[k]), Object.keys(line), 'configuration ' + k + ': columns');
    assert.deepStrictEqual(lines[k], line, 'configuration ' + k);
    fields += Object.keys(line).length;
  });
  return fields;
}

// The controls flagged as invalid and their messages.
async function fieldErrors(page) {
  return page.evaluate(() => ({
    invalid: Array.from(document.querySelectorAll('#controls [aria-invalid="true"]')).map((e) => e.id),
    messages: Array.from(document.querySelectorAll('#controls .field-error')).map((e) => ({
      id: e.id, text: e.textContent, described: !!document.querySelector('[aria-describedby="' + e.id + '"]') })),
  }));
}

function digitsOf(field) {
  if (field.endsWith('_pct')) return 1;
  if (field.endsWith('_uj') || field.endsWith('_ms')) return 3;
  return 0;
}

async function main() {
  fs.mkdirSync(logDir, { recursive: true });
  const server = await serve(site);
  const origin = 'http://127.0.0.1:' + server.address().port;
  const { browser, close } = await launch();
  let passed = 0;
  let failed = 0;
  const check = (name, fn) => {
    try {
      fn();
      passed++;
    } catch (e) {
      failed++;
      log('FAIL ' + name + ': ' + e.message);
    }
  };
  try {
    const page = await browser.newPage();
    const foreign = [];
    const consoleErrors = [];
    page.on('request', (r) => { if (!r.url().startsWith(origin + '/')) foreign.push(r.url()); });
    const pageError = (text) => { consoleErrors.push(text); log('page: ' + text); };
    page.on('console', (m) => { if (m.type() === 'error') pageError(m.text()); });
    page.on('pageerror', (e) => pageError(String(e)));
    await page.setViewport({ width: 1200, height: 900 });
    await page.goto(origin + '/index.html', { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.state === 'ready', { timeout: 60000 });

    // The controls start from the CLI's defaults (the library's table): every control
    // named as an option of estimate holds that option's default in `pqpan help --json`.
    const help = JSON.parse(execFileSync(pqpan, ['help', '--json'], { encoding: 'utf8' }));
    const estimateDefaults = {};
    for (const name of ['estimate', 'idle']) {
      for (const g of help.commands.find((c) => c.name === name).groups) {
        for (const o of g.table.options) {
          if (o.default !== null) estimateDefaults[o.name.replace(/^--/, '')] = o.default;
        }
      }
    }
    const startValues = await page.$$eval('#controls select, #controls input', (els) =>
      els.filter((e) => e.type !== 'file').map((e) => [e.id, e.value]));
    let defaulted = 0;
    for (const [id, value] of startValues) {
      if (!(id in estimateDefaults)) continue;
      defaulted++;
      check('control ' + id + ' starts at the default ' + estimateDefaults[id],
        () => assert.strictEqual(value, estimateDefaults[id]));
    }
    check('controls with a default', () => assert.ok(defaulted >= 18, 'only ' + defaulted));

    // Every control has a label.
    const unlabelled = await page.$$eval('select, input', (els) =>
      els.filter((e) => !document.querySelector('label[for="' + e.id + '"]')).map((e) => e.id || e.name));
    check('every control has a label', () => assert.deepStrictEqual(unlabelled, []));

    let compared = 0;
    for (let k = 0; k < GRID.length; k++) {
      await setControls(page, GRID[k]);
      const command = await page.$eval('#command', (e) => e.textContent);
      const args = command.replace(/^pqpan estimate /, '').split(' ');
      const cli = cliEstimate(args);
      const figures = await readFigures(page);
      check('grid ' + k + ' (' + command + '): CLI exit 0', () => assert.strictEqual(cli.rc, 0, cli.err));
      const entry = await page.$eval('body', (b) => b.dataset.estimateEntry);
      check('grid ' + k + ': the estimate ran through web-run (pqpan_run)',
        () => assert.strictEqual(entry, 'web-run'));
      for (const want of WANT_ARGS[k] || []) {
        check('grid ' + k + ': the command has ' + want, () => assert.ok((command + ' ').includes(' ' + want + ' '), command));
      }
      if (cli.rc !== 0) continue;
      const json = JSON.parse(cli.out);
      check('grid ' + k + ': figures rendered', () => assert.ok(figures.length >= 3 * 9, 'only ' + figures.length));
      for (const f of figures) {
        const side = json.sides.find((s) => s.side === f.side);
        check('grid ' + k + ' ' + f.side + ' ' + f.field, () => {
          assert.ok(side && f.field in side, 'the CLI has no ' + f.side + ' ' + f.field);
          assert.strictEqual(f.text, Number(side[f.field]).toFixed(digitsOf(f.field)),
            command + ': ' + f.side + ' ' + f.field);
          assert.ok(f.title.length > 0, 'no source on hover');
        });
        compared++;
      }
      // Each figure under the CLI's name for it: its row label is a row of `pqpan estimate`'s
      // table for the same options (µ written u there).
      const labels = await page.$$eval('#figures tbody th[data-field]', (ths) => ths.map((th) => th.textContent));
      const table = spawnSync(pqpan, ['estimate'].concat(args), { encoding: 'utf8' }).stdout.split('\n');
      for (const label of labels) {
        check('grid ' + k + ': "' + label + '" is the CLI\'s name', () => assert.ok(
          table.some((line) => line.startsWith(label.replace('µ', 'u') + ' ')), label));
      }
      if (args.includes('802154')) {
        // 802.15.4 keeps the authentication verdict BLE has (the page dropped it before)
        const auth = await page.$eval('[data-verdict="authentication"]', (li) => li.textContent).catch(() => '');
        const mode = json.sides[0].auth;
        check('grid ' + k + ': 802.15.4 says what ' + mode + ' authenticates', () => assert.ok(
          mode === 'none' ? auth.startsWith('NOT authenticated') : auth.includes('(' + mode + ')'), auth));
      }
      const batteryCommand = await checkBattery(check, 'grid ' + k, page, json);
      for (const want of WANT_BATTERY_ARGS[k] || []) {
        check('grid ' + k + ': the battery command has ' + want,
          () => assert.ok((batteryCommand + ' ').includes(' ' + want + ' '), batteryCommand));
      }
      if (k === 0) {
        const ranked = await page.$eval('[data-verdict="ranked"]', (li) => li.textContent).catch(() => '');
        check('the page says which figure advise ranks by', () =>
          assert.ok(ranked.includes('"exchange on an open link, events"'), ranked));
      }
      const isBle = !args.includes('802154');
      if (isBle) {
        const summary = await page.$eval('#timeline-summary', (e) => Object.assign({}, e.dataset)).catch(() => null);
        checkTimeline(check, 'grid ' + k, args, summary);
      }
      if (isBle && (k === 0 || k === 7 || k === 11)) {
        const curves = await page.$$eval('#curve path[data-kem]', (ps) => ps.map((p) => ({
          kem: p.dataset.kem, field: p.dataset.field, values: JSON.parse(p.dataset.values) })));
        checkCurve(check, 'grid ' + k, args, curves);
      }
      if (k === 0) {
        // The source on hover names the profile's own source text for the CPU current.
        const cpu = json.profile && execFileSync(pqpan, ['profiles', 'show', json.profile, '--format', 'json'], { encoding: 'utf8' });
        const cpuSource = JSON.parse(cpu).figures.find((x) => x.field === 'cpu_ua').source;
        const comp = figures.find((f) => f.field === 'e_comp_uj');
        check('source on hover of e_comp_uj cites cpu_ua', () => assert.ok(comp.title.includes(cpuSource)));
        const barTitle = await page.$eval('#bars rect[data-part="comp"] title', (t) => t.textContent);
        check('source on hover of the computation bar cites cpu_ua', () => assert.ok(barTitle.includes(cpuSource)));
        await page.screenshot({ path: path.join(logDir, 'web_page.png'), fullPage: true });
      }
    }
    log('compared ' + compared + ' figures over ' + GRID.length + ' configurations with pqpan estimate');

    // The generated grid through the WASM entry on the run layer, against the CLI.
    const requests = generatedRequests(help);
    const flags = flagsOf(help);
    let runFields = 0;
    let refused = 0;
    await page.evaluate((files) => { for (const [p, text] of files) window.pqpanPage.putFile(p, text); }, fixtureFiles());
    for (const request of requests) {
      const got = await page.evaluate((req) => {
        const r = window.pqpanPage.runRequest({ command: req.command, options: req.options });
        return { rc: r.rc, err: r.err, json: r.json };
      }, request);
      const argv = argvOf(request, flags);
      const cli = spawnSync(path.resolve(pqpan), argv, { encoding: 'utf8', cwd: request.files ? FIXTURE_CWD : undefined });
      check('web-run ' + JSON.stringify(request.options) + ' = pqpan ' + argv.join(' '), () => {
        runFields += compareRun(request, got, cli);
      });
      if (request.command === 'advise' && argOf(request.options.flat(), '--link') === 'ble-mesh' && cli.status === 0) {
        // advise --link ble-mesh: its configurations are typed rows (MESH_CHOICE, MESH_BEST),
        // compared above item by item with the CLI's "choices" and "best_per_bearer".
        check('web-run advise --link ble-mesh: the choices come as rows', () => {
          assert.ok(got.json.lists.choices.length > 0, 'no choices');
          assert.ok(got.json.lists.best_per_bearer.length > 0, 'no best per bearer');
          assert.ok(!('choices' in got.json.members), 'the choices in the members too');
        });
      }
      if (cli.status !== 0) refused++;
    }
    check('generated grid: enough requests, both answers', () => {
      assert.ok(requests.length >= 100, requests.length + ' requests');
      assert.ok(refused > 0 && refused < requests.length, refused + ' refused');
    });
    const commands = Array.from(new Set(requests.map((r) => r.command))).join(', ');
    log('web-run: ' + requests.length + ' generated requests (' + commands + '; ' + refused + ' refused), ' +
      runFields + ' fields equal to the CLI\'s --format json');

    // A refused option: the CLI's message beside its control (aria-invalid), gone after the
    // next good run. An estimate option, then one of the idle link's.
    await setControls(page, { 'att-mtu': '600' });
    const mtuErr = await fieldErrors(page);
    const mtuCmd = (await page.$eval('#command', (e) => e.textContent)).replace(/^pqpan estimate /, '').split(' ');
    const mtuCli = cliEstimate(mtuCmd);
    check('out-of-range --att-mtu: the CLI\'s message at the ATT_MTU field', () => {
      assert.strictEqual(mtuCli.rc, 2);
      assert.deepStrictEqual(mtuErr.invalid, ['att-mtu']);
      assert.strictEqual(mtuErr.messages.length, 1);
      assert.strictEqual(mtuErr.messages[0].id, 'att-mtu-error');
      assert.ok(mtuErr.messages[0].described, 'aria-describedby');
      assert.strictEqual(mtuErr.messages[0].text, mtuCli.err.split('\n')[0]);
    });
    await setControls(page, { 'att-mtu': '403' });
    const mtuCleared = await fieldErrors(page);
    check('good --att-mtu again: the field\'s message is gone', () =>
      assert.deepStrictEqual(mtuCleared, { invalid: [], messages: [] }));
    await setControls(page, { 'idle-latency': '499' });
    const idleErr = await fieldErrors(page);
    const idleCmd = (await page.$eval('#battery-command', (e) => e.textContent)).replace(/^pqpan idle /, '').split(' ');
    const idleCli = spawnSync(pqpan, ['idle'].concat(idleCmd, ['--format', 'json']), { encoding: 'utf8' });
    check('too long an idle latency period: idle\'s message at the fields it names', () => {
      assert.strictEqual(idleCli.status, 2);
      assert.deepStrictEqual(idleErr.invalid.sort(), ['idle-ci-ms', 'idle-latency']);
      for (const m of idleErr.messages) assert.strictEqual(m.text, idleCli.stderr.split('\n')[0]);
    });
    await setControls(page, { 'idle-latency': '0' });
    const idleCleared = await fieldErrors(page);
    check('good idle latency again: the messages are gone', () =>
      assert.deepStrictEqual(idleCleared, { invalid: [], messages: [] }));

    // An invalid configuration: the CLI's message, verbatim.
    await setControls(page, { 'att-mtu': '100', transfer: 'study' });
    const msg = await page.$eval('#message-text', (e) => e.textContent);
    const cmd = (await page.$eval('#command', (e) => e.textContent)).replace(/^pqpan estimate /, '').split(' ');
    const bad = cliEstimate(cmd);
    check('invalid configuration: the CLI\'s message', () => {
      assert.notStrictEqual(bad.rc, 0);
      assert.strictEqual(msg.trim(), bad.err.trim());
    });
    await setControls(page, { 'att-mtu': '403' });

    // A user profile: a broken file gets the CLI's message, a good one is used.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pqpan-web-profile-'));
    const broken = path.join(tmp, 'broken.json');
    fs.writeFileSync(broken, '{"name": "x", "supply_v": ');
    const cliBroken = spawnSync(pqpan, ['profiles', 'show', broken], { encoding: 'utf8' });
    const input = await page.$('#profile-file');
    await input.uploadFile(broken);
    await page.waitForFunction(() => document.querySelector('#message-text') && /refused/.test(document.querySelector('#message').textContent));
    const pageBroken = await page.$eval('#message-text', (e) => e.textContent);
    check('broken profile: same message as the CLI', () => {
      assert.strictEqual(cliBroken.status, 3);
      assert.strictEqual(pageBroken.replace('/user/broken.json', broken).trim(), cliBroken.stderr.trim());
    });
    const own = path.join(tmp, 'mine.json');
    const nrf = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'data', 'profiles', 'nrf52840.json'), 'utf8'));
    nrf.name = 'mine';
    nrf.cpu_ua = Object.assign({}, nrf.cpu_ua, { value: nrf.cpu_ua.value * 2 });
    fs.writeFileSync(own, JSON.stringify(nrf));
    const before = await page.$eval('body', (b) => Number(b.dataset.updates));
    await input.uploadFile(own);
    await page.waitForFunction((n) => Number(document.body.dataset.updates) > n, {}, before);
    const ownCmd = (await page.$eval('#command', (e) => e.textContent)).replace(/^pqpan estimate /, '').split(' ');
    const ownCli = cliEstimate(ownCmd.map((a) => (a === '/user/mine.json' ? own : a)));
    const ownFigures = await readFigures(page);
    check('own profile used: its figures equal the CLI\'s with the same file', () => {
      assert.strictEqual(ownCli.rc, 0, ownCli.err);
      const j = JSON.parse(ownCli.out);
      for (const f of ownFigures) {
        const side = j.sides.find((s) => s.side === f.side);
        assert.strictEqual(f.text, Number(side[f.field]).toFixed(digitsOf(f.field)), f.side + ' ' + f.field);
      }
      assert.ok(ownCmd.includes('/user/mine.json'));
    });

    // The charts are drawn: one stacked bar pair per side, the timeline's packets, the
    // three levels' curves and the current choice's marks.
    const charts = await page.evaluate(() => ({
      bars: document.querySelectorAll('#bars rect[data-part]').length,
      packets: document.querySelectorAll('#timeline rect[class^="pkt-"]').length,
      curves: document.querySelectorAll('#curve path[data-kem]').length,
      marks: document.querySelectorAll('#curve circle.current').length,
    }));
    // Units: the curve's axis in µJ as the table; the timeline's time axis labelled.
    const axes = await page.evaluate(() => ({
      curve: Array.from(document.querySelectorAll('#curve text.lbl')).map((t) => t.textContent),
      timeline: (document.querySelector('#timeline-axis') || {}).textContent,
    }));
    check('curve axis in µJ, as the table', () => {
      const values = axes.curve.filter((t) => /J$/.test(t));
      assert.ok(values.length >= 2 && values.every((t) => / µJ$/.test(t)), values.join(', '));
    });
    check('timeline time axis labelled', () => assert.strictEqual(axes.timeline, 'simulated time (ms)'));
    check('charts drawn', () => {
      assert.strictEqual(charts.bars, 8);
      assert.ok(charts.packets > 10, charts.packets + ' packets');
      assert.strictEqual(charts.curves, 6);
      assert.strictEqual(charts.marks, 2);
    });

    // Keyboard: Tab reaches the controls in order.
    await page.focus('#profile');
    await page.keyboard.press('Tab');
    const next = await page.evaluate(() => document.activeElement.id);
    check('keyboard: Tab moves from the profile to the file picker', () => assert.strictEqual(next, 'profile-file'));

    // Phone width: nothing wider than the screen but the scrollable table.
    const beforeResize = await page.$eval('body', (b) => Number(b.dataset.updates));
    await page.setViewport({ width: 375, height: 800 });
    await page.waitForFunction((n) => Number(document.body.dataset.updates) > n, {}, beforeResize);
    const chartWidth = await page.$eval('#curve svg', (e) => e.viewBox.baseVal.width);
    check('phone width: charts redrawn at the screen\'s width', () => assert.ok(chartWidth <= 375, chartWidth + ' px'));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    check('phone width: no horizontal scrolling', () => assert.ok(overflow <= 375, 'page is ' + overflow + ' px wide'));
    await page.screenshot({ path: path.join(logDir, 'web_page_phone.png'), fullPage: true });

    const timings = await page.evaluate(() => window.pqpanPage.timings.slice());
    const sorted = timings.slice(1).sort((a, b) => a - b);
    log('update times (ms, after the first): median ' + sorted[Math.floor(sorted.length / 2)].toFixed(1) +
      ', max ' + sorted[sorted.length - 1].toFixed(1) + ' over ' + sorted.length + ' updates (not asserted: a shared machine)');
    check('no request to another host', () => assert.deepStrictEqual(foreign, []));
    check('no console errors', () => assert.deepStrictEqual(consoleErrors, []));
    log('screenshots: ' + path.join(logDir, 'web_page.png') + ', web_page_phone.png');
  } finally {
    await close();
    server.close();
  }
  log(passed + ' passed, ' + failed + ' failed');
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
