/* pqpan advise: the search space, one configuration's cost and the search (advise.h). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "run_advise.h"
#include "chain.h"
#include "link.h"
#include "pqpan/kem.h"
#include "pqpan/pqke.h"
#include "pqpan/sig.h"

const char *advise_kem_name(int k)
{
    return pqpan_kem_at((size_t)k)->name;
}

unsigned advise_category(int k)
{
    return pqpan_kem_at((size_t)k)->security_category;
}

int advise_is_battery(const struct advise_opts *o, enum pqpan_ble_role role)
{
    return o->battery == ADV_BATTERY_BOTH ||
           (o->battery == ADV_BATTERY_PERIPHERAL) == (role == PQPAN_BLE_PERIPHERAL);
}

/* ---- loading ---- */

/* Whether env prices a link on phy: TX at its level, RX and radio start-up of the mode. */
static int phy_priced(const struct model_env *env, enum pqpan_ble_phy phy)
{
    struct pqpan_ledger l;
    struct pqpan_energy e;
    struct cli_msg msg;
    pqpan_ledger_init(&l);
    l.ns[PQPAN_PHASE_KEY_TRANSFER][PQPAN_STATE_TX] = 1u;
    l.ns[PQPAN_PHASE_KEY_TRANSFER][PQPAN_STATE_RX] = 1u;
    l.ns[PQPAN_PHASE_KEY_TRANSFER][PQPAN_STATE_RAMP_RX] = 1u;
    return model_energy(&e, &l, env, model_radio_of(phy), &msg) == EXIT_OK;
}

/* The peer's PHYs that both profiles price (c->grid.priced_phys); the others are named in
 * c->dropped_phys. */
static int load_phys(struct advise_ctx *c)
{
    int phy;
    c->grid.priced_phys = 0;
    for (phy = 0; phy < PQPAN_BLE_PHY_COUNT; phy++) {
        enum pqpan_ble_phy p = (enum pqpan_ble_phy)phy;
        if (!(c->o->peer_phys & (1u << phy))) {
            continue;
        }
        if (phy_priced(c->env[0], p) && phy_priced(c->env[1], p)) {
            c->grid.priced_phys |= 1u << phy;
        } else {
            size_t n = strlen(c->dropped_phys);
            snprintf(c->dropped_phys + n, sizeof c->dropped_phys - n, "%s%s", n ? " " : "",
                     pqpan_ble_phy_name(p));
        }
    }
    if (!(c->grid.priced_phys & (1u << c->o->idle.phy))) {
        return cli_msg_set(c->msg, EXIT_USAGE, "empty search space: a profile gives no current for the "
                                        "idle link's PHY %s (--currents %s, --tx-dbm %d)",
                               pqpan_ble_phy_name(c->o->idle.phy),
                               pqpan_current_table_name(c->o->m.table), c->o->m.tx_dbm);
    }
    return EXIT_OK;
}

/* The variants searched: every allowed mode, alone and (--hybrid) with P-256, in the
 * order of enum pqpan_pqke_mode; the study protocol has mode none only. */
static void load_variants(struct advise_ctx *c)
{
    unsigned mode;
    int h;
    c->n_variant = 0;
    if (c->o->protocol == PQPAN_BLE_PROTO_STUDY) {
        c->variant[c->n_variant].mode = PQPAN_PQKE_MODE_NONE;
        c->variant[c->n_variant++].hybrid = 0;
        return;
    }
    for (mode = PQPAN_PQKE_MODE_NONE; mode <= PQPAN_PQKE_MODE_NUMERIC; mode++) {
        for (h = 0; h < 2; h++) {
            if ((c->o->auth_modes & PQPAN_PQKE_MODE_BIT(mode)) &&
                (c->o->hybrids & (h ? ADV_HYBRID_P256 : ADV_HYBRID_NONE))) {
                c->variant[c->n_variant].mode = mode;
                c->variant[c->n_variant++].hybrid = h;
            }
        }
    }
}

/* The cycles of level k's exchange in variant v, and its message sizes, from the timing
 * device's tables (model_setup, as estimate). */
static int load_level_variant(struct advise_ctx *c, int k, size_t v)
{
    struct pqpan_ble_config cfg;
    struct cli_msg msg;
    pqpan_ble_config_default(&cfg);
    cfg.protocol = c->o->protocol;
    cfg.pqke_mode = c->variant[v].mode;
    cfg.pqke_hybrid = c->variant[v].hybrid;
    cfg.pqke_sig = model_is_sig_mode(cfg.pqke_mode) ? c->sig[k] : 0u;
    if (advise_report(c, model_setup(c->cycles[k][v], &cfg, c->timing, advise_kem_name(k), &msg),
                       &msg) != EXIT_OK) {
        return EXIT_USAGE;
    }
    c->ek_bytes[k] = cfg.ek_bytes;
    c->ct_bytes[k] = cfg.ct_bytes;
    return EXIT_OK;
}

static int load_levels(struct advise_ctx *c)
{
    int k, rc = EXIT_OK;
    size_t v;
    load_variants(c);
    for (k = 0; k < ADV_LEVELS && rc == EXIT_OK; k++) {
        c->sig[k] = c->o->sig != 0u ? c->o->sig : model_sig_for_kem(pqpan_kem_at((size_t)k));
        for (v = 0; v < c->n_variant && rc == EXIT_OK; v++) {
            rc = load_level_variant(c, k, v);
        }
    }
    return rc;
}

/* The idle link's average current on each side (src/ble/idle.c, as `pqpan idle`). */
static int load_idle(struct advise_ctx *c)
{
    int role;
    for (role = 0; role < 2; role++) {
        const struct model_env *env = c->env[role];
        struct pqpan_ble_idle idle;
        struct pqpan_energy e;
        struct cli_msg msg;
        int rc;
        if (pqpan_ble_idle(&idle, &c->o->idle, &env->dev) != PQPAN_OK) {
            return cli_msg_set(c->msg, EXIT_USAGE, "idle link: the window widening over (--idle-latency + "
                                            "1) x --idle-ci-ms reaches half the interval at %s's "
                                            "sleep clock accuracy (Core v5.4 Vol 6 Part B §4.2.4)",
                                   env->in.profile.name);
        }
        rc = model_energy(&e, &idle.ledger[role], env, model_radio_of(c->o->idle.phy), &msg);
        if (advise_report(c, rc, &msg) != EXIT_OK) {
            return rc;
        }
        c->idle_ua[role] = e.comm_events_uj / env->in.profile.supply_v /
                           ((double)idle.period_ns * 1e-9);
    }
    return EXIT_OK;
}

