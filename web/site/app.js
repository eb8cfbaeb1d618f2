// The pqpan page (docs/WEB.md): every figure comes from pqpan's CLI compiled to
// WebAssembly (pqpan.js, built by `make web`), run in the page with the options the
// controls say; this file only builds command lines and draws what the commands print.
// The battery figures are `pqpan idle`'s (--exchange-uj: the exchange's energy as
// `pqpan estimate` printed it); a refused option is shown at its control.
'use strict';

(function () {
  const SVG = 'http://www.w3.org/2000/svg';
  // The figures of the table: estimate's JSON field, label, digits as the CLI prints them.
  // The figures of the table: [field, its CLI table label on BLE, digits, on 802.15.4 if
  // other]; the labels are the CLI's (cli/ble_model.c, cli/lowpan_model.c field tables),
  // so one energy figure has one name in every command and here.
  const FIGURES = [
    ['e_comp_uj', 'computation (µJ)', 3],
    ['e_comm_uj', 'communication, bits (µJ)', 3],
    ['e_total_uj', 'total, bits (µJ)', 3],
    ['comm_share_pct', 'communication share, bits (%)', 1],
    ['e_comm_events_uj', 'communication, events (µJ)', 3, 'communication, all states (µJ)'],
    ['e_total_events_uj', 'total, events (µJ)', 3, 'total, all states (µJ)'],
    ['comm_share_events_pct', 'communication share, events (%)', 1, 'communication share, all states (%)'],
    ['e_exchange_events_uj', 'exchange on an open link, events (µJ)', 3],
    ['latency_ms', 'latency (ms)', 3],
    ['pdus_tx', 'LL PDUs sent, exchange', 0],
    ['pdus_rx', 'LL PDUs received, exchange', 0],
    ['conn_events', 'connection events, first to last', 0],
    ['data_frames_tx', 'data frames sent', 0],
    ['acks_tx', 'Imm-Acks sent', 0],
  ];

  const $ = (id) => document.getElementById(id);
  let mod = null;
  let out = [];
  let err = [];
  let profileFigures = {};   // profile name or path -> {field: figure}
  let userProfiles = 0;
  let txDefault = '';        // --tx-dbm's default (applyDefaults)

  // Runs one pqpan command line; returns its exit code, stdout and stderr.
  function run(args) {
    out = [];
    err = [];
    let rc;
    try {
      rc = mod.callMain(args);
    } catch (e) {
      rc = e && e.status !== undefined ? e.status : 1;
      err.push(String(e));
    }
    return { rc: rc, out: out.join('\n'), err: err.join('\n') };
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function svgEl(tag, attrs, title) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (title) {
      const t = document.createElementNS(SVG, 'title');
      t.textContent = title;
      e.appendChild(t);
    }
    return e;
  }

  // ---- controls -> command line ----------------------------------------------------

  function isLowpan() { return $('link').value === '802154'; }

  function energyArgs() {
    const a = ['--profile', $('profile').value, '--currents', $('currents').value,
      '--crypto-impl', $('crypto-impl').value];
    if ($('tx-dbm').value !== '') a.push('--tx-dbm', $('tx-dbm').value);
    return a;
  }

  // pqpan's protocol's options: the mode, the ML-DSA set of the sig modes (when one is
  // chosen), the hybrid suite and, for LE SC or the hybrid, the P-256 row.
  function exchangeArgs() {
    const a = [];
    const lesc = $('kem').value === 'LESC-P256';
    if (!lesc && (isLowpan() || $('protocol').value === 'pqpan')) {
      a.push('--auth', $('auth').value, '--hybrid', $('hybrid').value);
      if (/^sig/.test($('auth').value) && $('sig').value !== '') a.push('--sig', $('sig').value);
    }
    if (lesc || a.indexOf('p256') >= 0) a.push('--p256-impl', $('p256-impl').value);
    if (lesc) a.push('--lesc-keypair', $('lesc-keypair').value);
    return a;
  }

  function linkArgs() {
    if (isLowpan()) {
      return ['--link', '802154', '--kem', $('kem').value, '--csma', $('csma').value,
        '--addr', $('addr').value, '--busy', $('busy').value]
        .concat($('idle').value !== '' ? ['--idle', $('idle').value] : [], exchangeArgs());
    }
    return ['--kem', $('kem').value, '--protocol', $('protocol').value,
      '--phy', $('phy').value, '--att-mtu', $('att-mtu').value,
      '--ll-octets', $('ll-octets').value, '--ci-ms', $('ci-ms').value,
      '--transfer', $('transfer').value, '--keygen-side', $('keygen-side').value]
      .concat(exchangeArgs());
  }

  function currentArgs() { return linkArgs().concat(energyArgs()); }

  function syncControls() {
    const lowpan = isLowpan();
    $('ble-options').hidden = lowpan;
    $('lowpan-options').hidden = !lowpan;
    $('battery-ble').hidden = lowpan;
    $('battery-lowpan').hidden = !lowpan;
    $('protocol').disabled = lowpan;
    const lescKem = $('kem').value === 'LESC-P256';
    const pqke = !lescKem && (lowpan || $('protocol').value === 'pqpan');
    $('auth').disabled = !pqke;
    $('hybrid').disabled = !pqke;
    $('sig').disabled = !pqke || !/^sig/.test($('auth').value);
    $('p256-impl').disabled = !lescKem && !(pqke && $('hybrid').value === 'p256');
    $('lesc-keypair').disabled = !lescKem;
    const lesc = $('kem').querySelector('option[value="LESC-P256"]');
    lesc.disabled = lowpan;
    if (lowpan && $('kem').value === 'LESC-P256') $('kem').value = 'ML-KEM-768';
  }

  // ---- profiles and sources --------------------------------------------------------

  function loadProfileFigures(nameOrPath) {
    if (profileFigures[nameOrPath]) return { ok: true };
    const r = run(['profiles', 'show', nameOrPath, '--format', 'json']);
    if (r.rc !== 0) return { ok: false, rc: r.rc, err: r.err };
    const p = JSON.parse(r.out);
    const byField = {};
    for (const f of p.figures) byField[f.field] = f;
    profileFigures[nameOrPath] = byField;
    return { ok: true, profile: p };
  }

  // TX levels the profile lists for the link and current table
  // (currents.<table>.tx_ua.<N>dbm; ieee802154.tx_ua.<table>.<N>dbm).
  function fillTxLevels() {
    const figs = profileFigures[$('profile').value] || {};
    const sel = $('tx-dbm');
    const keep = sel.value === '' ? txDefault : sel.value;
    const table = $('currents').value === 'radio-only' ? 'radio_only' : 'system';
    const pattern = isLowpan() ? new RegExp('^ieee802154\\.tx_ua\\.' + table + '\\.(-?\\d+)dbm$')
      : new RegExp('^currents\\.' + table + '\\.tx_ua\\.(-?\\d+)dbm$');
    const levels = Object.keys(figs)
      .map((k) => pattern.exec(k))
      .filter(Boolean).map((m) => Number(m[1])).sort((a, b) => b - a);
    sel.textContent = '';
    for (const l of levels) sel.appendChild(el('option', { value: String(l) }, l + ' dBm'));
    if (!levels.length) sel.appendChild(el('option', { value: '0' }, '0 dBm (no TX current in this table: the estimate says so)'));
    sel.value = levels.indexOf(Number(keep)) >= 0 ? keep : (levels.indexOf(0) >= 0 || !levels.length ? '0' : String(levels[0]));
  }

  function figureSource(field) {
    const f = (profileFigures[$('profile').value] || {})[field];
    if (!f) return field + ': not in this profile';
    let s = field + ' = ' + f.value + ': ' + f.source;
    if (f.derived) s += ' (derived: ' + f.derived + ')';
    return s;
  }

  // What a figure is computed from, with the profile's source of each input (as
  // `pqpan profiles show` prints them) and the estimate's own assumptions.
  function sourceOf(field, est) {
    const phyKey = { '1M': 'ble_1m', '2M': 'ble_2m', S2: 'ble_coded', S8: 'ble_coded' }[$('phy').value];
    const table = est.currents === 'radio-only' ? 'radio_only' : 'system';
    const radio = isLowpan()
      ? ['802.15.4 TX ' + est.tx_ua + ' µA: ' + est.tx_source, '802.15.4 RX ' + est.rx_ua + ' µA: ' + est.rx_source]
      : [figureSource('currents.' + table + '.tx_ua.' + est.tx_dbm + 'dbm'),
        figureSource('currents.' + table + '.rx_ua.' + phyKey)];
    const comp = ['cycles: data/cycles tables, implementation ' + est.crypto_impl,
      figureSource('cpu_hz'), figureSource('cpu_ua'), figureSource('supply_v'),
      'γ_comp (assumption): ' + est.gamma_source];
    const events = ['hfxo_start_ua', 'hfxo_start_us', 'ramp_fast_us', 'ble_event.pre_us',
      'ble_event.post_us', 'ble_event.rx_margin_us', 'sleep_ua'].map(figureSource);
    const derived = (est.derived_figures || []).map((d) => 'derived ' + d.field + ' = ' + d.value + ': ' + d.derived)
      .concat((est.other_chip_figures || []).map((d) => 'another chip\'s figure ' + d.field + ' = ' + d.value + ': the ' + d.other_chip));
    const lines = {
      e_comp_uj: ['Σ operations: cycles / cpu_hz × cpu_ua × supply_v × γ_comp'].concat(comp),
      e_comm_uj: ['bits accounting (the study\'s): PDU air time and T_IFS of the exchange × TX/RX current × supply_v × γ_comm ' + est.gamma_comm]
        .concat(radio, [figureSource('supply_v')]),
      e_comm_events_uj: ['events accounting: every connection event\'s radio, HFXO start, ramp-up, CPU pre/post, RX window, sleep and the set-up, no γ']
        .concat(radio, events, derived),
      latency_ms: [isLowpan() ? 'frames, CCA, backoff and turnaround (IEEE 802.15.4-2020) plus crypto CPU time'
        : 'connection events of the link model (Bluetooth Core Vol 6 Part B timing) plus crypto CPU time at cpu_hz'],
      pdus_tx: ['the link model\'s packet schedule (LL, L2CAP, ATT framing: docs/MODEL.md)'],
    };
    lines.e_total_uj = ['computation + communication, bits accounting'].concat(lines.e_comp_uj.slice(1), lines.e_comm_uj.slice(1));
    lines.e_total_events_uj = ['computation + communication, events accounting'].concat(lines.e_comp_uj.slice(1), lines.e_comm_events_uj.slice(1));
    lines.comm_share_pct = ['communication / total, bits accounting'];
    lines.comm_share_events_pct = ['communication / total, events accounting'];
    lines.pdus_rx = lines.pdus_tx;
    lines.conn_events = ['every connection event from the connection\'s first to the exchange\'s last, idle ones included (docs/MODEL.md "Connection events: the count")'];
    lines.data_frames_tx = ['the 6LoWPAN fragmentation of INIT / RESP / FIN (and numeric mode\'s REVEAL) (RFC 4944, RFC 6282)'];
    lines.acks_tx = lines.data_frames_tx;
    return (lines[field] || [field]).join('\n');
  }

  // ---- rendering -------------------------------------------------------------------

  // Charts are drawn at the width they get (text stays 12 px on a phone).
  function chartWidth(box) {
    return Math.round(Math.min(760, Math.max(300, box.clientWidth || 640)));
  }

  // A legend below a chart, in HTML so that it wraps: [swatch class, text] pairs.
  function legend(items) {
    const ul = el('ul', { class: 'legend' });
    for (const [cls, text] of items) {
      const li = el('li');
      li.appendChild(el('span', { class: 'swatch ' + cls, 'aria-hidden': 'true' }));
      li.appendChild(document.createTextNode(text));
      ul.appendChild(li);
    }
    return ul;
  }

  function renderTable(est) {
    const sides = est.sides.map((s) => s.side);
    const thead = $('figures').tHead.rows[0];
    while (thead.cells.length > 1) thead.deleteCell(1);
    for (const s of sides) thead.appendChild(el('th', { scope: 'col' }, s));
    const body = $('figures').tBodies[0];
    body.textContent = '';
    const lowpan = est.link === '802154';
    for (const [field, bleLabel, digits, lowpanLabel] of FIGURES) {
      if (!(field in est.sides[0])) continue;
      const tr = el('tr');
      tr.appendChild(el('th', { scope: 'row', 'data-field': field }, lowpan && lowpanLabel ? lowpanLabel : bleLabel));
      const src = sourceOf(field, est);
      for (const side of est.sides) {
        const td = el('td', { 'data-side': side.side, 'data-field': field, title: src, tabindex: '0' },
          Number(side[field]).toFixed(digits));
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
  }

  function renderVerdicts(est, verdicts) {
    const ul = $('verdicts');
    ul.textContent = '';
    const add = (id, text, title) => ul.appendChild(el('li', { 'data-verdict': id, title: title, tabindex: '0' }, text));
    const total = est.sides[est.sides.length - 1];
    add('configuration', 'configuration valid: pqpan estimate accepts it', 'the same checks as the CLI (exit 0)');
    if (verdicts) {
      const both = verdicts.authenticates_initiator && verdicts.authenticates_responder;
      const none = !verdicts.authenticates_initiator && !verdicts.authenticates_responder;
      const text = $('kem').value === 'LESC-P256'
        ? 'LE Secure Connections baseline: authentication depends on its pairing method (not modelled)'
        : none ? 'NOT authenticated (' + verdicts.auth + '): a man in the middle gets both keys'
          : both ? 'authenticates both sides (' + verdicts.auth + ')'
            : 'authenticates the responder only (' + verdicts.auth + ')';
      add('authentication', text, 'pqpan_pqke_mode_authenticates_responder / _initiator (include/pqpan/pqke.h, docs/PROTOCOL.md)');
    }
    add('ranked', 'pqpan advise ranks by ' + (est.link === '802154'
      ? '"total, all states" (the device\'s, no gamma_comm)'
      : '"exchange on an open link, events" + the link switch there and back') +
      ': a rekey runs on a link that is up, with no advertising or set-up',
    'advise\'s objective (pqpan help advise, docs/CLI.md "advise"); "total, bits" is the study\'s accounting, "total, events" adds the set-up');
    add('share', (total.comm_share_pct >= 50 ? 'communication dominates: ' : 'computation dominates: ') +
      total.comm_share_pct.toFixed(1) + ' % of the energy is communication (bits accounting), ' +
      total.comm_share_events_pct.toFixed(1) + ' % (events accounting)', 'comm_share_pct, comm_share_events_pct of the total');
  }

  function renderBars(est) {
    const box = $('bars');
    box.textContent = '';
    const sides = est.sides.slice(0, 2);
    const rows = [];
    for (const s of sides) {
      rows.push({ label: s.side + ', bits', comp: s.e_comp_uj, comm: s.e_comm_uj, side: s.side, acc: 'bits' });
      rows.push({ label: s.side + ', events', comp: s.e_comp_uj, comm: s.e_comm_events_uj, side: s.side, acc: 'events' });
    }
    const max = Math.max.apply(null, rows.map((r) => r.comp + r.comm)) || 1;
    const W = chartWidth(box), left = 130, rowH = 26, H = rows.length * rowH + 8;
    const svg = svgEl('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img',
      'aria-label': 'Stacked energy per side: computation and communication, both accountings' });
    rows.forEach((r, i) => {
      const y = 6 + i * rowH;
      const scale = (W - left - 70) / max;
      svg.appendChild(svgEl('text', { x: left - 6, y: y + 15, 'text-anchor': 'end', class: 'lbl' })).textContent = r.label;
      svg.appendChild(svgEl('rect', { x: left, y: y, width: r.comp * scale, height: rowH - 8, class: 'comp',
        'data-side': r.side, 'data-acc': r.acc, 'data-part': 'comp' },
      'computation ' + r.comp.toFixed(3) + ' µJ\n' + sourceOf('e_comp_uj', est)));
      svg.appendChild(svgEl('rect', { x: left + r.comp * scale, y: y, width: r.comm * scale, height: rowH - 8,
        class: 'comm-' + r.acc, 'data-side': r.side, 'data-acc': r.acc, 'data-part': 'comm' },
      'communication (' + r.acc + ' accounting) ' + r.comm.toFixed(3) + ' µJ\n' +
        sourceOf(r.acc === 'bits' ? 'e_comm_uj' : 'e_comm_events_uj', est)));
      svg.appendChild(svgEl('text', { x: left + (r.comp + r.comm) * scale + 4, y: y + 15, class: 'val' })).textContent =
        (r.comp + r.comm).toFixed(1) + ' µJ';
    });
    box.appendChild(svg);
    box.appendChild(legend([['comp', 'computation'], ['comm-bits', 'communication, bits accounting'],
      ['comm-events', 'communication, events accounting']]));
  }

  function renderTimeline(tl, why) {
    const box = $('timeline');
    box.textContent = '';
    if (!tl) {
      box.appendChild(el('p', {}, why));
      return;
    }
    const items = tl.schedule.filter((s) => s.t_us >= tl.setup_us);
    const sent = { central: 0, peripheral: 0 };
    // Packets each side sent, counted as the simulator's ledgers count them (pqpan simulate's
    // packets_tx): the ADV_INDs are the peripheral's, the CONNECT_IND is left out.
    for (const s of tl.schedule) if (s.type === 'packet' && s.kind !== 'connect_ind') sent[s.side]++;
    const t0 = tl.setup_us, t1 = Math.max(tl.end_us, t0 + 1);
    const W = chartWidth(box), left = 80, H = 124;
    const x = (t) => left + (t - t0) / (t1 - t0) * (W - left - 10);
    const lane = { central: 20, peripheral: 60 };
    const svg = svgEl('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img',
      'aria-label': 'Connection-event timeline of the exchange: ' + items.length + ' packets and crypto operations' });
    for (const side of ['central', 'peripheral']) {
      svg.appendChild(svgEl('text', { x: left - 6, y: lane[side] + 14, 'text-anchor': 'end', class: 'lbl' })).textContent = side;
    }
    let packets = 0;
    for (const s of items) {
      if (s.type === 'crypto') {
        svg.appendChild(svgEl('rect', { x: x(s.t_us), y: lane[s.side] + 22, width: Math.max(1, x(s.t1_us) - x(s.t_us)), height: 8,
          class: 'crypto' }, s.op + ' on the ' + s.side + ': ' + ((s.t1_us - s.t_us) / 1000).toFixed(3) + ' ms'));
      } else {
        packets++;
        svg.appendChild(svgEl('rect', { x: x(s.t_us), y: lane[s.side], width: 1.2, height: 20,
          class: 'pkt-' + (s.crc_ok ? s.kind : 'crc') },
        s.kind + ' PDU from the ' + s.side + ', ' + s.octets + ' octets on air, t = ' + (s.t_us / 1000).toFixed(3) + ' ms, channel ' + s.rf_channel));
      }
    }
    svg.appendChild(svgEl('line', { x1: left, y1: H - 20, x2: W - 10, y2: H - 20, class: 'axis' }));
    svg.appendChild(svgEl('text', { x: left, y: H - 4, class: 'lbl' })).textContent = (t0 / 1000).toFixed(1) + ' ms';
    svg.appendChild(svgEl('text', { x: (left + W) / 2, y: H - 4, 'text-anchor': 'middle', class: 'lbl', id: 'timeline-axis' }))
      .textContent = 'simulated time (ms)';
    svg.appendChild(svgEl('text', { x: W - 10, y: H - 4, 'text-anchor': 'end', class: 'lbl' })).textContent = (t1 / 1000).toFixed(1) + ' ms';
    box.appendChild(svg);
    box.appendChild(el('p', { class: 'note', id: 'timeline-summary', 'data-conn-events': tl.conn_events,
      'data-latency-ms': tl.latency_ms.toFixed(3), 'data-status': tl.status, 'data-packets-central': sent.central,
      'data-packets-peripheral': sent.peripheral },
      packets + ' packets after the set-up (' + (tl.setup_us / 1000).toFixed(1) + ' ms), ' + tl.conn_events +
      ' connection events in the whole run, simulated latency ' + tl.latency_ms.toFixed(3) +
      ' ms; status ' + tl.status + '. Blue: data PDUs, grey: empty, orange: LL control and advertising, bars: crypto operations. ' +
      ($('kem').value === 'LESC-P256' ? 'Messages: the LE Secure Connections pairing over SMP.'
        : $('protocol').value === 'study' ? 'Messages: the study\'s raw ek and ct (simulate --protocol study).'
          : 'Messages: the real PQKE (simulate --protocol pqpan).')));
  }

  function renderCurve(curve, est) {
    const box = $('curve');
    box.textContent = '';
    if (!curve) {
      box.appendChild(el('p', {}, 'LL payload octets apply to BLE only.'));
      return;
    }
    const W = chartWidth(box), H = 260, left = 60, right = 14, top = 10, bottom = 40;
    const all = [];
    for (const l of curve.levels) for (const k of ['total_e_total_uj', 'total_e_total_events_uj']) for (const v of l[k]) if (v !== null) all.push(v);
    const total = est.sides[est.sides.length - 1];
    all.push(total.e_total_uj, total.e_total_events_uj);
    const ymax = Math.max.apply(null, all) * 1.05, ymin = 0;
    const x = (ll) => left + (ll - 27) / (251 - 27) * (W - left - right);
    const y = (v) => top + (1 - (v - ymin) / (ymax - ymin)) * (H - top - bottom);
    const svg = svgEl('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img',
      'aria-label': 'Total energy of both sides against LL payload octets for ML-KEM-512, 768 and 1024, current choice marked' });
    svg.appendChild(svgEl('line', { x1: left, y1: y(0), x2: W - right, y2: y(0), class: 'axis' }));
    svg.appendChild(svgEl('line', { x1: left, y1: top, x2: left, y2: y(0), class: 'axis' }));
    for (const ll of W < 480 ? [27, 123, 251] : [27, 75, 123, 171, 219, 251]) {
      svg.appendChild(svgEl('text', { x: x(ll), y: H - bottom + 16, 'text-anchor': 'middle', class: 'lbl' })).textContent = ll;
    }
    svg.appendChild(svgEl('text', { x: (left + W) / 2, y: H - 6, 'text-anchor': 'middle', class: 'lbl' })).textContent = 'LL payload octets';
    for (const frac of [0.5, 1]) {
      const v = ymax * frac / 1.05;
      svg.appendChild(svgEl('text', { x: left - 4, y: y(v) + 4, 'text-anchor': 'end', class: 'lbl' })).textContent = v.toFixed(0) + ' µJ';
    }
    for (const l of curve.levels) {
      for (const [k, dash] of [['total_e_total_uj', ''], ['total_e_total_events_uj', '5 4']]) {
        let d = '';
        l[k].forEach((v, i) => { if (v !== null) d += (d ? 'L' : 'M') + x(curve.ll_octets[i]).toFixed(1) + ' ' + y(v).toFixed(1); });
        svg.appendChild(svgEl('path', { d: d, class: 'curve level-' + l.kem,
          'stroke-dasharray': dash, 'data-kem': l.kem, 'data-field': k, 'data-values': JSON.stringify(l[k]) },
        l.kem + ', ' + (dash ? 'events' : 'bits') + ' accounting, both sides (web-curve: model_run per point)'));
      }
    }
    const ll = Number($('ll-octets').value);
    for (const [v, acc] of [[total.e_total_uj, 'bits'], [total.e_total_events_uj, 'events']]) {
      svg.appendChild(svgEl('circle', { cx: x(ll), cy: y(v), r: 6, class: 'current', 'data-acc': acc },
        'current choice: ' + $('kem').value + ', LL ' + ll + ' octets, ' + v.toFixed(3) + ' µJ (' + acc + ' accounting)'));
    }
    box.appendChild(svg);
    box.appendChild(legend(curve.levels.map((l) => ['level-' + l.kem, l.kem]).concat([
      ['mark', 'current choice'], ['none', 'solid: bits accounting, dashed: events accounting; total of both sides']])));
  }

  // ---- battery: pqpan idle with the exchange's energy ------------------------------

  // The figures of the battery table: [JSON field of idle's "battery", label, digits as
  // idle prints them].
  const BATTERY_FIGURES = [
    ['idle_current_ua', 'average current, idle link (µA)', 4],
    ['rekey_current_ua', 'average current, rekeying (µA)', 6],
    ['drain_ua', 'average current, the application and self-discharge (µA)', 6],
    ['avg_current_ua', 'average current, total (µA)', 4],
    ['life_years', 'battery life (years)', 4],
    ['life_idle_years', 'battery life without rekeying (years)', 4],
  ];

  // The value of an option control, or nothing when the field is left empty (the CLI's
  // default then applies).
  function optionArgs(ids) {
    const a = [];
    for (const id of ids) if ($(id).value !== '') a.push('--' + id, $(id).value);
    return a;
  }

  // The battery side in the estimate and the figure advise charges for one exchange
  // there: over BLE the exchange on an open link (events), over 802.15.4 the device's
  // whole exchange (all states), as the "ranked" verdict says.
  function exchangeOf(est) {
    const lowpan = est.link === '802154';
    const side = est.sides.find((s) => s.side === $(lowpan ? 'device-side' : 'role').value);
    const field = lowpan ? 'e_total_events_uj' : 'e_exchange_events_uj';
    return { side: side.side, field: field, uj: side[field].toFixed(3), ms: side.latency_ms.toFixed(3) };
  }

  function batteryArgs(est) {
    const x = exchangeOf(est);
    const link = isLowpan()
      ? ['--link', '802154', '--csma', $('csma').value, '--addr', $('addr').value, '--busy', $('busy').value]
        .concat(optionArgs(['poll-ms']))
      : optionArgs(['idle-ci-ms', 'idle-latency', 'role']);
    const energy = ['--profile', $('profile').value, '--currents', $('currents').value];
    if ($('tx-dbm').value !== '') energy.push('--tx-dbm', $('tx-dbm').value);
    return link.concat(energy, optionArgs(['rekey-every', 'battery-mah', 'app-ua']),
      ['--exchange-uj', x.uj, '--exchange-ms', x.ms]);
  }

  function renderBattery(est) {
    const box = $('battery');
    box.textContent = '';
    const args = batteryArgs(est);
    const x = exchangeOf(est);
    box.appendChild(el('p', { class: 'command', id: 'battery-command' }, 'pqpan idle ' + args.join(' ')));
    const r = run(['idle'].concat(args, ['--format', 'json']));
    if (r.rc !== 0) {
      box.appendChild(el('p', { id: 'battery-error' }, 'pqpan idle refused (exit ' + r.rc + '): ' + r.err));
      return r;
    }
    const b = JSON.parse(r.out).battery;
    const table = el('table', { id: 'battery-figures' });
    const figure = FIGURES.find((f) => f[0] === x.field);
    const label = (est.link === '802154' && figure[3] ? figure[3] : figure[1]).replace(/ \(µJ\)$/, '');
    table.appendChild(el('caption', {}, 'The ' + b.side + ' on a ' + b.battery_mah + ' mAh battery, one key exchange every ' +
      b.rekey_every + ': the ' + x.side + '\'s "' + label + '" of the estimate above, ' + x.uj + ' µJ (' + x.field + ')'));
    const tbody = el('tbody');
    for (const [field, label, digits] of BATTERY_FIGURES) {
      const tr = el('tr');
      tr.appendChild(el('th', { scope: 'row' }, label));
      tr.appendChild(el('td', { 'data-field': field, tabindex: '0',
        title: 'pqpan idle --exchange-uj (pqpan_advise_battery, advise\'s arithmetic)' }, Number(b[field]).toFixed(digits)));
      tbody.appendChild(tr);
    }
    table.appendChild(tbody);
    box.appendChild(table);
    box.appendChild(el('p', { class: 'note', id: 'battery-caveats' }, 'The battery life ' + b.caveats.replace(/^it /, '') +
      '; ' + b.exchange_note + '.'));
    return r;
  }

  // ---- errors at the field that caused them ---------------------------------------

  function clearFieldErrors() {
    for (const e of document.querySelectorAll('#controls .field-error')) e.remove();
    for (const c of document.querySelectorAll('#controls [aria-invalid]')) {
      c.removeAttribute('aria-invalid');
      c.removeAttribute('aria-describedby');
    }
  }

  // Every option a refusal names (--att-mtu) that has a visible control gets the message
  // beside it.
  function showFieldErrors(err) {
    const text = err.split('\n')[0];
    const named = new Set((text.match(/--[a-z0-9-]+/g) || []).map((o) => o.slice(2)));
    for (const id of named) {
      const control = $(id);
      if (!control || !control.closest('#controls') || control.closest('[hidden]') || control.disabled) continue;
      control.setAttribute('aria-invalid', 'true');
      control.setAttribute('aria-describedby', id + '-error');
      control.insertAdjacentElement('afterend', el('span', { class: 'field-error', id: id + '-error', 'data-option': '--' + id }, text));
    }
  }

  function showError(r, cmd) {
    const m = $('message');
    m.textContent = '';
    m.appendChild(el('strong', {}, 'pqpan ' + cmd + ' refused this configuration (exit ' + r.rc + '): '));
    m.appendChild(el('span', { id: 'message-text' }, r.err));
    $('verdicts').textContent = '';
    $('verdicts').appendChild(el('li', { 'data-verdict': 'configuration' }, 'configuration invalid: ' + r.err));
    $('figures').tBodies[0].textContent = '';
    ['bars', 'timeline', 'curve', 'battery'].forEach((id) => { $(id).textContent = ''; });
  }

  // ---- update ----------------------------------------------------------------------

  // The curves do not depend on --kem and --ll-octets (they sweep both): computed again
  // only when another option changed.
  let curveKey = null;
  let curveData = null;
  function curveFor(args) {
    const key = JSON.stringify(args.filter((a, i) => !/^--(kem|ll-octets)$/.test(a) && !/^--(kem|ll-octets)$/.test(args[i - 1])));
    if (key !== curveKey) {
      const c = run(['web-curve'].concat(args));
      curveData = c.rc === 0 ? JSON.parse(c.out) : null;
      curveKey = key;
    }
    return curveData;
  }

  // A request of the run layer (include/pqpan/run.h): the command and its options as
  // [name, value] pairs (the page's command lines are all pairs).
  function requestOf(command, args) {
    const options = [];
    for (let i = 0; i + 1 < args.length; i += 2) options.push([args[i], args[i + 1]]);
    return { command: command, options: options };
  }

  // One request through the WASM entry on the run layer (web-run: pqpan_run): its exit
  // code, its JSON ({members, rows} or {error}) and the CLI's message on stderr.
  function runRequest(request) {
    const r = run(['web-run', JSON.stringify(request)]);
    r.json = r.out ? JSON.parse(r.out) : null;
    return r;
  }

  // estimate's figures as its JSON has them ({...assumptions, sides}), from the run
  // layer's rows (web-run) on either link.
  function runEstimate(args) {
    const r = runRequest(requestOf('estimate', args));
    r.entry = 'web-run';
    if (r.rc === 0) r.est = Object.assign({}, r.json.members, { sides: r.json.rows });
    return r;
  }

  const timings = [];
  function update() {
    syncControls();
    const t0 = performance.now();
    const args = currentArgs();
    $('command').textContent = 'pqpan estimate ' + args.join(' ');
    const r = runEstimate(args);
    document.body.dataset.state = 'updating';
    document.body.dataset.estimateEntry = r.entry;
    clearFieldErrors();
    if (r.rc !== 0) {
      showError(r, 'estimate');
      showFieldErrors(r.err);
    } else {
      $('message').textContent = '';
      const est = r.est;
      renderTable(est);
      // What the exchange authenticates, from the library (web-verdicts): over 802.15.4 the
      // exchange is pqpan's protocol in the mode the estimate names.
      const v = run(['web-verdicts'].concat(isLowpan()
        ? ['--protocol', 'pqpan', '--auth', est.sides[0].auth] : args));
      const verdicts = v.rc === 0 ? JSON.parse(v.out) : null;
      renderVerdicts(est, verdicts);
      const idle = renderBattery(est);
      if (idle.rc !== 0) showFieldErrors(idle.err);
      renderBars(est);
      if (isLowpan()) {
        renderTimeline(null, 'The timeline shows the BLE packet simulator; for 802.15.4 use pqpan simulate --link 802154 (Monte Carlo).');
        renderCurve(null, est);
      } else {
        const tl = run(['web-timeline'].concat(args));
        const sim = tl.rc === 0 ? JSON.parse(tl.out) : null;
        renderTimeline(sim, 'Not simulated: ' + tl.err);
        if (sim && sim.status !== 'completed') {
          $('verdicts').appendChild(el('li', { 'data-verdict': 'simulation', tabindex: '0',
            title: 'web-timeline: the packet simulator (pqpan simulate) on this configuration' },
          'the packet simulator\'s run of this exchange fails: ' + sim.status +
            ' (the analytic estimate above does not model it)'));
        }
        renderCurve(curveFor(args), est);
      }
    }
    const ms = performance.now() - t0;
    timings.push(ms);
    $('timing').textContent = 'updated in ' + ms.toFixed(1) + ' ms';
    document.body.dataset.state = 'ready';
    document.body.dataset.updates = String(timings.length);
  }

  // ---- user files ------------------------------------------------------------------

  // A file the page's runs read (a device profile, a PPK2 capture for trace or calibrate)
  // written into the module's file system at path (absolute, or relative to its working
  // directory "/"), its directories made.
  function putFile(path, data) {
    const parts = path.split('/').filter((p) => p !== '');
    let dir = path.startsWith('/') ? '' : mod.FS.cwd().replace(/\/$/, '');
    for (const p of parts.slice(0, -1)) {
      dir += '/' + p;
      try { mod.FS.mkdir(dir); } catch (e) { /* exists */ }
    }
    mod.FS.writeFile(dir + '/' + parts[parts.length - 1], data);
  }

  // ---- user profile ----------------------------------------------------------------

  function loadUserProfile(file) {
    const reader = new FileReader();
    reader.onload = () => {
      const path = '/user/' + file.name.replace(/[^A-Za-z0-9._-]/g, '_');
      putFile(path, new Uint8Array(reader.result));
      delete profileFigures[path];
      curveKey = null;
      const r = loadProfileFigures(path);
      const m = $('message');
      if (!r.ok) {
        m.textContent = '';
        m.appendChild(el('strong', {}, 'profile ' + file.name + ' refused (exit ' + r.rc + '): '));
        m.appendChild(el('span', { id: 'message-text' }, r.err));
        return;
      }
      let opt = $('profile').querySelector('option[value="' + path + '"]');
      if (!opt) {
        opt = el('option', { value: path }, 'your file: ' + file.name + ' (' + r.profile.name + ')');
        $('profile').appendChild(opt);
        userProfiles++;
      }
      $('profile').value = path;
      fillTxLevels();
      update();
    };
    reader.readAsArrayBuffer(file);
  }

  // ---- start -----------------------------------------------------------------------

  // The controls start from the CLI's defaults (`pqpan help --json`: the library's table
  // of defaults, docs/CLI.md "Defaults"): a control whose id names an option of estimate
  // takes that option's default value.
  // The battery controls take idle's defaults the same way (its own options and the
  // battery options it shares with advise); a control without a default value shows the
  // CLI's note as its placeholder.
  function applyDefaults() {
    const help = JSON.parse(run(['help', '--json']).out);
    for (const name of ['idle', 'estimate']) {
      const command = help.commands.find((c) => c.name === name);
      for (const g of command.groups) {
        for (const o of g.table.options) {
          const control = $(o.name.replace(/^--/, ''));
          if (!control || control.type === 'file') continue;
          if (o.default === null) {
            if (o.default_note && control.tagName === 'INPUT') control.placeholder = 'default: ' + o.default_note;
            continue;
          }
          if (o.name === '--tx-dbm') txDefault = o.default;
          control.value = o.default;
        }
      }
    }
  }

  function start() {
    const v = run(['--version']);
    $('version').textContent = v.out.trim().replace(/^pqpan\s*/, '');
    const list = JSON.parse(run(['profiles', '--format', 'json']).out);
    for (const p of list) {
      $('profile').appendChild(el('option', { value: p.name }, p.name + ': ' + p.description));
      loadProfileFigures(p.name);
    }
    applyDefaults();
    syncControls();
    fillTxLevels();
    $('controls').addEventListener('change', (e) => {
      if (e.target.id === 'profile-file') return;
      if (e.target.id === 'profile' || e.target.id === 'link' || e.target.id === 'currents') {
        syncControls();
        fillTxLevels();
      }
      update();
    });
    $('controls').addEventListener('input', (e) => {
      if (e.target.type === 'number' && e.target.value !== '') update();
    });
    $('controls').addEventListener('submit', (e) => e.preventDefault());
    $('profile-file').addEventListener('change', (e) => {
      if (e.target.files.length) loadUserProfile(e.target.files[0]);
    });
    // The charts follow the page's width: redrawn when it changes (a phone turned round).
    let drawnWidth = chartWidth($('bars'));
    let resizeTimer = 0;
    window.addEventListener('resize', () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => {
        if (chartWidth($('bars')) !== drawnWidth) {
          drawnWidth = chartWidth($('bars'));
          update();
        }
      }, 100);
    });
    update();
    window.pqpanPage = { run: run, runRequest: runRequest, putFile: putFile, update: update, timings: timings };
  }

  createPqpan({
    print: (l) => out.push(l),
    printErr: (l) => err.push(l),
  }).then((m) => { mod = m; start(); });
})();