/* ATT_MTU grid: 23, 55, ..., 503 (steps of 32, so 247 = LL 251 - the L2CAP header is on
 * it) and 517, those the peer allows, and the peer's maximum. */
static void load_mtu_grid(struct advise_grid *g, uint32_t peer_max)
{
    uint32_t m;
    g->n_mtu = 0;
    for (m = PQPAN_ATT_DEFAULT_MTU; m <= PQPAN_ATT_MAX_MTU; m = m == 503u ? 517u : m + 32u) {
        if (m <= peer_max) {
            g->mtu[g->n_mtu++] = m;
        }
        if (m == PQPAN_ATT_MAX_MTU) {
            break;
        }
    }
    if (g->mtu[g->n_mtu - 1u] != peer_max) {
        g->mtu[g->n_mtu++] = peer_max;
    }
}

/* Inserts v into the sorted set a[0..*n) (capacity cap) unless it is there; returns its
 * index. */
static size_t set_insert_u64(uint64_t *a, size_t *n, size_t cap, uint64_t v)
{
    size_t i = 0, j;
    while (i < *n && a[i] < v) {
        i++;
    }
    if (i < *n && a[i] == v) {
        return i;
    }
    if (*n == cap) {
        return cap; /* not reached: the grids below stay under their capacity */
    }
    for (j = *n; j > i; j--) {
        a[j] = a[j - 1u];
    }
    a[i] = v;
    ++*n;
    return i;
}

/* LL payload grid: 27, 59, ..., 251 (steps of 32) up to the peer's maximum, that maximum
 * and the idle link's size. */
static void load_ll_grid(struct advise_grid *g, const struct advise_opts *o)
{
    uint64_t v[ADV_LL_MAX];
    size_t n = 0, i;
    uint32_t ll;
    for (ll = PQPAN_LL_DATA_MIN_PAYLOAD; ll <= o->peer_max_ll; ll += 32u) {
        set_insert_u64(v, &n, ADV_LL_MAX, ll);
    }
    set_insert_u64(v, &n, ADV_LL_MAX, o->peer_max_ll);
    set_insert_u64(v, &n, ADV_LL_MAX, o->idle_ll_octets);
    for (i = 0; i < n; i++) {
        g->ll[i] = (uint32_t)v[i];
        if (v[i] == o->idle_ll_octets) {
            g->idle_ll = i;
        }
    }
    g->n_ll = n;
}

/* Connection interval grid: 7.5, 15, 30, 50, 100, 200, 500 ms and the idle link's interval. */
static void load_ci_grid(struct advise_grid *g, const struct advise_opts *o)
{
    static const uint64_t ci_ns[] = {7500000u,  15000000u,  30000000u, 50000000u,
                                     100000000u, 200000000u, 500000000u};
    size_t i;
    g->n_ci = 0;
    for (i = 0; i < sizeof ci_ns / sizeof ci_ns[0]; i++) {
        set_insert_u64(g->ci_ns, &g->n_ci, ADV_CI_MAX, ci_ns[i]);
    }
    g->idle_ci = set_insert_u64(g->ci_ns, &g->n_ci, ADV_CI_MAX, o->idle.ci_ns);
}

/* The exchange runs on any PHY both profiles price for the peer, any LL size and interval
 * of the grids; the link switches there from the idle settings and back. */
static void load_grid(struct advise_ctx *c)
{
    struct advise_grid *g = &c->grid;
    int phy;
    g->n_phy = 0;
    for (phy = 0; phy < PQPAN_BLE_PHY_COUNT; phy++) {
        if (g->priced_phys & (1u << phy)) {
            if (phy == (int)c->o->idle.phy) {
                g->idle_phy = g->n_phy;
            }
            g->phy[g->n_phy++] = (enum pqpan_ble_phy)phy;
        }
    }
    load_ll_grid(g, c->o);
    load_ci_grid(g, c->o);
    load_mtu_grid(g, c->o->peer_max_mtu);
}

static int load_envs(struct advise_ctx *c)
{
    struct model_opts peer = c->o->m;
    struct model_env *dev, *other;
    int rc = advise_report(c, model_env_new_msg(&dev, &c->o->m, c->msg), c->msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    other = dev;
    if (c->o->peer_profile != NULL) {
        peer.profile = c->o->peer_profile;
        rc = advise_report(c, model_env_new_msg(&other, &peer, c->msg), c->msg);
        if (rc != EXIT_OK) {
            free(dev);
            return rc;
        }
    }
    /* --profile is the battery-powered side; with both sides on batteries, the peripheral. */
    c->env[PQPAN_BLE_PERIPHERAL] = c->o->battery == ADV_BATTERY_CENTRAL ? other : dev;
    c->env[PQPAN_BLE_CENTRAL] = c->o->battery == ADV_BATTERY_CENTRAL ? dev : other;
    c->timing = dev;
    c->dev_role = c->o->battery == ADV_BATTERY_CENTRAL ? PQPAN_BLE_CENTRAL : PQPAN_BLE_PERIPHERAL;
    return EXIT_OK;
}

/* 802.15.4: both profiles price the radio in 802.15.4 mode, and the device's poll. */
static int load_802154(struct advise_ctx *c)
{
    struct pqpan_802154_poll p;
    struct pqpan_802154_poll_charge q;
    double ua[PQPAN_STATE_COUNT];
    struct cli_msg msg;
    int role, rc, k;
    for (role = 0; role < 2; role++) {
        struct pqpan_ledger l;
        struct pqpan_energy e;
        pqpan_ledger_init(&l);
        l.ns[PQPAN_PHASE_KEY_TRANSFER][PQPAN_STATE_TX] = 1u;
        l.ns[PQPAN_PHASE_KEY_TRANSFER][PQPAN_STATE_RX] = 1u;
        rc = model_energy(&e, &l, c->env[role], PQPAN_RADIO_IEEE802154, &msg);
        if (rc != EXIT_OK) {
            return cli_msg_set(c->msg, EXIT_USAGE, "empty search space on 802.15.4: %s", msg.text);
        }
    }
    if (c->o->lowpan.hops > 1 && !lowpan_backoff_listens(&c->o->lowpan, c->timing)) {
        return cli_msg_set(c->msg, EXIT_USAGE, "--hops %d needs a radio that listens in a CSMA-CA "
                                               "backoff, and profile %s's ieee802154.backoff "
                                               "sleeps: add --backoff listen (forwarders are "
                                               "always-on routers, docs/MODEL.md \"Multi-hop "
                                               "6LoWPAN\")",
                           c->o->lowpan.hops, c->timing->in.profile.name);
    }
    c->poll_ms = c->o->poll_ms;
    for (k = 0; k < 2; k++) {
        struct lowpan_opts lo = c->o->lowpan;
        lo.short_addr = k;
        rc = lowpan_poll(&p, &q, ua, c->timing, &lo, c->poll_ms, &msg);
        if (rc != EXIT_OK) {
            return cli_msg_set(c->msg, EXIT_USAGE, "802.15.4 poll: %s", msg.text);
        }
        c->idle154_ua[k] = q.avg_ua;
    }
    return EXIT_OK;
}

/* One side's events-accounting energy of a round trip: each procedure's phase priced at
 * the currents of the PHY it runs on. */
static int price_round_trip(double *uj, const struct pqpan_advise_round_trip *rt,
                            const struct model_env *env, enum pqpan_ble_role role,
                            struct cli_msg *msg)
{
    int leg, ph;
    *uj = 0.0;
    for (leg = 0; leg < PQPAN_ADVISE_LEGS; leg++) {
        for (ph = 0; ph < PQPAN_PHASE_COUNT; ph++) {
            struct pqpan_ledger part;
            struct pqpan_energy e;
            int rc;
            if (!(rt->procedures[leg] & (1u << ph))) {
                continue;
            }
            pqpan_advise_ledger_phases(&part, &rt->led[leg][role], 1u << ph);
            rc = model_energy(&e, &part, env, model_radio_of(rt->phy[leg][ph]), msg);
            if (rc != EXIT_OK) {
                return rc;
            }
            *uj += e.total_events_uj;
        }
    }
    return EXIT_OK;
}

/* The switch to grid point (phy, ll, ci) and back, for every point. */
static int load_switches(struct advise_ctx *c)
{
    const struct advise_grid *g = &c->grid;
    struct pqpan_ble_link_settings idle, opt;
    struct pqpan_ble_config def;
    size_t p, l, k;
    pqpan_ble_config_default(&def);
    idle.phy = c->o->idle.phy;
    idle.ll_octets = c->o->idle_ll_octets;
    idle.ci_ns = c->o->idle.ci_ns;
    for (p = 0; p < g->n_phy; p++) {
        for (l = 0; l < g->n_ll; l++) {
            for (k = 0; k < g->n_ci; k++) {
                struct advise_switch *sw = &c->sw[p][l][k];
                struct pqpan_advise_round_trip rt;
                struct cli_msg msg;
                int role, rc;
                opt.phy = g->phy[p];
                opt.ll_octets = g->ll[l];
                opt.ci_ns = g->ci_ns[k];
                if (pqpan_advise_round_trip(&rt, &idle, &opt, def.same_event_reply,
                                            &c->timing->dev) != PQPAN_OK) {
                    return cli_msg_set(c->msg, EXIT_USAGE, "link switch out of range");
                }
                for (role = 0; role < 2; role++) {
                    rc = price_round_trip(&sw->uj[role], &rt, c->env[role],
                                          (enum pqpan_ble_role)role, &msg);
                    if (advise_report(c, rc, &msg) != EXIT_OK) {
                        return rc;
                    }
                }
                sw->there_ms = (double)rt.span_ns[PQPAN_ADVISE_THERE] * 1e-6;
                sw->back_ms = (double)rt.span_ns[PQPAN_ADVISE_BACK] * 1e-6;
                sw->procedures = rt.procedures[PQPAN_ADVISE_THERE];
                sw->llctrl_pdus = rt.counts.llctrl_pdus[0] + rt.counts.llctrl_pdus[1];
            }
        }
    }
    return EXIT_OK;
}

/* The ways to send (advise.h struct advise_send): every --transfer choice with KeyGen on
 * the peripheral, then on the central, that GATT can build with the peripheral as the
 * server (Core v5.4 Vol 3 Part G §2.2: only the server notifies or indicates, only the
 * client writes). */
static void load_sends(struct advise_ctx *c)
{
    static const enum pqpan_ble_role sides[2] = {PQPAN_BLE_PERIPHERAL, PQPAN_BLE_CENTRAL};
    struct pqpan_ble_config cfg;
    unsigned i;
    int k;
    pqpan_ble_config_default(&cfg);
    c->n_sends = 0;
    for (i = 0; pqpan_ble_transfer_choice(i, &cfg.server_transfer, &cfg.client_transfer) != NULL;
         i++) {
        for (k = 0; k < 2; k++) {
            cfg.keygen_side = sides[k];
            if (pqpan_ble_config_gatt_fault(&cfg, NULL) == PQPAN_BLE_GATT_OK) {
                struct advise_send *w = &c->sends[c->n_sends++];
                w->server = cfg.server_transfer;
                w->client = cfg.client_transfer;
                w->keygen = cfg.keygen_side;
            }
        }
    }
}

/* BLE: the PHYs, the idle connection, the grid, the ways to send and the switches to the
 * grid's points. */
static int load_ble(struct advise_ctx *c)
{
    const struct advise_grid *g = &c->grid;
    int rc = load_phys(c);
    if (rc == EXIT_OK) {
        rc = load_idle(c);
    }
    if (rc == EXIT_OK) {
        load_grid(c);
        load_sends(c);
        rc = load_switches(c);
        c->n_ble = (uint32_t)(ADV_LEVELS * c->n_variant * g->n_phy * g->n_ll * g->n_mtu *
                              g->n_ci * c->n_sends);
    }
    return rc;
}

void advise_ctx_free(struct advise_ctx *c)
{
    if (c->env[0] != c->env[1]) {
        free(c->env[1]);
    }
    free(c->env[0]);
    c->env[0] = c->env[1] = NULL;
}

int advise_report(const struct advise_ctx *c, int rc, const struct cli_msg *m)
{
    if (rc != EXIT_OK && m != c->msg) {
        *c->msg = *m;
    }
    return rc;
}

int advise_ctx_load(struct advise_ctx *c, const struct advise_opts *o, struct cli_msg *msg)
{
    int rc;
    memset(c, 0, sizeof *c);
    c->o = o;
    c->msg = msg;
    rc = load_envs(c);
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = load_levels(c);
    if (rc == EXIT_OK && (o->links & ADV_LINK_BLE)) {
        rc = load_ble(c);
    }
    if (rc == EXIT_OK && (o->links & ADV_LINK_802154)) {
        rc = load_802154(c);
    }
    if (rc != EXIT_OK) {
        advise_ctx_free(c);
    }
    return rc;
}

/* ---- the space ---- */

uint32_t advise_space_size(const struct advise_ctx *c)
{
    return c->n_ble +
           ((c->o->links & ADV_LINK_802154) ? (uint32_t)(ADV_802154_CONFIGS * c->n_variant) : 0u);
}

enum pqpan_ble_role advise_other_role(enum pqpan_ble_role r)
{
    return r == PQPAN_BLE_CENTRAL ? PQPAN_BLE_PERIPHERAL : PQPAN_BLE_CENTRAL;
}

/* 802.15.4 id k: level, variant, then addressing (extended, short), then KeyGen on the
 * device or on its peer. */
static void cfg_802154(struct advise_cfg *cfg, const struct advise_ctx *c, uint32_t k)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->link = ADV_LINK_802154;
    cfg->keygen = k % 2u == 0u ? c->dev_role : advise_other_role(c->dev_role);
    cfg->short_addr = (int)(k / 2u % 2u);
    cfg->variant = k / 4u % c->n_variant;
    cfg->level = (int)(k / 4u / c->n_variant);
}

void advise_cfg_of(struct advise_cfg *cfg, const struct advise_ctx *c, uint32_t id)
{
    const struct advise_grid *g = &c->grid;
    size_t i = id;
    if (id >= c->n_ble) {
        cfg_802154(cfg, c, id - c->n_ble);
        return;
    }
    memset(cfg, 0, sizeof *cfg);
    cfg->link = ADV_LINK_BLE;
    cfg->i_send = i % c->n_sends;
    cfg->server_transfer = c->sends[cfg->i_send].server;
    cfg->client_transfer = c->sends[cfg->i_send].client;
    cfg->keygen = c->sends[cfg->i_send].keygen;
    i /= c->n_sends;
    cfg->i_ci = i % g->n_ci;
    cfg->ci_ns = g->ci_ns[cfg->i_ci];
    i /= g->n_ci;
    cfg->att_mtu = g->mtu[i % g->n_mtu];
    i /= g->n_mtu;
    cfg->i_ll = i % g->n_ll;
    cfg->ll_octets = g->ll[cfg->i_ll];
    i /= g->n_ll;
    cfg->i_phy = i % g->n_phy;
    cfg->phy = g->phy[cfg->i_phy];
    i /= g->n_phy;
    cfg->variant = i % c->n_variant;
    cfg->level = (int)(i / c->n_variant);
}

/* ---- one configuration ---- */

/* The highest current (uA) the energy model charges among the states exchange ledger l
 * spends time in, with env's currents on radio (the profile's figures: a system-level TX
 * current includes the CPU and the crystal). */
static int ledger_peak(double *ua, const struct pqpan_ledger *l, const struct model_env *env,
                       enum pqpan_radio_mode radio, struct cli_msg *msg)
{
    struct pqpan_energy_opts o = env->eopts;
    int st;
    o.radio = radio;
    *ua = 0.0;
    for (st = 0; st < PQPAN_STATE_COUNT; st++) {
        double s_ua;
        if (pqpan_ledger_state_ns(l, (enum pqpan_state)st) == 0u) {
            continue;
        }
        if (pqpan_energy_state_ua(&s_ua, &env->in.profile, &o, (enum pqpan_state)st) != PQPAN_OK) {
            return cli_msg_set(msg, EXIT_USAGE, "profile %s: no current for a state of the "
                                                "exchange", env->in.profile.name);
        }
        *ua = s_ua > *ua ? s_ua : *ua;
    }
    return EXIT_OK;
}

/* Prices role's side of an exchange from its ledger l (the exchange's phases only) into
 * *ev, and its peak current into peak_ua[role] unless peak_ua is NULL (the search needs
 * none). */
static int price_side(struct advise_eval *ev, double *peak_ua, const struct advise_ctx *c,
                      int role, const struct pqpan_ledger *l, enum pqpan_radio_mode radio,
                      struct cli_msg *msg)
{
    struct pqpan_energy e;
    int p, rc = model_energy(&e, l, c->env[role], radio, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    ev->e_uj[role] = e.total_events_uj;
    ev->exchange_uj[role] = e.total_events_uj;
    for (p = 0; p < PQPAN_PHASE_COUNT; p++) {
        ev->t_s[role] += (double)pqpan_ledger_phase_ns(l, (enum pqpan_phase)p) * 1e-9;
    }
    if (advise_is_battery(c->o, (enum pqpan_ble_role)role)) {
        ev->objective_uj += ev->e_uj[role];
    }
    return peak_ua != NULL ? ledger_peak(&peak_ua[role], l, c->env[role], radio, msg) : EXIT_OK;
}

static void set_exchange_latency(struct advise_eval *ev, uint64_t latency_ns)
{
    ev->exchange_latency_ms = (double)latency_ns * 1e-6;
    ev->latency_ms = ev->exchange_latency_ms;
    ev->idle_again_ms = ev->exchange_latency_ms;
}

static int eval_config(struct advise_eval *ev, double *peak_ua, const struct advise_ctx *c,
                       const struct pqpan_ble_config *bc, int level, size_t v, struct cli_msg *msg)
{
    struct pqpan_ble_estimate est;
    int role, rc = EXIT_OK;
    memset(ev, 0, sizeof *ev);
    ev->link = ADV_LINK_BLE;
    if (pqpan_ble_estimate_pqke(&est, bc, &c->timing->dev, c->cycles[level][v]) != PQPAN_OK) {
        return EXIT_FAILURE_RUN;
    }
    for (role = 0; role < 2 && rc == EXIT_OK; role++) {
        struct pqpan_ledger ex;
        pqpan_advise_ledger_phases(&ex, &est.ledger[role], PQPAN_ADVISE_EXCHANGE_PHASES);
        rc = price_side(ev, peak_ua, c, role, &ex, model_radio_of(bc->phy), msg);
    }
    set_exchange_latency(ev, est.latency_ns);
    return rc;
}

static void base_config(struct pqpan_ble_config *bc, const struct advise_ctx *c, int level,
                        size_t v)
{
    pqpan_ble_config_default(bc);
    bc->protocol = c->o->protocol;
    bc->ek_bytes = c->ek_bytes[level];
    bc->ct_bytes = c->ct_bytes[level];
    bc->pqke_mode = c->variant[v].mode;
    bc->pqke_hybrid = c->variant[v].hybrid;
    bc->pqke_sig = model_is_sig_mode(bc->pqke_mode) ? c->sig[level] : 0u;
}

/* The link model's configuration of BLE configuration cfg. */
static void ble_config_of(struct pqpan_ble_config *bc, const struct advise_ctx *c,
                          const struct advise_cfg *cfg)
{
    base_config(bc, c, cfg->level, cfg->variant);
    bc->phy = cfg->phy;
    bc->ll_octets = cfg->ll_octets;
    bc->att_mtu = cfg->att_mtu;
    bc->server_transfer = cfg->server_transfer;
    bc->client_transfer = cfg->client_transfer;
    bc->ci_ns = cfg->ci_ns;
    bc->keygen_side = cfg->keygen;
}

/* The 802.15.4 options of configuration cfg: --link 802154's, its level, addressing and
 * variant. */
static void lowpan_opts_of(struct lowpan_opts *lo, const struct advise_ctx *c,
                           const struct advise_cfg *cfg)
{
    *lo = c->o->lowpan;
    lo->kem = advise_kem_name(cfg->level);
    lo->short_addr = cfg->short_addr;
    lo->pqke.mode = c->variant[cfg->variant].mode;
    lo->pqke.hybrid = c->variant[cfg->variant].hybrid;
    lo->pqke.sig = model_is_sig_mode(lo->pqke.mode) ? c->sig[cfg->level] : 0u;
}

/* One exchange over 802.15.4 (`estimate --link 802154`): the device's timing and CPU, each
 * node priced with its own profile; every phase of the estimator's ledgers is the
 * exchange's. */
static int eval_one_link(struct advise_eval *ev, double *peak_ua, const struct advise_ctx *c,
                         const struct advise_cfg *cfg, const struct lowpan_opts *lo,
                         struct cli_msg *msg)
{
    struct pqpan_802154_est_config ec;
    struct pqpan_802154_estimate est;
    uint64_t cycles[PQPAN_OP_COUNT];
    int role, rc = lowpan_setup(&ec, cycles, c->timing, lo, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (pqpan_802154_estimate_pqke(&est, &ec, cycles) != PQPAN_OK) {
        return EXIT_FAILURE_RUN;
    }
    for (role = 0; role < 2 && rc == EXIT_OK; role++) {
        const struct pqpan_ledger *l =
            &est.ledger[role == (int)cfg->keygen ? PQPAN_802154_INITIATOR : PQPAN_802154_RESPONDER];
        rc = price_side(ev, peak_ua, c, role, l, PQPAN_RADIO_IEEE802154, msg);
    }
    set_exchange_latency(ev, est.latency_ns);
    return rc;
}

/* The forwarders of chain estimate e (nodes 1 .. hops - 1), each priced with the peer's
 * profile as estimate --hops prices every node (all-states accounting). */
static int price_forwarders(struct advise_eval *ev, const struct advise_ctx *c,
                            const struct pqpan_802154_chain_estimate *e, struct cli_msg *msg)
{
    const struct model_env *peer = c->env[advise_other_role(c->dev_role)];
    unsigned n;
    int rc = EXIT_OK;
    for (n = 1; n < ev->hops && rc == EXIT_OK; n++) {
        struct pqpan_energy en;
        rc = model_energy(&en, &e->ledger[n], peer, PQPAN_RADIO_IEEE802154, msg);
        ev->forwarder_uj[n] = en.total_events_uj;
    }
    return rc;
}

/* The exchange across a chain of lo->hops hops (`estimate --link 802154 --hops H`, the chain
 * model of src/ieee802154/multihop.c): the node that runs KeyGen is the initiator (node 0),
 * the other end the responder (node H); the ends priced as one link's sides, the
 * forwarders per exchange. */
static int eval_chain(struct advise_eval *ev, double *peak_ua, const struct advise_ctx *c,
                      const struct advise_cfg *cfg, const struct lowpan_opts *lo,
                      struct cli_msg *msg)
{
    struct pqpan_802154_chain_config cc;
    struct pqpan_802154_chain_estimate *e;
    uint64_t cycles[PQPAN_OP_COUNT];
    int role, rc = chain_setup(&cc, cycles, c->timing, lo, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    e = malloc(sizeof *e); /* two ledgers per node */
    if (e == NULL) {
        return cli_msg_set(msg, EXIT_FAILURE_RUN, "out of memory");
    }
    if (pqpan_802154_chain_estimate(e, &cc, cycles) != PQPAN_OK) {
        free(e);
        return EXIT_FAILURE_RUN;
    }
    ev->hops = cc.hops;
    for (role = 0; role < 2 && rc == EXIT_OK; role++) {
        const struct pqpan_ledger *l = &e->ledger[role == (int)cfg->keygen ? 0u : cc.hops];
        rc = price_side(ev, peak_ua, c, role, l, PQPAN_RADIO_IEEE802154, msg);
    }
    if (rc == EXIT_OK) {
        rc = price_forwarders(ev, c, e, msg);
    }
    set_exchange_latency(ev, e->latency_ns);
    free(e);
    return rc;
}

static int eval_802154(struct advise_eval *ev, double *peak_ua, const struct advise_ctx *c,
                       const struct advise_cfg *cfg, struct cli_msg *msg)
{
    struct lowpan_opts lo;
    memset(ev, 0, sizeof *ev);
    ev->link = ADV_LINK_802154;
    ev->short_addr = cfg->short_addr;
    ev->hops = 1u;
    lowpan_opts_of(&lo, c, cfg);
    return lo.hops > 1 ? eval_chain(ev, peak_ua, c, cfg, &lo, msg)
                       : eval_one_link(ev, peak_ua, c, cfg, &lo, msg);
}

/* Adds the switch to cfg's link settings and back to *ev: its energy and time on both
 * sides, and its way there to the time to key (the exchange starts once the link is on its
 * settings), its way back to the time until the link is idle again. */
static void add_switch(struct advise_eval *ev, const struct advise_ctx *c,
                       const struct advise_cfg *cfg)
{
    const struct advise_switch *sw = &c->sw[cfg->i_phy][cfg->i_ll][cfg->i_ci];
    int role;
    ev->sw = sw;
    ev->exchange_objective_uj = ev->objective_uj;
    for (role = 0; role < 2; role++) {
        ev->e_uj[role] += sw->uj[role];
        ev->t_s[role] += (sw->there_ms + sw->back_ms) * 1e-3;
        if (advise_is_battery(c->o, (enum pqpan_ble_role)role)) {
            ev->objective_uj += sw->uj[role];
        }
    }
    ev->latency_ms = sw->there_ms + ev->exchange_latency_ms;
    ev->idle_again_ms = ev->latency_ms + sw->back_ms;
}

int advise_eval_peak(struct advise_eval *ev, double *peak_ua, const struct advise_ctx *c,
                     const struct advise_cfg *cfg, struct cli_msg *msg)
{
    struct pqpan_ble_config bc;
    int rc;
    if (cfg->link == ADV_LINK_802154) {
        rc = eval_802154(ev, peak_ua, c, cfg, msg);
        ev->exchange_objective_uj = ev->objective_uj;
        return rc;
    }
    ble_config_of(&bc, c, cfg);
    rc = eval_config(ev, peak_ua, c, &bc, cfg->level, cfg->variant, msg);
    if (rc == EXIT_OK) {
        add_switch(ev, c, cfg);
    }
    return rc;
}

int advise_eval(struct advise_eval *ev, const struct advise_ctx *c, const struct advise_cfg *cfg,
                struct cli_msg *msg)
{
    return advise_eval_peak(ev, NULL, c, cfg, msg);
}

int advise_on_idle(const struct advise_ctx *c, const struct advise_cfg *cfg)
{
    const struct advise_grid *g = &c->grid;
    return cfg->link == ADV_LINK_BLE && cfg->i_phy == g->idle_phy && cfg->i_ll == g->idle_ll &&
           cfg->i_ci == g->idle_ci;
}

int advise_eval_idle(struct advise_eval *ev, const struct advise_ctx *c,
                     const struct advise_cfg *cfg, struct cli_msg *msg)
{
    const struct advise_grid *g = &c->grid;
    struct advise_cfg idle = *cfg;
    idle.i_phy = g->idle_phy;
    idle.phy = g->phy[g->idle_phy];
    idle.i_ll = g->idle_ll;
    idle.ll_octets = g->ll[g->idle_ll];
    idle.i_ci = g->idle_ci;
    idle.ci_ns = g->ci_ns[g->idle_ci];
    return advise_eval(ev, c, &idle, msg);
}

int advise_eval_study(struct advise_eval *ev, const struct advise_ctx *c, int k, size_t v,
                      struct cli_msg *msg)
{
    struct pqpan_ble_config bc;
    int rc;
    base_config(&bc, c, k, v);
    rc = eval_config(ev, NULL, c, &bc, k, v, msg);
    ev->exchange_objective_uj = ev->objective_uj;
    return rc;
}

/* ---- the search ---- */

int advise_meets_link_constraints(const struct advise_ctx *c, const struct advise_eval *ev)
{
    return (c->o->max_latency_ms <= 0.0 || ev->latency_ms <= c->o->max_latency_ms) &&
           ev->t_s[0] < c->o->rekey_s && ev->t_s[1] < c->o->rekey_s;
}

static size_t group_of(const struct advise_ctx *c, const struct advise_cfg *cfg)
{
    if (cfg->link == ADV_LINK_802154) {
        return ADV_GROUPS_BLE + ((size_t)cfg->level * 2u + (size_t)cfg->short_addr) * 2u +
               (cfg->keygen != c->dev_role);
    }
    size_t g = ((size_t)cfg->level * PQPAN_BLE_PHY_COUNT + (size_t)cfg->phy) * ADV_CI_MAX +
               cfg->i_ci;
    return g * ADV_SENDS_MAX + cfg->i_send;
}

static void keep_min(struct pqpan_advise_point *best, int *found,
                     const struct pqpan_advise_point *p)
{
    if (!*found || pqpan_advise_point_before(p, best)) {
        *best = *p;
        *found = 1;
    }
}

static int offer(struct advise_result *r, const struct advise_ctx *c,
                 const struct advise_cfg *cfg, const struct advise_eval *ev, uint32_t id)
{
    struct pqpan_advise_point p;
    size_t g = group_of(c, cfg);
    int level_ok = advise_category(cfg->level) >= c->o->min_level;
    p.energy = ev->objective_uj;
    p.latency = ev->latency_ms;
    p.id = id;
    if (!advise_meets_link_constraints(c, ev)) {
        if (level_ok && (!r->nearest_found || p.latency < r->nearest.latency ||
                         (p.latency == r->nearest.latency && pqpan_advise_point_before(&p, &r->nearest)))) {
            r->nearest = p;
            r->nearest_found = 1;
        }
        return EXIT_OK;
    }
    keep_min(&r->level_best[cfg->level], &r->level_found[cfg->level], &p);
    if (cfg->link == ADV_LINK_BLE) {
        keep_min(&r->ll_best[cfg->level][cfg->i_ll], &r->ll_found[cfg->level][cfg->i_ll], &p);
    }
    if (!level_ok) {
        return EXIT_OK;
    }
    r->feasible++;
    keep_min(&r->link_best[cfg->link == ADV_LINK_802154], &r->link_found[cfg->link == ADV_LINK_802154],
             &p);
    if (cfg->link == ADV_LINK_BLE && advise_on_idle(c, cfg)) {
        keep_min(&r->best_on_idle, &r->on_idle_found, &p);
    } else if (cfg->link == ADV_LINK_BLE) {
        keep_min(&r->best_switched, &r->switched_found, &p);
    }
    pqpan_advise_rank_add(&r->rank, &p);
    keep_min(&r->group[g], &r->group_found[g], &p);
    if (pqpan_advise_front_add(&r->front, &p) != PQPAN_OK) {
        return cli_msg_set(c->msg, EXIT_FAILURE_RUN,
                           "more than %u Pareto-optimal configurations; narrow the search",
                           PQPAN_ADVISE_FRONT_MAX);
    }
    return EXIT_OK;
}

static int study_baselines(struct advise_result *r, const struct advise_ctx *c)
{
    int k;
    size_t v;
    for (k = 0; k < ADV_LEVELS; k++) {
        for (v = 0; v < c->n_variant; v++) {
            struct cli_msg msg;
            int rc = advise_eval_study(&r->study[k][v], c, k, v, &msg);
            if (rc == EXIT_FAILURE_RUN) {
                cli_msg_set(&msg, rc, "the study's configuration at %s does not run",
                            advise_kem_name(k));
            }
            if (advise_report(c, rc, &msg) != EXIT_OK) {
                return rc;
            }
        }
    }
    return EXIT_OK;
}

int advise_search(struct advise_result *r, const struct advise_ctx *c)
{
    uint32_t id, n = advise_space_size(c);
    int rc;
    memset(r, 0, sizeof *r);
    pqpan_advise_rank_init(&r->rank, c->o->top);
    pqpan_advise_front_init(&r->front);
    rc = study_baselines(r, c);
    for (id = 0; id < n && rc == EXIT_OK; id++) {
        struct advise_cfg cfg;
        struct advise_eval ev;
        struct cli_msg msg;
        advise_cfg_of(&cfg, c, id);
        rc = advise_eval(&ev, c, &cfg, &msg);
        r->configs++;
        if (rc == EXIT_FAILURE_RUN) {
            r->invalid++;
            rc = EXIT_OK;
            continue;
        }
        rc = advise_report(c, rc, &msg);
        if (rc == EXIT_OK) {
            rc = offer(r, c, &cfg, &ev, id);
        }
    }
    return rc;
}

/* ---- battery and floor ---- */

int advise_battery(struct pqpan_advise_battery *b, const struct advise_ctx *c,
                   const struct advise_eval *ev, enum pqpan_ble_role role)
{
    struct pqpan_advise_battery_in in;
    in.capacity_mah = c->o->battery_mah;
    in.idle_ua = ev->link == ADV_LINK_802154 ? c->idle154_ua[ev->short_addr] : c->idle_ua[role];
    in.exchange_uc = ev->e_uj[role] / c->env[role]->in.profile.supply_v;
    in.exchange_s = ev->t_s[role];
    in.rekey_s = c->o->rekey_s;
    in.app_ua = c->o->app_ua;
    in.self_discharge = c->o->self_discharge_pct / 100.0;
    in.derate = c->o->derate;
    return pqpan_advise_battery(b, &in);
}

const struct pqpan_cycle_row *advise_cheapest(const struct advise_ctx *c, int level,
                                              enum pqpan_op op)
{
    const struct pqpan_cycle_table *t = &c->timing->in.cycles;
    const struct pqpan_cycle_row *best = NULL;
    size_t i;
    for (i = 0; i < t->count; i++) {
        const struct pqpan_cycle_row *row = &t->rows[i];
        if (row->op == op && strcasecmp(row->scheme, advise_kem_name(level)) == 0 &&
            (best == NULL || row->cycles < best->cycles)) {
            best = row;
        }
    }
    return best;
}

/* The PQKE suite of level k in variant v. */
static unsigned variant_suite(const struct advise_ctx *c, int k, size_t v)
{
    enum pqpan_kem_id id = pqpan_kem_at((size_t)k)->id;
    return c->variant[v].hybrid ? pqpan_pqke_hybrid_suite_for_kem(id) : pqpan_pqke_suite_for_kem(id);
}

/* The executions of each operation role runs in cfg's exchange. A pqpan error code. */
static int side_ops(uint64_t count[PQPAN_OP_COUNT], const struct advise_ctx *c,
                    const struct advise_cfg *cfg, enum pqpan_ble_role role)
{
    struct pqpan_pqke_work w;
    enum pqpan_pqke_role pr =
        role == cfg->keygen ? PQPAN_PQKE_ROLE_INITIATOR : PQPAN_PQKE_ROLE_RESPONDER;
    int rc;
    memset(count, 0, PQPAN_OP_COUNT * sizeof count[0]);
    if (c->o->protocol != PQPAN_BLE_PROTO_PQPAN) {
        count[PQPAN_OP_KEM_KEYGEN] = role == cfg->keygen;
        count[PQPAN_OP_KEM_DECAPS] = role == cfg->keygen;
        count[PQPAN_OP_KEM_ENCAPS] = role != cfg->keygen;
        return PQPAN_OK;
    }
    rc = pqpan_pqke_side_work(&w, variant_suite(c, cfg->level, cfg->variant),
                              c->variant[cfg->variant].mode, c->sig[cfg->level], pr, 0);
    count[PQPAN_OP_KEM_KEYGEN] = w.kem_keygen;
    count[PQPAN_OP_KEM_ENCAPS] = w.kem_encaps;
    count[PQPAN_OP_KEM_DECAPS] = w.kem_decaps;
    count[PQPAN_OP_KDF] = 1u;
    count[PQPAN_OP_SIG_SIGN] = w.sig_sign;
    count[PQPAN_OP_SIG_VERIFY] = w.sig_verify;
    count[PQPAN_OP_ECDH_KEYGEN] = w.ecdh_keygen;
    count[PQPAN_OP_ECDH_SHARED] = w.ecdh_shared;
    return rc;
}

/* The message octets role sends and receives (docs/MODEL.md "Protocols"; pqpan's protocol:
 * the initiator, on the KeyGen side, sends INIT and FIN, the responder RESP and numeric's
 * REVEAL, at the variant's sizes). */
static void side_octets(uint64_t *tx, uint64_t *rx, const struct advise_ctx *c,
                        const struct advise_cfg *cfg, enum pqpan_ble_role role)
{
    uint64_t from_keygen, from_other;
    if (c->o->protocol == PQPAN_BLE_PROTO_PQPAN) {
        struct pqpan_pqke_sizes z =
            pqpan_pqke_message_sizes(variant_suite(c, cfg->level, cfg->variant),
                                     c->variant[cfg->variant].mode, c->sig[cfg->level]);
        from_keygen = z.init_bytes + z.fin_bytes;
        from_other = z.resp_bytes + z.reveal_bytes;
    } else {
        from_keygen = c->ek_bytes[cfg->level];
        from_other = c->ct_bytes[cfg->level];
    }
    *tx = role == cfg->keygen ? from_keygen : from_other;
    *rx = role == cfg->keygen ? from_other : from_keygen;
}

int advise_floor(struct pqpan_advise_floor *f, uint64_t count[PQPAN_OP_COUNT],
                 const struct advise_ctx *c, const struct advise_cfg *cfg,
                 enum pqpan_ble_role role)
{
    const struct model_env *env = c->env[role];
    uint64_t cycles[PQPAN_OP_COUNT] = {0u}, tx, rx;
    int op, rc = side_ops(count, c, cfg, role);
    if (rc != PQPAN_OK) {
        return rc;
    }
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        const struct pqpan_cycle_row *row = advise_cheapest(c, cfg->level, (enum pqpan_op)op);
        cycles[op] = row != NULL ? row->cycles : 0u;
    }
    side_octets(&tx, &rx, c, cfg, role);
    if (cfg->link == ADV_LINK_802154) {
        return pqpan_advise_floor_802154(f, &env->in.profile, env->table, env->eopts.tx_dbm, tx,
                                         rx, cycles, count);
    }
    return pqpan_advise_floor(f, &env->in.profile, env->table, env->eopts.tx_dbm,
                              c->grid.priced_phys, tx, rx, cycles, count);
}

void advise_variant_name(char *buf, size_t len, const struct advise_ctx *c, int level, size_t v)
{
    const struct advise_variant *va = &c->variant[v];
    const char *mode = pqpan_pqke_mode_name(va->mode);
    if (c->o->protocol == PQPAN_BLE_PROTO_STUDY) {
        snprintf(buf, len, "study exchange (no authentication)");
    } else if (model_is_sig_mode(va->mode)) {
        snprintf(buf, len, "%s (%s)%s", mode, pqpan_sig_by_id((enum pqpan_sig_id)c->sig[level])->name,
                 va->hybrid ? " + P-256" : "");
    } else {
        snprintf(buf, len, "%s%s", mode, va->hybrid ? " + P-256" : "");
    }
}

void advise_describe(char *buf, size_t len, const struct advise_ctx *c,
                     const struct advise_cfg *cfg)
{
    struct pqpan_ble_config bc;
    char v[64], sends[CLI_MSG_MAX];
    advise_variant_name(v, sizeof v, c, cfg->level, cfg->variant);
    if (cfg->link == ADV_LINK_802154 && c->o->lowpan.hops > 1) {
        char device_end[64] = "";
        if (cfg->keygen != c->dev_role) {
            snprintf(device_end, sizeof device_end, "; the device the responder, node %d",
                     c->o->lowpan.hops);
        }
        snprintf(buf, len, "%s; 802.15.4 O-QPSK 250 kb/s, %d hops (%s), %s addresses, KeyGen on "
                           "the %s (the initiator, node 0%s), %.3f ms polls",
                 v, c->o->lowpan.hops,
                 c->o->lowpan.forwarding == PQPAN_802154_FWD_FRAGMENT ? "fragment forwarding"
                                                                      : "per-hop reassembly",
                 cfg->short_addr ? "short" : "extended",
                 cfg->keygen == c->dev_role ? "device" : "peer", device_end, c->poll_ms);
        return;
    }
    if (cfg->link == ADV_LINK_802154) {
        snprintf(buf, len, "%s; 802.15.4 O-QPSK 250 kb/s, %s addresses, KeyGen on the %s "
                           "(initiator), %.3f ms polls",
                 v, cfg->short_addr ? "short" : "extended",
                 cfg->keygen == c->dev_role ? "device" : "parent", c->poll_ms);
        return;
    }
    ble_config_of(&bc, c, cfg);
    link_gatt_words(sends, sizeof sends, &bc);
    snprintf(buf, len, "%s; LE %s, LL %u, ATT_MTU %u, %s, CI %.2f ms, KeyGen on the %s; %s", v,
             pqpan_ble_phy_name(cfg->phy), cfg->ll_octets, cfg->att_mtu,
             pqpan_ble_transfer_choice_name(cfg->server_transfer, cfg->client_transfer),
             (double)cfg->ci_ns * 1e-6, cfg->keygen == PQPAN_BLE_CENTRAL ? "central" : "peripheral",
             sends);
}
