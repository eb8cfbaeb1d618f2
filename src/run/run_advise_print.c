/* pqpan advise: table, JSON and gnuplot figures (advise.h). Every number is the search's
 * (advise_search.c) or the library's arithmetic (include/pqpan/advise.h). */
#include <math.h>
#include <string.h>

#include "run_advise.h"
#include "pqpan/kem.h"
#include "pqpan/pqke.h"
#include "pqpan/sig.h"

static const char *const battery_names[] = {"peripheral", "central", "both"};

static const char *role_name(enum pqpan_ble_role r)
{
    return r == PQPAN_BLE_CENTRAL ? "central" : "peripheral";
}

/* One recommendation with everything printed about it. */
struct advise_row {
    uint32_t id;                             /* the configuration's id in the search */
    struct advise_cfg cfg;
    struct advise_eval ev;
    struct advise_eval idle;                 /* BLE: the same on the idle settings */
    int on_idle;                             /* BLE: cfg is on the idle settings (no switch) */
    int idle_meets;                          /* the idle settings meet the constraints */
    double vs_study_uj, vs_study_pct;
    double vs_idle_uj, vs_idle_pct;          /* BLE: saving (b), net of the switch */
    double floor_uj, floor_ratio;
    double life_y;                           /* the shortest of the battery sides */
    struct pqpan_advise_battery bat[2];      /* by role; battery sides only */
    struct pqpan_advise_floor floor[2];      /* by role; battery sides only */
    uint64_t floor_ops[2][PQPAN_OP_COUNT];   /* by role: the operations the floor prices */
    double peak_ua[2];                       /* by role */
};

/* Fills *row for configuration id. A cli.h exit code (message printed). */
static int row_of(struct advise_row *row, const struct advise_ctx *c,
                  const struct advise_result *r, uint32_t id)
{
    struct cli_msg msg;
    const struct advise_eval *study;
    int role, rc;
    memset(row, 0, sizeof *row);
    row->id = id;
    advise_cfg_of(&row->cfg, c, id);
    rc = advise_report(c, advise_eval_peak(&row->ev, row->peak_ua, c, &row->cfg, &msg),
                        &msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    study = &r->study[row->cfg.level][row->cfg.variant];
    row->vs_study_uj = study->objective_uj - row->ev.objective_uj;
    row->vs_study_pct = 100.0 * row->vs_study_uj / study->objective_uj;
    if (row->cfg.link == ADV_LINK_BLE) {
        rc = advise_report(c, advise_eval_idle(&row->idle, c, &row->cfg, &msg), &msg);
        if (rc != EXIT_OK) {
            return rc;
        }
        row->on_idle = advise_on_idle(c, &row->cfg);
        row->idle_meets = advise_meets_link_constraints(c, &row->idle);
        row->vs_idle_uj = row->idle.objective_uj - row->ev.objective_uj;
        row->vs_idle_pct = 100.0 * row->vs_idle_uj / row->idle.objective_uj;
    }
    row->life_y = -1.0;
    for (role = 0; role < 2; role++) {
        enum pqpan_ble_role ro = (enum pqpan_ble_role)role;
        double life;
        if (!advise_is_battery(c->o, ro)) {
            continue;
        }
        if (advise_battery(&row->bat[role], c, &row->ev, ro) != PQPAN_OK ||
            advise_floor(&row->floor[role], row->floor_ops[role], c, &row->cfg, ro) != PQPAN_OK) {
            return cli_msg_set(c->msg, EXIT_FAILURE_RUN, "battery or floor arithmetic out of "
                                                         "range");
        }
        row->floor_uj += row->floor[role].total_uj;
        life = row->bat[role].life_s / ADV_SECONDS_PER_YEAR;
        row->life_y = row->life_y < 0.0 || life < row->life_y ? life : row->life_y;
    }
    row->floor_ratio = row->ev.objective_uj / row->floor_uj;
    return EXIT_OK;
}

static double ms(uint64_t ns)
{
    return (double)ns * 1e-6;
}

/* Whether the 802.15.4 exchange crosses a chain of hops (--hops > 1). */
static int chained(const struct advise_ctx *c)
{
    return c->o->lowpan.hops > 1;
}

/* A side's name on a link: BLE's roles, or 802.15.4's sleepy device and its parent (across a
 * chain: its peer, the chain's other end). */
static const char *side_name(const struct advise_ctx *c, unsigned link, int role)
{
    if (link == ADV_LINK_802154) {
        return role == (int)c->dev_role ? "device" : chained(c) ? "peer" : "parent";
    }
    return role_name((enum pqpan_ble_role)role);
}

/* The forwarders' energy per exchange of a chain's evaluation, "node 1 X uJ, node 2 Y uJ",
 * into buf. */
static void forwarders_text(char *buf, size_t len, const struct advise_eval *ev)
{
    size_t n = 0;
    unsigned k;
    buf[0] = '\0';
    for (k = 1; k < ev->hops && n < len; k++) {
        int w = snprintf(buf + n, len - n, "%snode %u %.3f uJ", k > 1 ? ", " : "", k,
                         ev->forwarder_uj[k]);
        n += w > 0 ? (size_t)w : 0u;
    }
}

/* What the forwarders' figures are, in words. */
#define ADV_FORWARDERS_NOTE                                                                 \
    "always-on routers (RPL route-over, docs/MODEL.md \"Multi-hop 6LoWPAN\"): energy per "    \
    "exchange, all-states accounting, priced with the peer's profile; their battery life is "  \
    "not searched"

static double idle_ua_of(const struct advise_ctx *c, const struct advise_eval *ev, int role)
{
    return ev->link == ADV_LINK_802154 ? c->idle154_ua[ev->short_addr] : c->idle_ua[role];
}

/* Where the idle current between exchanges comes from. */
static const char *idle_source(unsigned link)
{
    return link == ADV_LINK_802154
               ? "pqpan idle --link 802154's model, the sleepy end device's data polls "
                 "(src/ieee802154/poll.c, docs/MODEL.md \"Sleepy end device poll\")"
               : "pqpan idle's model of the idle BLE connection (src/ble/idle.c, "
                 "docs/MODEL.md \"Idle connection\")";
}

/* How the battery figures are derived from the sourced ones. */
#define BATTERY_DERIVATION                                                                   \
    "derived: charge = energy / supply voltage; exchanges per battery = capacity / charge per " \
    "exchange; average current = (the exchange's charge + the idle current over the rest of "  \
    "the rekey interval) / the rekey interval; battery life = capacity / average current"

/* ---- the answer first ---- */

/* The sentence of a mode authenticated by keys: each side's secret (sk B) and its peer's
 * pinned public key (pk B), or in a one-way mode the responder's secret and the
 * initiator's pin. */
static void held_keys(char *buf, size_t len, unsigned mode, const char *secret, size_t sk,
                      const char *pinned, size_t pk, const char *p256)
{
    if (pqpan_pqke_mode_authenticates_initiator(mode)) {
        snprintf(buf, len, "both devices authenticated: each holds its %s (%zu B) and its "
                           "peer's pinned %s (%zu B)%s", secret, sk, pinned, pk, p256);
    } else {
        snprintf(buf, len, "the responder authenticated, the initiator NOT: the responder holds "
                           "its %s (%zu B), the initiator its pinned %s (%zu B)%s",
                 secret, sk, pinned, pk, p256);
    }
}

/* What cfg's authentication mode asks of the devices, or what it leaves open (docs/PROTOCOL.md
 * §5), in one sentence. */
static void auth_sentence(char *buf, size_t len, const struct advise_ctx *c,
                          const struct advise_cfg *cfg)
{
    char secret[64];
    const struct advise_variant *v = &c->variant[cfg->variant];
    const struct pqpan_kem *k = pqpan_kem_at((size_t)cfg->level);
    const struct pqpan_sig *ds = pqpan_sig_by_id((enum pqpan_sig_id)c->sig[cfg->level]);
    const char *p256 = v->hybrid ? "; with P-256, the keys stay secret while either ML-KEM or "
                                   "P-256 holds"
                                 : "";
    switch (v->mode) {
    case PQPAN_PQKE_MODE_PSK:
        snprintf(buf, len, "both devices authenticated: they hold the same pre-shared key of 32 "
                           "or more random bytes, provisioned out of band (never a PIN: anyone "
                           "who sends an INIT can test guesses, docs/PROTOCOL.md §5.3)%s", p256);
        break;
    case PQPAN_PQKE_MODE_KEM_AUTH:
    case PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL:
        snprintf(secret, sizeof secret, "static %s decapsulation key", k->name);
        held_keys(buf, len, v->mode, secret, k->dk_bytes, "encapsulation key", k->ek_bytes, p256);
        break;
    case PQPAN_PQKE_MODE_SIG:
    case PQPAN_PQKE_MODE_SIG_MUTUAL:
        snprintf(secret, sizeof secret, "%s secret key", ds->name);
        held_keys(buf, len, v->mode, secret, ds->sk_bytes, "public key", ds->pk_bytes, p256);
        break;
    case PQPAN_PQKE_MODE_NUMERIC:
        snprintf(buf, len, "both devices authenticated once a user confirms that the two "
                           "six-digit values they show match (a display and a button on each; "
                           "one guess in 10^6 per value shown, docs/PROTOCOL.md §5.5)%s", p256);
        break;
    default:
        snprintf(buf, len, "NOT authenticated: a man in the middle who runs one exchange with "
                           "each device holds both keys (docs/PROTOCOL.md §5.2); it resists "
                           "eavesdroppers and tampering only%s", p256);
        break;
    }
}

/* The options that reproduce cfg with `pqpan estimate` (estimate 1) or `pqpan simulate` (0:
 * the same but --busy, which its contention replaces; over 802.15.4 the protocol is pqpan's,
 * which has no --protocol there, and the link options given follow). */
static void reproduce_opts(char *buf, size_t len, const struct advise_ctx *c,
                           const struct advise_cfg *cfg, int estimate)
{
    const struct advise_variant *v = &c->variant[cfg->variant];
    size_t n = (size_t)snprintf(buf, len, "--profile %s --kem %s", c->timing->in.profile.name,
                                advise_kem_name(cfg->level));
    if (cfg->link == ADV_LINK_BLE) {
        n += (size_t)snprintf(buf + n, len - n, " --protocol %s",
                              c->o->protocol == PQPAN_BLE_PROTO_STUDY ? "study" : "pqpan");
    }
    if (c->o->protocol == PQPAN_BLE_PROTO_PQPAN) {
        n += (size_t)snprintf(buf + n, len - n, " --auth %s", pqpan_pqke_mode_name(v->mode));
        if (model_is_sig_mode(v->mode)) {
            n += (size_t)snprintf(buf + n, len - n, " --sig %s",
                                  pqpan_sig_by_id((enum pqpan_sig_id)c->sig[cfg->level])->name);
        }
        if (v->hybrid) {
            n += (size_t)snprintf(buf + n, len - n, " --hybrid p256");
        }
    }
    if (cfg->link == ADV_LINK_802154) {
        char link[256];
        lowpan_link_args(link, sizeof link, &c->o->lowpan, estimate);
        snprintf(buf + n, len - n, " --link 802154 --addr %s --idle %s%s",
                 cfg->short_addr ? "short" : "extended",
                 lowpan_idle_listens(&c->o->lowpan, c->timing) ? "listen" : "sleep", link);
        return;
    }
    snprintf(buf + n, len - n, " --phy %s --ll-octets %u --att-mtu %u --transfer %s --ci-ms %.2f "
                               "--keygen-side %s",
             pqpan_ble_phy_name(cfg->phy), cfg->ll_octets, cfg->att_mtu,
             pqpan_ble_transfer_choice_name(cfg->server_transfer, cfg->client_transfer),
             (double)cfg->ci_ns * 1e-6, role_name(cfg->keygen));
}

void advise_battery_caveats(char *buf, size_t len, const struct advise_opts *o, int shortly)
{
    if (o->app_ua == 0.0 && o->self_discharge_pct == 0.0 && o->derate == 1.0) {
        snprintf(buf, len, shortly ? "left out: the application's load, self-discharge, pulse "
                                     "derating"
                                   : "it leaves out the application's own load, the cell's "
                                     "self-discharge and its derating under pulse currents "
                                     "(--app-ua, --self-discharge-pct-year, --battery-derate)");
        return;
    }
    snprintf(buf, len, "%s the application's %.3f uA, %.3f %%/year self-discharge, %.0f %% of the "
                       "capacity usable",
             shortly ? "with" : "it includes", o->app_ua, o->self_discharge_pct,
             100.0 * o->derate);
}

/* One line of the answer block: two spaces, then text wrapped, continuation lines indented. */
static void brief_line(const struct advise_ctx *c, const char *text)
{
    fputs("  ", c->out);
    cli_wrap(c->out, text, 2, 4);
    fputc('\n', c->out);
}

/* The level the battery affords: the highest category found within the constraints against
 * the recommendation's, by the battery life they leave (the shortest battery side). */
static int print_level_verdict(const struct advise_ctx *c, const struct advise_result *r,
                               const struct advise_row *best)
{
    struct advise_row top;
    char text[256];
    double loss;
    int k = ADV_LEVELS - 1;
    while (k > best->cfg.level && !r->level_found[k]) {
        k--;
    }
    if (k == best->cfg.level) {
        snprintf(text, sizeof text, "level: %s (category %u) is the highest that meets the "
                                    "constraints", advise_kem_name(k), advise_category(k));
        brief_line(c, text);
        return EXIT_OK;
    }
    if (row_of(&top, c, r, r->level_best[k].id) != EXIT_OK) {
        return EXIT_FAILURE_RUN;
    }
    loss = 100.0 * (best->life_y - top.life_y) / best->life_y;
    snprintf(text, sizeof text, "level: %s (category %u) leaves %.3f years against %.3f, %.3f %% "
                                "less battery life: %s",
             advise_kem_name(k), advise_category(k), top.life_y, best->life_y, loss,
             loss < 1.0 ? "under 1 %, choose it" : "the price of the higher level");
    brief_line(c, text);
    return EXIT_OK;
}

/* "energy per rekey" of the answer block. */
static void brief_energy(char *buf, size_t len, const struct advise_ctx *c,
                         const struct advise_row *w)
{
    int dev = (int)c->dev_role;
    size_t n = (size_t)snprintf(buf, len, "energy per rekey: %.3f uJ on the %s = the exchange on "
                                          "an open link%s %.3f uJ",
                                w->ev.e_uj[dev], side_name(c, w->cfg.link, dev),
                                w->ev.hops > 1 ? " across the chain" : "", w->ev.exchange_uj[dev]);
    if (w->cfg.link == ADV_LINK_BLE) {
        n += (size_t)snprintf(buf + n, len - n, " + the link switch there and back %.3f uJ",
                              w->ev.e_uj[dev] - w->ev.exchange_uj[dev]);
    }
    snprintf(buf + n, len - n, " (events accounting, what advise ranks by)");
}

/* "time to key" of the answer block. */
static void brief_time(char *buf, size_t len, const struct advise_row *w)
{
    size_t n = (size_t)snprintf(buf, len, "time to key: %.3f ms from the decision to rekey to "
                                          "both sides holding the key",
                                w->ev.latency_ms);
    if (w->cfg.link == ADV_LINK_BLE && w->ev.sw != NULL) {
        snprintf(buf + n, len - n, " (the link switch there %.3f ms, then the exchange %.3f ms); "
                                   "the link is back on its idle settings after %.3f ms",
                 w->ev.sw->there_ms, w->ev.exchange_latency_ms, w->ev.idle_again_ms);
    }
}

/* Who an authentication mode authenticates, in a few words (the library's
 * pqpan_pqke_mode_authenticates_*). */
static const char *auth_short(unsigned mode)
{
    int responder = pqpan_pqke_mode_authenticates_responder(mode);
    if (!responder) {
        return "NOT authenticated: a man in the middle gets both keys";
    }
    if (!pqpan_pqke_mode_authenticates_initiator(mode)) {
        return "only the responder authenticated";
    }
    return mode == PQPAN_PQKE_MODE_NUMERIC
               ? "both devices authenticated once a user compares two values"
               : "both devices authenticated";
}

/* The answer block, 4 to 6 lines: the settings and who is authenticated, the energy and time
 * per rekey, the battery, the level, and the commands that reproduce the recommendation. */
static int print_brief(const struct advise_ctx *c, const struct advise_result *r,
                       const struct advise_row *w)
{
    int dev = (int)c->dev_role;
    const struct pqpan_advise_battery *b = &w->bat[dev];
    char d[ADV_DESCRIBE_MAX], text[512], more[512], line[1100];
    advise_describe(d, sizeof d, c, &w->cfg);
    snprintf(line, sizeof line, "%s, %s (%s)", advise_kem_name(w->cfg.level), d,
             c->o->protocol == PQPAN_BLE_PROTO_STUDY ? "NOT authenticated"
                                                     : auth_short(c->variant[w->cfg.variant].mode));
    fputs("pqpan advise: ", c->out);
    cli_wrap(c->out, line, 14, 4);
    fputc('\n', c->out);
    snprintf(text, sizeof text, "per rekey: %.3f uJ on the %s; key in %.3f ms%s; peak %.3f mA",
             w->ev.e_uj[dev], side_name(c, w->cfg.link, dev), w->ev.latency_ms,
             w->cfg.link == ADV_LINK_BLE ? ", link switch included" : "", w->peak_ua[dev] * 1e-3);
    brief_line(c, text);
    if (w->ev.hops > 1) {
        forwarders_text(more, sizeof more, &w->ev);
        snprintf(line, sizeof line, "forwarders, per rekey: %s (always-on routers: their battery "
                                    "life is not searched)",
                 more);
        brief_line(c, line);
    }
    advise_battery_caveats(more, sizeof more, c->o, 1);
    snprintf(line, sizeof line, "battery: %.3f years on %.0f mAh with a rekey every %s; rekeying "
                                "takes %.3f %% of it (%s)",
             b->life_s / ADV_SECONDS_PER_YEAR, c->o->battery_mah, c->o->rekey_text,
             100.0 * b->rekey_share, more);
    brief_line(c, line);
    if (print_level_verdict(c, r, w) != EXIT_OK) {
        return EXIT_FAILURE_RUN;
    }
    reproduce_opts(text, sizeof text, c, &w->cfg, 1);
    fprintf(c->out, "  reproduce: pqpan estimate %s\n", text); /* one line: to paste */
    return EXIT_OK;
}

/* The recommendation's authentication, energy and time, in full (the answer's details). */
static void print_answer_details(const struct advise_ctx *c, const struct advise_row *w)
{
    char text[512], more[512], line[1100];
    fprintf(c->out, "\nrecommendation 1:\n");
    auth_sentence(more, sizeof more, c, &w->cfg);
    snprintf(line, sizeof line, "authentication: %s", more);
    brief_line(c, line);
    brief_energy(text, sizeof text, c, w);
    brief_line(c, text);
    brief_time(text, sizeof text, w);
    brief_line(c, text);
    if (w->ev.hops > 1) {
        forwarders_text(more, sizeof more, &w->ev);
        snprintf(line, sizeof line, "forwarders: %s; %s", more, ADV_FORWARDERS_NOTE);
        brief_line(c, line);
    }
    reproduce_opts(text, sizeof text, c, &w->cfg, 0);
    fprintf(c->out, "  simulate it: pqpan simulate %s\n", text);
}

/* ---- table ---- */

static void print_ble_idle(const struct advise_ctx *c)
{
    const struct advise_opts *o = c->o;
    int role;
    fprintf(c->out, "  idle link: LE %s, CI %.2f ms, peripheral latency %u, LL %u octets; average current",
           pqpan_ble_phy_name(o->idle.phy), ms(o->idle.ci_ns), o->idle.latency, o->idle_ll_octets);
    for (role = 1; role >= 0; role--) {
        fprintf(c->out, " %s %.3f uA", role_name((enum pqpan_ble_role)role), c->idle_ua[role]);
    }
    fprintf(c->out, " (pqpan idle)\n  peer supports: PHYs");
    for (role = 0; role < PQPAN_BLE_PHY_COUNT; role++) {
        if (o->peer_phys & (1u << role)) {
            fprintf(c->out, " %s", pqpan_ble_phy_name((enum pqpan_ble_phy)role));
        }
    }
    fprintf(c->out, "; LL <= %u octets; ATT_MTU <= %u", o->peer_max_ll, o->peer_max_mtu);
    if (c->dropped_phys[0] != '\0') {
        fprintf(c->out, " (left out, no current in a profile: %s)", c->dropped_phys);
    }
    fputc('\n', c->out);
}

/* The modes the search allows, "psk<sep>kem-auth-mutual<sep>sig-mutual" (a hybrid one
 * "+p256"), into buf. */
static const char *auth_list(const struct advise_ctx *c, const char *sep, char *buf, size_t size)
{
    size_t v, at = 0;
    buf[0] = '\0';
    for (v = 0; v < c->n_variant && at < size; v++) {
        int n = snprintf(buf + at, size - at, "%s%s%s", v ? sep : "",
                         pqpan_pqke_mode_name(c->variant[v].mode),
                         c->variant[v].hybrid ? "+p256" : "");
        at += n > 0 ? (size_t)n : 0u;
    }
    return buf;
}

/* The authentication modes the search allowed, with what the default means. */
static void print_auth_constraint(const struct advise_ctx *c)
{
    char list[160];
    fprintf(c->out, "  authentication: %s", auth_list(c, ", ", list, sizeof list));
    if (c->o->auth_modes & (PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_SIG) |
                            PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_SIG_MUTUAL))) {
        fprintf(c->out, " (ML-DSA: %s)", c->o->sig != 0u ? pqpan_sig_by_id((enum pqpan_sig_id)c->o->sig)->name
                                                : "the set of the level's category");
    }
    if (c->o->protocol == PQPAN_BLE_PROTO_PQPAN && c->o->auth_modes == ADV_AUTH_MUTUAL) {
        fprintf(c->out, " (the default: both devices authenticated, by keys each can hold)");
    }
    if (c->o->auth_modes & PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NONE)) {
        fprintf(c->out, "\n    (none is NOT authenticated: a man in the middle holds both keys)");
    }
    fputc('\n', c->out);
}

/* The exchange line (model_print_exchange_line): advise prices pqpan's or the study's
 * protocol in the modes the search allows (auth_list); idle, the idle link between
 * exchanges and the radio within one. */
static void print_exchange_line(const struct advise_ctx *c)
{
    const struct advise_opts *o = c->o;
    char idle[256], auth[160];
    int n = snprintf(idle, sizeof idle, "between exchanges the idle link below; in one, BLE %s",
                     MODEL_BLE_IDLE_TEXT);
    if ((o->links & ADV_LINK_802154) && n > 0 && (size_t)n < sizeof idle) {
        snprintf(idle + n, sizeof idle - (size_t)n, "; 802.15.4 %s between frames (--sed-idle)",
                 lowpan_idle_listens(&o->lowpan, c->timing) ? "listen" : "sleep");
    }
    model_print_exchange_line(c->out, "  ",
                              o->protocol == PQPAN_BLE_PROTO_PQPAN ? "pqpan" : "study",
                              auth_list(c, "|", auth, sizeof auth), idle);
}

static void print_header(const struct advise_ctx *c, const struct advise_result *r)
{
    const struct advise_opts *o = c->o;
    const struct advise_grid *g = &c->grid;
    fprintf(c->out, "\ndetails: the cheapest post-quantum key exchange for a battery-powered %s\n",
           o->links == ADV_LINK_802154  ? "device (a sleepy 802.15.4 end device)"
           : o->links != ADV_LINK_BLE   ? "device (a BLE peripheral, or a sleepy 802.15.4 end "
                                          "device)"
           : o->battery == ADV_BATTERY_BOTH ? "peripheral and central"
                                            : battery_names[o->battery]);
    fprintf(c->out, "  battery: %.3f mAh; one key exchange every %s (%.0f s)\n", o->battery_mah,
           o->rekey_text, o->rekey_s);
    if (o->battery_mah == ADV_CR2032_MAH) {
        fprintf(c->out, "    (the default capacity, a CR2032: %s)\n", ADV_CR2032_SOURCE);
    }
    fprintf(c->out, "  constraints: NIST category >= %u; latency ", o->min_level);
    if (o->max_latency_ms > 0.0) {
        fprintf(c->out, "<= %.3f ms", o->max_latency_ms);
    } else {
        fprintf(c->out, "not limited");
    }
    fprintf(c->out, "; protocol %s\n",
           o->protocol == PQPAN_BLE_PROTO_PQPAN ? "pqpan (INIT/RESP/FIN, key schedule)" : "study");
    print_exchange_line(c);
    print_auth_constraint(c);
    if (o->links & ADV_LINK_BLE) {
        print_ble_idle(c);
    }
    if (o->links & ADV_LINK_802154) {
        fprintf(c->out, "  802.15.4: the device polls its parent every %.3f ms (a sleepy end device): "
               "%.4f uA\n    (extended addresses), %.4f uA (short; pqpan idle --link 802154); "
               "between an exchange's\n    frames its radio %s\n",
               c->poll_ms, c->idle154_ua[0], c->idle154_ua[1],
               lowpan_idle_listens(&o->lowpan, c->timing) ? "listens" : "is off");
    }
    if ((o->links & ADV_LINK_802154) && chained(c)) {
        fprintf(c->out, "  802.15.4 chain: an exchange crosses %d hops (%s) to the device's\n"
                        "    peer, as estimate --link 802154 --hops %d prices it: the device is the "
                        "chain's\n    initiator (node 0) when it runs KeyGen, else its responder "
                        "(node %d); the %d forwarders\n    are always-on routers, priced per "
                        "exchange with the peer's profile, their battery life\n    not searched "
                        "(docs/MODEL.md \"Multi-hop 6LoWPAN\")\n",
                o->lowpan.hops,
                o->lowpan.forwarding == PQPAN_802154_FWD_FRAGMENT
                    ? "fragment forwarding, RFC 8930"
                    : "per-hop reassembly, RFC 4944",
                o->lowpan.hops, o->lowpan.hops, o->lowpan.hops - 1);
    }
    fprintf(c->out, "  search: %u configurations, %u the link model rejects%s, %u meet the constraints\n",
           r->configs, r->invalid,
           (o->links & ADV_LINK_BLE) ? " (the study transfer needs ATT_MTU >= 403)" : "",
           r->feasible);
    if (o->links & ADV_LINK_BLE) {
        fprintf(c->out, "    BLE: ML-KEM-512/768/1024 x %zu authentication variant(s) x %zu PHYs x LL %u..%u "
               "(%zu values) x\n    ATT_MTU %u..%u (%zu values) x CI %.2f..%.2f ms (%zu values) x "
               "%zu ways GATT can\n    send (the peripheral the server: it notifies or indicates, "
               "the central writes; KeyGen\n    on either side); the link switched from the idle "
               "settings and back when they differ\n",
               c->n_variant, g->n_phy, g->ll[0], g->ll[g->n_ll - 1u], g->n_ll, g->mtu[0],
               g->mtu[g->n_mtu - 1u], g->n_mtu, ms(g->ci_ns[0]), ms(g->ci_ns[g->n_ci - 1u]),
               g->n_ci, c->n_sends);
    }
    if (o->links & ADV_LINK_802154) {
        fprintf(c->out, "    802.15.4: ML-KEM-512/768/1024 x %zu authentication variant(s) x extended or "
               "short\n    addresses x KeyGen on the device or its %s\n",
               c->n_variant, chained(c) ? "peer" : "parent");
    }
    fprintf(c->out, "  objective: %s energy per rekey = %s%s,\n"
           "    because a rekey runs on a link that is up (no advertising, set-up or joining); ties\n"
           "    broken by the time to key. device: --profile%s\n",
           o->links == ADV_LINK_802154          ? "the device's"
           : o->battery == ADV_BATTERY_BOTH     ? "the two sides' summed"
           : o->battery == ADV_BATTERY_CENTRAL  ? "the central's"
                                                : "the peripheral's",
           (o->links & ADV_LINK_BLE) ? "estimate's \"exchange on an open link, events\"\n"
                                       "    (e_exchange_events_uj: every state of the exchange, no "
                                       "gamma_comm)"
                                     : "estimate --link 802154's \"total, all states\"\n"
                                       "    (e_total_events_uj: every state of the exchange, no "
                                       "gamma_comm)",
           (o->links & ADV_LINK_BLE) ? " + the BLE link switch there and back" : "",
           o->links == ADV_LINK_802154         ? ", the sleepy end device"
           : o->battery == ADV_BATTERY_CENTRAL ? ", the BLE central"
                                               : ", the BLE peripheral");
}

/* The radio mode whose derived figures the output lists: the idle BLE link's, or 802.15.4's
 * when the search is 802.15.4 alone. */
static enum pqpan_radio_mode radio_of_search(const struct advise_ctx *c)
{
    return c->o->links == ADV_LINK_802154 ? PQPAN_RADIO_IEEE802154 : model_radio_of(c->o->idle.phy);
}

static void print_assumptions(const struct advise_ctx *c)
{
    const struct model_env *dev = c->timing;
    const struct model_env *peer = c->env[0] == dev ? c->env[1] : c->env[0];
    model_print_profile_line(c->out, dev, "  ");
    fprintf(c->out, "  currents: %s table, TX %d dBm; ramp-up %s\n",
           pqpan_current_table_name(dev->table), dev->eopts.tx_dbm,
           dev->ramp_normal ? "normal" : "fast");
    model_print_derived(c->out, dev, radio_of_search(c), "  ");
    if (peer != dev) {
        fprintf(c->out, "  peer profile: %s (its currents price the peer's side; the link timeline uses\n"
               "    %s's event timing for both sides)\n",
               peer->in.profile.name, dev->in.profile.name);
        model_print_derived(c->out, peer, radio_of_search(c), "    ");
    }
    model_print_crypto_gamma(c->out, dev, "  ");
}

static void print_configs(const struct advise_ctx *c, const struct advise_row *rows, size_t n)
{
    size_t i;
    fprintf(c->out, "\n%4s  %-11s  %s\n", "rank", "KEM", "configuration");
    for (i = 0; i < n; i++) {
        char d[ADV_DESCRIBE_MAX];
        advise_describe(d, sizeof d, c, &rows[i].cfg);
        fprintf(c->out, "%4zu  %-11s  %s\n", i + 1, advise_kem_name(rows[i].cfg.level), d);
    }
}

/* A saving column's text: the number, or "-" where it does not apply (802.15.4). */
static const char *saving_text(char *buf, size_t len, int applies, const char *fmt, double v)
{
    if (!applies) {
        return "-";
    }
    snprintf(buf, len, fmt, v);
    return buf;
}

static void print_costs(const struct advise_ctx *c, const struct advise_row *rows, size_t n)
{
    int peer = (int)advise_other_role(c->dev_role);
    size_t i;
    fprintf(c->out, "\n%4s %12s %12s %13s %13s %14s %13s %13s %12s %17s %10s\n", "rank", "device (uJ)",
           c->o->links == ADV_LINK_802154 && !chained(c) ? "parent (uJ)" : "peer (uJ)", "to key (ms)", "idle at (ms)", "vs study (uJ)", "vs study (%)",
           "vs idle (uJ)", "vs idle (%)", "battery life (y)", "floor (x)");
    for (i = 0; i < n; i++) {
        const struct advise_row *w = &rows[i];
        int ble = w->cfg.link == ADV_LINK_BLE;
        char b1[32], b2[32], b3[32], b4[32];
        fprintf(c->out, "%4zu %12.3f %12.3f %13.3f %13.3f %14s %13s %13s %12s %17.3f %10.2f\n", i + 1,
               w->ev.e_uj[c->dev_role], w->ev.e_uj[peer], w->ev.latency_ms, w->ev.idle_again_ms,
               saving_text(b3, sizeof b3, ble, "%.3f", w->vs_study_uj),
               saving_text(b4, sizeof b4, ble, "%.1f", w->vs_study_pct),
               saving_text(b1, sizeof b1, ble, "%.3f", w->vs_idle_uj),
               saving_text(b2, sizeof b2, ble, "%.1f", w->vs_idle_pct), w->life_y,
               w->floor_ratio);
    }
}

/* The procedures of a switch's way there, e.g. "conn+phy+length", or "none". */
static const char *procedures_text(char *buf, size_t len, unsigned procedures)
{
    static const struct {
        enum pqpan_phase ph;
        const char *name;
    } names[] = {{PQPAN_PHASE_CONN_UPDATE, "conn"},
                 {PQPAN_PHASE_PHY_UPDATE, "phy"},
                 {PQPAN_PHASE_LENGTH_UPDATE, "length"}};
    size_t i, n = 0;
    buf[0] = '\0';
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (procedures & (1u << names[i].ph)) {
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "+" : "", names[i].name);
        }
    }
    return n ? buf : "none";
}

/* Whether switching pays, and what to do, in words. */
static const char *verdict(const struct advise_row *w)
{
    if (w->on_idle) {
        return "no switch: runs on the idle settings";
    }
    if (w->vs_idle_uj > 0.0) {
        return "switching pays";
    }
    return w->idle_meets ? "does not pay: stay on the idle settings"
                         : "does not pay, but the idle settings miss the constraints";
}

static void print_switching(const struct advise_ctx *c, const struct advise_row *rows, size_t n)
{
    int peer = (int)advise_other_role(c->dev_role);
    size_t i;
    fprintf(c->out, "\ntemporary link optimisation: the central switches the idle link to the exchange's "
           "PHY, LL size and\ninterval before it and back after it (events accounting, every state "
           "over the procedures' spans):\n");
    fprintf(c->out, "%4s %-16s %11s %11s %11s %11s %13s %13s %13s  %s\n", "rank", "procedures",
           "device (uJ)", "peer (uJ)", "there (ms)", "back (ms)", "on idle (uJ)",
           "exchange (uJ)", "net (uJ)", "verdict");
    for (i = 0; i < n; i++) {
        const struct advise_row *w = &rows[i];
        const struct advise_switch *sw = w->ev.sw;
        char pr[32];
        if (w->cfg.link != ADV_LINK_BLE) {
            fprintf(c->out, "%4zu %-16s %11s %11s %11s %11s %13s %13s %13s  %s\n", i + 1, "-", "-", "-",
                   "-", "-", "-", "-", "-", "802.15.4: no link switch (the device polls)");
            continue;
        }
        fprintf(c->out, "%4zu %-16s %11.3f %11.3f %11.3f %11.3f %13.3f %13.3f %13.3f  %s\n", i + 1,
               procedures_text(pr, sizeof pr, sw->procedures), sw->uj[c->dev_role],
               sw->uj[peer], sw->there_ms, sw->back_ms, w->idle.objective_uj,
               w->ev.exchange_objective_uj, w->vs_idle_uj, verdict(w));
    }
    fprintf(c->out, "(device, peer: the switch there and back per side; on idle: the same exchange on the "
           "idle\nsettings; net = on idle - (exchange + the battery side's switch) = vs idle. "
           "Procedures, each\nonly when its setting changes (Core v5.4 Vol 6 Part B): conn = "
           "connection parameters request,\nLL_CONNECTION_PARAM_REQ/RSP and "
           "LL_CONNECTION_UPDATE_IND (§5.1.7, §5.1.1); phy = LL_PHY_REQ/RSP\nand "
           "LL_PHY_UPDATE_IND (§5.1.10), each with its instant 6 events ahead (§5.5); length = "
           "LL_LENGTH_REQ/RSP\n(§5.1.9). There: conn first, at the idle interval; back: phy and "
           "length first, at the\nexchange's interval. Assumed: the peripheral listens at every "
           "event while a procedure runs\n(no peripheral latency), each leg starts after an "
           "empty event)\n");
}

/* Whether switching pays overall: the cheapest configuration with a switch against the
 * cheapest on the idle settings, both within the constraints (BLE). */
struct advise_decision {
    int have_idle, have_switched;
    struct advise_row idle, switched;
    double net_uj; /* idle's objective - switched's (both found) */
    const char *verdict;
};

static int decision_of(struct advise_decision *d, const struct advise_ctx *c,
                       const struct advise_result *r)
{
    int rc = EXIT_OK;
    memset(d, 0, sizeof *d);
    d->have_idle = r->on_idle_found;
    d->have_switched = r->switched_found;
    if (d->have_idle) {
        rc = row_of(&d->idle, c, r, r->best_on_idle.id);
    }
    if (rc == EXIT_OK && d->have_switched) {
        rc = row_of(&d->switched, c, r, r->best_switched.id);
    }
    if (d->have_idle && d->have_switched) {
        d->net_uj = d->idle.ev.objective_uj - d->switched.ev.objective_uj;
        d->verdict = d->net_uj > 0.0 ? "switching pays" : "switching does not pay";
    } else if (d->have_switched) {
        d->verdict = "switching is needed: no configuration on the idle settings meets the "
                     "constraints";
    } else {
        d->verdict = "no configuration with a switch meets the constraints: stay on the idle "
                     "settings";
    }
    return rc;
}

/* One side of the decision: the configuration, its exchange, switch and latency. */
static void print_decision_side(const struct advise_ctx *c, const char *what,
                                const struct advise_row *w)
{
    char d[ADV_DESCRIBE_MAX];
    advise_describe(d, sizeof d, c, &w->cfg);
    fprintf(c->out, "  cheapest %s: %s, %s\n    exchange %.3f uJ + switch %.3f uJ = %.3f uJ, time to "
           "key %.3f ms\n",
           what, advise_kem_name(w->cfg.level), d, w->ev.exchange_objective_uj,
           w->ev.objective_uj - w->ev.exchange_objective_uj, w->ev.objective_uj,
           w->ev.latency_ms);
}

static void print_decision(const struct advise_ctx *c, const struct advise_decision *d)
{
    fprintf(c->out, "\nswitching decision (BLE, within the constraints; the battery side's energy): %s\n",
           d->verdict);
    if (d->have_idle) {
        print_decision_side(c, "on the idle settings", &d->idle);
    }
    if (d->have_switched) {
        print_decision_side(c, "with a switch there and back", &d->switched);
    }
    if (d->have_idle && d->have_switched) {
        fprintf(c->out, "  net saving of switching: %.3f - %.3f = %.3f uJ per exchange: %s\n",
               d->idle.ev.objective_uj, d->switched.ev.objective_uj, d->net_uj,
               d->net_uj > 0.0 ? "switch for the exchange and back"
                               : "stay on the idle settings");
    }
}

static void print_battery(const struct advise_ctx *c, const struct advise_row *w)
{
    char caveats[256];
    int role;
    for (role = 1; role >= 0; role--) {
        const struct pqpan_advise_battery *b = &w->bat[role];
        double v = c->env[role]->in.profile.supply_v;
        if (!advise_is_battery(c->o, (enum pqpan_ble_role)role)) {
            continue;
        }
        fprintf(c->out, "  battery, %s: charge per exchange %.3f uC (%.3f uJ / %.2f V); exchanges per\n"
               "    battery %.4g; average current %.4f uA idle, %.4f uA with one exchange every %s\n"
               "    (rekeying %.4f uA, %.3f %%); battery life %.3f years without rekeying, %.3f "
               "with;\n    peak current %.3f mA during the exchange\n",
               side_name(c, w->ev.link, role), w->ev.e_uj[role] / v, w->ev.e_uj[role], v,
               b->exchanges, idle_ua_of(c, &w->ev, role), b->avg_ua, c->o->rekey_text, b->rekey_ua,
               100.0 * b->rekey_share, b->life_idle_s / ADV_SECONDS_PER_YEAR,
               b->life_s / ADV_SECONDS_PER_YEAR, w->peak_ua[role] * 1e-3);
    }
    advise_battery_caveats(caveats, sizeof caveats, c->o, 0);
    fprintf(c->out, "    (idle current from %s;\n    derived figures: charge = energy / supply voltage; "
           "exchanges per battery = usable capacity /\n    charge per exchange; average current = "
           "(the exchange's charge + the idle current over\n    the rest of the rekey interval) / "
           "the rekey interval + the application's current + the\n    self-discharge as a "
           "current; battery life = usable capacity / average current;\n    usable capacity = "
           "capacity x --battery-derate; %s;\n    peak current: the highest current the energy "
           "model charges among the exchange's\n    states, the profile's figures)\n",
           idle_source(w->ev.link), caveats);
}

static void print_floor(const struct advise_ctx *c, const struct advise_row *w)
{
    int role, op;
    for (role = 1; role >= 0; role--) {
        const struct pqpan_advise_floor *f = &w->floor[role];
        if (!advise_is_battery(c->o, (enum pqpan_ble_role)role)) {
            continue;
        }
        fprintf(c->out, "  floor, %s: %.3f uJ = the messages' payload bits on %s%s %.3f uJ + computation\n"
               "    %.3f uJ at the fewest cycles in data/cycles/ per operation, no gamma;\n"
               "    implementations:",
               side_name(c, w->ev.link, role), f->total_uj,
               w->ev.link == ADV_LINK_802154 ? "802.15.4" : "LE ",
               w->ev.link == ADV_LINK_802154 ? "" : pqpan_ble_phy_name(f->phy), f->link_uj,
               f->comp_uj);
        for (op = 0; op < PQPAN_OP_COUNT; op++) {
            const struct pqpan_cycle_row *row =
                advise_cheapest(c, w->cfg.level, (enum pqpan_op)op);
            if (w->floor_ops[role][op] != 0u && row != NULL) {
                fprintf(c->out, " %s %s (%llu cycles)", pqpan_op_name((enum pqpan_op)op), row->impl,
                       (unsigned long long)row->cycles);
            }
        }
        fputc('\n', c->out);
    }
    fprintf(c->out, "  distance to the floor: %.3f uJ / %.3f uJ = %.2fx\n", w->ev.objective_uj, w->floor_uj,
           w->floor_ratio);
}

static void print_levels(const struct advise_ctx *c, const struct advise_result *r)
{
    int k;
    fprintf(c->out, "\nsecurity level by battery (each level's cheapest configuration within the latency "
           "and\nrekey limits; battery life with rekeying, the shortest battery side):\n");
    fprintf(c->out, "%-11s %8s %13s %13s %17s\n", "KEM", "category", "energy (uJ)", "to key (ms)",
           "battery life (y)");
    for (k = 0; k < ADV_LEVELS; k++) {
        struct advise_row w;
        if (!r->level_found[k]) {
            fprintf(c->out, "%-11s %8u %13s %13s %17s  no configuration within the limits\n",
                   advise_kem_name(k), advise_category(k), "-", "-", "-");
            continue;
        }
        if (row_of(&w, c, r, r->level_best[k].id) != EXIT_OK) {
            return;
        }
        fprintf(c->out, "%-11s %8u %13.3f %13.3f %17.3f%s\n", advise_kem_name(k), advise_category(k),
               w.ev.objective_uj, w.ev.latency_ms, w.life_y,
               advise_category(k) < c->o->min_level ? "  below --min-level" : "");
    }
}

/* --link both: the cheapest configuration of each link within the constraints, compared in
 * one sentence for this device. */
static int print_links_compared(const struct advise_ctx *c, const struct advise_result *r)
{
    struct advise_row ble, lp;
    int dev = (int)c->dev_role;
    char text[400];
    double dearer;
    int ble_cheaper;
    if (!r->link_found[0] || !r->link_found[1]) {
        fprintf(c->out, "\nlinks compared: only %s has a configuration within the constraints\n",
               r->link_found[0] ? "BLE" : "802.15.4");
        return EXIT_OK;
    }
    if (row_of(&ble, c, r, r->link_best[0].id) != EXIT_OK ||
        row_of(&lp, c, r, r->link_best[1].id) != EXIT_OK) {
        return EXIT_FAILURE_RUN;
    }
    ble_cheaper = ble.ev.e_uj[dev] <= lp.ev.e_uj[dev];
    dearer = ble_cheaper ? lp.ev.e_uj[dev] : ble.ev.e_uj[dev];
    snprintf(text, sizeof text, "links compared: on this device a rekey costs %.3f uJ over BLE "
                                "(%s, %.3f years) and %.3f uJ over 802.15.4 (%s, %.3f years): %s "
                                "is cheaper by %.1f %%.",
             ble.ev.e_uj[dev], advise_kem_name(ble.cfg.level), ble.life_y, lp.ev.e_uj[dev],
             advise_kem_name(lp.cfg.level), lp.life_y, ble_cheaper ? "BLE" : "802.15.4",
             100.0 * fabs(lp.ev.e_uj[dev] - ble.ev.e_uj[dev]) / dearer);
    fputc('\n', c->out);
    cli_wrap(c->out, text, 0, 0);
    fputc('\n', c->out);
    return EXIT_OK;
}

static int rows_of(struct advise_row *rows, const struct advise_ctx *c,
                   const struct advise_result *r)
{
    size_t i;
    for (i = 0; i < r->rank.count; i++) {
        int rc = row_of(&rows[i], c, r, r->rank.pt[i].id);
        if (rc != EXIT_OK) {
            return rc;
        }
    }
    return EXIT_OK;
}

int advise_print_table(const struct advise_ctx *c, const struct advise_result *r)
{
    struct advise_row rows[PQPAN_ADVISE_TOP_MAX];
    int rc = rows_of(rows, c, r);
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = print_brief(c, r, &rows[0]);
    if (rc != EXIT_OK || c->o->brief) {
        return rc;
    }
    print_header(c, r);
    print_assumptions(c);
    fprintf(c->out, "  battery life is charge-based (uC, uA, mAh): energy / the profile's supply voltage,\n"
           "    so no voltage conversion enters\n");
    print_configs(c, rows, r->rank.count);
    print_costs(c, rows, r->rank.count);
    fprintf(c->out, "\n(to key: from the decision to rekey to both sides holding the key; idle at: until the "
           "link is\nback on its idle settings; vs study: the energy saved against the study's BLE "
           "configuration\nat the same level and authentication: LE 1M, LL 27, ATT_MTU 403, study "
           "transfer, 50 ms,\nKeyGen on the peripheral; '-' for 802.15.4)\n");
    if (c->o->links & ADV_LINK_BLE) {
        fprintf(c->out, "(BLE: device, peer = the exchange and the link switch there and back; vs idle = "
               "saved against\nthe same exchange on the idle settings left unchanged, net of "
               "the switch)\n");
        struct advise_decision d;
        print_switching(c, rows, r->rank.count);
        rc = decision_of(&d, c, r);
        if (rc != EXIT_OK) {
            return rc;
        }
        print_decision(c, &d);
    }
    print_answer_details(c, &rows[0]);
    print_battery(c, &rows[0]);
    print_floor(c, &rows[0]);
    print_levels(c, r);
    return c->o->links == (ADV_LINK_BLE | ADV_LINK_802154) ? print_links_compared(c, r) : EXIT_OK;
}

/* ---- JSON ---- */

/* saving (b) and the switch: members of a recommendation, then "battery". */
static void json_switch(const struct advise_ctx *c, const struct advise_row *w)
{
    const struct advise_switch *sw = w->ev.sw;
    char pr[32];
    if (w->cfg.link != ADV_LINK_BLE) {
        fprintf(c->out, "\"saving_vs_idle_uj\": null, \"saving_vs_idle_pct\": null, \"switching\": null,\n"
               "     \"battery\": [");
        return;
    }
    fprintf(c->out, "\"saving_vs_idle_uj\": %.3f, \"saving_vs_idle_pct\": %.2f,\n"
           "     \"switching\": {\"procedures\": \"%s\", \"energy_device_uj\": %.3f, "
           "\"energy_peer_uj\": %.3f, \"time_there_ms\": %.3f, \"time_back_ms\": %.3f, "
           "\"llctrl_pdus\": %llu,\n       \"idle_settings_objective_uj\": %.3f, "
           "\"exchange_objective_uj\": %.3f, \"net_saving_uj\": %.3f, \"pays\": %s, "
           "\"stay_on_idle\": %s, \"verdict\": \"%s\"},\n     \"battery\": [",
           w->vs_idle_uj, w->vs_idle_pct, procedures_text(pr, sizeof pr, sw->procedures),
           sw->uj[c->dev_role], sw->uj[advise_other_role(c->dev_role)], sw->there_ms, sw->back_ms,
           (unsigned long long)sw->llctrl_pdus, w->idle.objective_uj, w->ev.exchange_objective_uj,
           w->vs_idle_uj, !w->on_idle && w->vs_idle_uj > 0.0 ? "true" : "false",
           !w->on_idle && w->vs_idle_uj <= 0.0 ? "true" : "false", verdict(w));
}

/* "pqpan CMD OPTS" as a JSON string. */
static void json_command(const struct advise_ctx *c, const char *opts, const char *cmd)
{
    char full[600];
    snprintf(full, sizeof full, "%s%s", cmd, opts);
    model_json_string(c->out, full);
}

/* A recommendation's authentication and the commands that reproduce it. */
static void json_variant(const struct advise_ctx *c, const struct advise_row *w)
{
    const struct advise_variant *v = &c->variant[w->cfg.variant];
    char text[512];
    fprintf(c->out, "     \"protocol\": \"%s\", \"auth\": \"%s\", \"hybrid\": \"%s\", \"sig\": ",
           c->o->protocol == PQPAN_BLE_PROTO_PQPAN ? "pqpan" : "study", pqpan_pqke_mode_name(v->mode),
           v->hybrid ? "p256" : "none");
    if (model_is_sig_mode(v->mode)) {
        fprintf(c->out, "\"%s\"", pqpan_sig_by_id((enum pqpan_sig_id)c->sig[w->cfg.level])->name);
    } else {
        fprintf(c->out, "null");
    }
    fprintf(c->out, ", \"authenticates\": \"%s\",\n     \"reproduce_estimate\": ",
           c->o->protocol == PQPAN_BLE_PROTO_STUDY ? "NOT authenticated" : auth_short(v->mode));
    reproduce_opts(text, sizeof text, c, &w->cfg, 1);
    json_command(c, text, "pqpan estimate ");
    fprintf(c->out, ", \"reproduce_simulate\": ");
    reproduce_opts(text, sizeof text, c, &w->cfg, 0);
    json_command(c, text, "pqpan simulate ");
    fprintf(c->out, ",\n");
}

/* An 802.15.4 recommendation's hops, forwarding (null on one link) and the forwarders'
 * energy per exchange (node 1 first; empty on one link). */
static void json_chain_row(const struct advise_ctx *c, const struct advise_eval *ev)
{
    unsigned k;
    fprintf(c->out, "     \"hops\": %u, \"forwarding\": ", ev->hops);
    if (ev->hops > 1) {
        fprintf(c->out, "\"%s\"", pqpan_802154_forwarding_name((unsigned)c->o->lowpan.forwarding));
    } else {
        fprintf(c->out, "null");
    }
    fprintf(c->out, ", \"forwarders_uj\": [");
    for (k = 1; k < ev->hops; k++) {
        fprintf(c->out, "%s%.3f", k > 1 ? ", " : "", ev->forwarder_uj[k]);
    }
    fprintf(c->out, "],\n");
}

static void json_row(const struct advise_ctx *c, const struct advise_row *w, size_t rank,
                     const char *sep)
{
    const struct advise_cfg *g = &w->cfg;
    int role;
    const char *comma = "";
    fprintf(c->out, "    {\"rank\": %zu, \"kem\": \"%s\", \"category\": %u, ", rank,
           advise_kem_name(g->level), advise_category(g->level));
    if (g->link == ADV_LINK_802154) {
        fprintf(c->out, "\"link\": \"802154\", \"addressing\": \"%s\", \"keygen_side\": \"%s\", "
               "\"poll_ms\": %.3f,\n",
               g->short_addr ? "short" : "extended", side_name(c, g->link, (int)g->keygen),
               c->poll_ms);
        json_chain_row(c, &w->ev);
    } else {
        fprintf(c->out, "\"link\": \"ble\", \"phy\": \"%s\", \"ll_octets\": %u, \"att_mtu\": %u, "
               "\"transfer\": \"%s\", \"ci_ms\": %.2f, \"keygen_side\": \"%s\",\n",
               pqpan_ble_phy_name(g->phy), g->ll_octets, g->att_mtu,
               pqpan_ble_transfer_choice_name(g->server_transfer, g->client_transfer), ms(g->ci_ns),
               role_name(g->keygen));
    }
    json_variant(c, w);
    fprintf(c->out, "     \"device_side\": \"%s\", \"energy_device_uj\": %.3f, \"energy_peer_uj\": %.3f, "
           "\"objective_uj\": %.3f, \"latency_ms\": %.3f, \"exchange_latency_ms\": %.3f, "
           "\"idle_again_ms\": %.3f,\n     \"peak_current_ma\": %.3f, ",
           side_name(c, g->link, (int)c->dev_role), w->ev.e_uj[c->dev_role],
           w->ev.e_uj[advise_other_role(c->dev_role)], w->ev.objective_uj, w->ev.latency_ms,
           w->ev.exchange_latency_ms, w->ev.idle_again_ms, w->peak_ua[c->dev_role] * 1e-3);
    if (g->link == ADV_LINK_BLE) {
        fprintf(c->out, "\"saving_vs_study_uj\": %.3f, \"saving_vs_study_pct\": %.2f, ", w->vs_study_uj,
               w->vs_study_pct);
    } else {
        fprintf(c->out, "\"saving_vs_study_uj\": null, \"saving_vs_study_pct\": null, ");
    }
    fprintf(c->out, "\"floor_uj\": %.3f, \"floor_ratio\": %.3f,\n     ", w->floor_uj, w->floor_ratio);
    json_switch(c, w);
    for (role = 1; role >= 0; role--) {
        const struct pqpan_advise_battery *b = &w->bat[role];
        const struct pqpan_advise_floor *f = &w->floor[role];
        if (!advise_is_battery(c->o, (enum pqpan_ble_role)role)) {
            continue;
        }
        fprintf(c->out, "%s{\"side\": \"%s\", \"charge_per_exchange_uc\": %.4f, \"exchanges_per_battery\": "
               "%.1f, \"usable_uc\": %.1f, \"drain_ua\": %.6f, \"idle_current_ua\": %.4f, "
               "\"avg_current_ua\": %.4f, \"rekey_current_ua\": "
               "%.6f, \"rekey_share_pct\": %.4f, \"life_days\": %.3f, \"life_idle_days\": %.3f, "
               "\"floor_uj\": %.3f, \"floor_phy\": \"%s\", \"floor_link_uj\": %.3f, "
               "\"floor_comp_uj\": %.3f, \"idle_current_source\": ",
               comma, side_name(c, g->link, role),
               w->ev.e_uj[role] / c->env[role]->in.profile.supply_v, b->exchanges, b->usable_uc,
               b->drain_ua, idle_ua_of(c, &w->ev, role), b->avg_ua, b->rekey_ua, 100.0 * b->rekey_share,
               b->life_s / 86400.0, b->life_idle_s / 86400.0, f->total_uj,
               g->link == ADV_LINK_802154 ? "802154" : pqpan_ble_phy_name(f->phy), f->link_uj,
               f->comp_uj);
        model_json_string(c->out, idle_source(g->link));
        fputc('}', c->out);
        comma = ", ";
    }
    fprintf(c->out, "]}%s\n", sep);
}

/* The variants searched, as "mode" or "mode+p256". */
static void json_auth_allowed(const struct advise_ctx *c)
{
    char list[200];
    fprintf(c->out, "\"%s\"", auth_list(c, "\", \"", list, sizeof list));
}

/* "chain": the 802.15.4 exchange's hops and what the forwarders' figures are (null on one
 * link). */
static void json_chain_header(const struct advise_ctx *c)
{
    if (!chained(c)) {
        fprintf(c->out, "  \"chain\": null,\n");
        return;
    }
    fprintf(c->out, "  \"chain\": {\"hops\": %d, \"forwarding\": \"%s\", \"device_node\": \"the "
                    "initiator (node 0) when it runs KeyGen, else the responder (node %d)\", "
                    "\"forwarders\": ",
            c->o->lowpan.hops, pqpan_802154_forwarding_name((unsigned)c->o->lowpan.forwarding),
            c->o->lowpan.hops);
    model_json_string(c->out, ADV_FORWARDERS_NOTE);
    fprintf(c->out, "},\n");
}

static void json_header(const struct advise_ctx *c, const struct advise_result *r)
{
    const struct advise_opts *o = c->o;
    const struct model_env *peer = c->env[0] == c->timing ? c->env[1] : c->env[0];
    int phy;
    const char *sep = "";
    char auth[160];
    fprintf(c->out, "  \"profile\": ");
    model_print_profile_json(c->out, c->timing, "  ");
    fprintf(c->out, ",\n  \"peer\": {\n");
    model_print_derived_json(c->out, peer, model_radio_of(o->idle.phy), "    ");
    fprintf(c->out, "    \"profile\": ");
    model_json_string(c->out, peer->in.profile.name);
    fprintf(c->out, "\n  },\n  \"battery_side\": \"%s\",\n  \"battery_mah\": %.3f,\n  \"battery_source\": ",
           battery_names[o->battery], o->battery_mah);
    model_json_string(c->out, o->battery_mah == ADV_CR2032_MAH ? ADV_CR2032_SOURCE : "--battery-mah");
    fprintf(c->out, ",\n  \"battery_accounting\": \"charge (uC, uA, mAh): energy / supply voltage\",\n"
           "  \"battery_derivation\": \"%s\",\n", BATTERY_DERIVATION);
    fprintf(c->out, "  \"rekey_every_s\": %.0f,\n  \"protocol\": \"%s\",\n  \"auth\": \"%s\",\n"
           "  \"min_category\": %u,\n"
           "  \"max_latency_ms\": %.3f,\n  \"latency\": \"time to key: from the decision to rekey "
           "to both sides holding the key, the BLE link switch there included\",\n",
           o->rekey_s, o->protocol == PQPAN_BLE_PROTO_PQPAN ? "pqpan" : "study",
           auth_list(c, "|", auth, sizeof auth), o->min_level, o->max_latency_ms);
    fprintf(c->out, "  \"app_ua\": %.4f,\n  \"self_discharge_pct_year\": %.4f,\n  \"battery_derate\": %.4f,\n"
           "  \"auth_allowed\": [",
           o->app_ua, o->self_discharge_pct, o->derate);
    json_auth_allowed(c);
    fprintf(c->out, "],\n");
    fprintf(c->out, "  \"links\": \"%s\",\n", o->links == ADV_LINK_BLE      ? "ble"
                                      : o->links == ADV_LINK_802154 ? "802154"
                                                                    : "both");
    if (o->links & ADV_LINK_802154) {
        fprintf(c->out, "  \"poll\": {\"poll_ms\": %.3f, \"extended_ua\": %.4f, \"short_ua\": %.4f},\n",
               c->poll_ms, c->idle154_ua[0], c->idle154_ua[1]);
        json_chain_header(c);
    }
    fprintf(c->out, "  \"idle\": {\"phy\": \"%s\", \"ci_ms\": %.2f, \"latency\": %u, \"ll_octets\": %u, "
           "\"peripheral_ua\": %.4f, \"central_ua\": %.4f},\n  \"peer_phys\": [",
           pqpan_ble_phy_name(o->idle.phy), ms(o->idle.ci_ns), o->idle.latency,
           o->idle_ll_octets, c->idle_ua[PQPAN_BLE_PERIPHERAL], c->idle_ua[PQPAN_BLE_CENTRAL]);
    for (phy = 0; phy < PQPAN_BLE_PHY_COUNT; phy++) {
        if (c->grid.priced_phys & (1u << phy)) {
            fprintf(c->out, "%s\"%s\"", sep, pqpan_ble_phy_name((enum pqpan_ble_phy)phy));
            sep = ", ";
        }
    }
    fprintf(c->out, "],\n  \"peer_max_ll_octets\": %u,\n  \"peer_max_mtu\": %u,\n", o->peer_max_ll,
           o->peer_max_mtu);
    fprintf(c->out, "  \"configurations\": %u,\n  \"rejected\": %u,\n  \"feasible\": %u,\n", r->configs,
           r->invalid, r->feasible);
    fprintf(c->out, "  \"objective\": \"battery side energy per exchange, events accounting, %sties by "
           "latency\",\n",
           (o->links & ADV_LINK_BLE) ? "BLE link switch there and back included, " : "");
    model_print_derived_json(c->out, c->timing, model_radio_of(o->idle.phy), "  ");
    model_print_crypto_gamma_json(c->out, c->timing, "  ");
}

static void json_decision_side(const struct advise_ctx *c, const char *name, int found,
                               const struct advise_row *w)
{
    char d[ADV_DESCRIBE_MAX];
    fprintf(c->out, "    \"%s\": ", name);
    if (!found) {
        fprintf(c->out, "null");
        return;
    }
    advise_describe(d, sizeof d, c, &w->cfg);
    fprintf(c->out, "{\"id\": %u, \"kem\": \"%s\", \"configuration\": \"%s\", "
           "\"exchange_objective_uj\": %.3f,\n      \"switch_objective_uj\": %.3f, "
           "\"objective_uj\": %.3f, \"latency_ms\": %.3f}",
           w->id, advise_kem_name(w->cfg.level), d, w->ev.exchange_objective_uj,
           w->ev.objective_uj - w->ev.exchange_objective_uj, w->ev.objective_uj,
           w->ev.latency_ms);
}

/* "switching_decision": whether switching pays overall (BLE). */
static int json_decision(const struct advise_ctx *c, const struct advise_result *r)
{
    struct advise_decision d;
    int rc;
    if (!(c->o->links & ADV_LINK_BLE)) {
        return EXIT_OK;
    }
    rc = decision_of(&d, c, r);
    if (rc != EXIT_OK) {
        return rc;
    }
    fprintf(c->out, "  \"switching_decision\": {\n    \"verdict\": \"%s\",\n", d.verdict);
    if (d.have_idle && d.have_switched) {
        fprintf(c->out, "    \"pays\": %s, \"net_saving_uj\": %.3f,\n", d.net_uj > 0.0 ? "true" : "false",
               d.net_uj);
    } else {
        fprintf(c->out, "    \"pays\": %s, \"net_saving_uj\": null,\n", d.have_idle ? "false" : "true");
    }
    json_decision_side(c, "on_idle", d.have_idle, &d.idle);
    fprintf(c->out, ",\n");
    json_decision_side(c, "switched", d.have_switched, &d.switched);
    fprintf(c->out, "\n  },\n");
    return EXIT_OK;
}

static int json_levels(const struct advise_ctx *c, const struct advise_result *r)
{
    int k;
    fprintf(c->out, "  \"levels\": [\n");
    for (k = 0; k < ADV_LEVELS; k++) {
        struct advise_row w;
        const char *sep = k + 1 < ADV_LEVELS ? "," : "";
        fprintf(c->out, "    {\"kem\": \"%s\", \"category\": %u, \"meets_min_level\": %s", advise_kem_name(k),
               advise_category(k), advise_category(k) >= c->o->min_level ? "true" : "false");
        if (!r->level_found[k]) {
            fprintf(c->out, ", \"found\": false}%s\n", sep);
            continue;
        }
        if (row_of(&w, c, r, r->level_best[k].id) != EXIT_OK) {
            return EXIT_FAILURE_RUN;
        }
        fprintf(c->out, ", \"found\": true, \"objective_uj\": %.3f, \"latency_ms\": %.3f, "
               "\"life_years\": %.4f}%s\n",
               w.ev.objective_uj, w.ev.latency_ms, w.life_y, sep);
    }
    fprintf(c->out, "  ],\n");
    return EXIT_OK;
}

static void json_front(const struct advise_ctx *c, const struct advise_result *r)
{
    size_t i;
    fprintf(c->out, "  \"pareto_front\": [");
    for (i = 0; i < r->front.count; i++) {
        fprintf(c->out, "%s\n    {\"id\": %u, \"latency_ms\": %.3f, \"objective_uj\": %.3f}", i ? "," : "",
               r->front.pt[i].id, r->front.pt[i].latency, r->front.pt[i].energy);
    }
    fprintf(c->out, "\n  ]\n");
}

int advise_print_json(const struct advise_ctx *c, const struct advise_result *r)
{
    struct advise_row rows[PQPAN_ADVISE_TOP_MAX];
    size_t i;
    int rc = rows_of(rows, c, r);
    if (rc != EXIT_OK) {
        return rc;
    }
    json_header(c, r);
    fprintf(c->out, "  \"recommendations\": [\n");
    for (i = 0; i < r->rank.count; i++) {
        json_row(c, &rows[i], i + 1, i + 1 < r->rank.count ? "," : "");
    }
    fprintf(c->out, "  ],\n");
    rc = json_decision(c, r);
    if (rc == EXIT_OK) {
        rc = json_levels(c, r);
    }
    if (rc == EXIT_OK) {
        json_front(c, r);
    }
    return rc;
}

/* ---- CHOICE rows ---- */

#define CHOICE(m) offsetof(struct pqpan_run_advise_choice, m)
#define CHOICE_S(s) PQPAN_RUN_STORE_##s

/* The recommendation's fields: the JSON output's names for the same figures. */
static const struct pqpan_run_field choice_fields[] = {
    {"rank", "rank", NULL, 0, CHOICE_S(UINT), CHOICE(rank), 0},
    {"kem", "KEM", NULL, 0, CHOICE_S(TEXT), CHOICE(kem), 0},
    {"category", "NIST category", NULL, 0, CHOICE_S(UINT), CHOICE(category), 0},
    {"link", "link", NULL, 0, CHOICE_S(TEXT), CHOICE(link), 0},
    {"auth", "authentication", NULL, 0, CHOICE_S(TEXT), CHOICE(auth), 0},
    {"phy", "PHY", NULL, 0, CHOICE_S(TEXT), CHOICE(phy), 0},
    {"ll_octets", "LL payload (octets)", "octets", 0, CHOICE_S(UINT), CHOICE(ll_octets), 0},
    {"att_mtu", "ATT_MTU (octets)", "octets", 0, CHOICE_S(UINT), CHOICE(att_mtu), 0},
    {"transfer", "transfer", NULL, 0, CHOICE_S(TEXT), CHOICE(transfer), 0},
    {"ci_ms", "connection interval (ms)", "ms", 0, CHOICE_S(OPT_REAL), CHOICE(ci_ms), 2},
    {"addressing", "addressing", NULL, 0, CHOICE_S(TEXT), CHOICE(addressing), 0},
    {"poll_ms", "poll period (ms)", "ms", 0, CHOICE_S(OPT_REAL), CHOICE(poll_ms), 3},
    {"keygen_side", "KeyGen on", NULL, 0, CHOICE_S(TEXT), CHOICE(keygen_side), 0},
    {"device_side", "battery device", NULL, 0, CHOICE_S(TEXT), CHOICE(device_side), 0},
    {"energy_device_uj", "device energy (uJ)", "uJ", 0, CHOICE_S(REAL), CHOICE(energy_device_uj),
     3},
    {"energy_peer_uj", "peer energy (uJ)", "uJ", 0, CHOICE_S(REAL), CHOICE(energy_peer_uj), 3},
    {"objective_uj", "objective (uJ)", "uJ", 0, CHOICE_S(REAL), CHOICE(objective_uj), 3},
    {"latency_ms", "time to key (ms)", "ms", 0, CHOICE_S(REAL), CHOICE(latency_ms), 3},
    {"exchange_latency_ms", "exchange (ms)", "ms", 0, CHOICE_S(REAL), CHOICE(exchange_latency_ms),
     3},
    {"idle_again_ms", "idle again at (ms)", "ms", 0, CHOICE_S(REAL), CHOICE(idle_again_ms), 3},
    {"peak_current_ma", "peak current (mA)", "mA", 0, CHOICE_S(REAL), CHOICE(peak_current_ma), 3},
    {"saving_vs_study_uj", "saving vs study (uJ)", "uJ", 0, CHOICE_S(REAL),
     CHOICE(saving_vs_study_uj), 3},
    {"saving_known", "saving vs study known", NULL, 0, CHOICE_S(INT), CHOICE(saving_known), 0},
    {"floor_uj", "floor (uJ)", "uJ", 0, CHOICE_S(REAL), CHOICE(floor_uj), 3},
    {"floor_ratio", "x floor", NULL, 0, CHOICE_S(REAL), CHOICE(floor_ratio), 3},
    {"life_years", "battery life (years)", "years", 0, CHOICE_S(REAL), CHOICE(life_years), 3},
    {"hops", "hops", NULL, 0, CHOICE_S(UINT), CHOICE(hops), 0},
    {"forwarding", "forwarding", NULL, 0, CHOICE_S(TEXT), CHOICE(forwarding), 0},
    {"forwarder_max_uj", "busiest forwarder (uJ)", "uJ", 0, CHOICE_S(OPT_REAL),
     CHOICE(forwarder_max_uj), 3},
};

const struct pqpan_run_field *pqpan_run_advise_choice_fields(size_t *n)
{
    *n = sizeof choice_fields / sizeof choice_fields[0];
    return choice_fields;
}

/* The recommendation w of rank rank as a CHOICE record (auth written into auth). */
static void choice_of(struct pqpan_run_advise_choice *out, char *auth, size_t auth_len,
                      const struct advise_ctx *c, const struct advise_row *w, unsigned rank)
{
    const struct advise_cfg *g = &w->cfg;
    int ble = g->link == ADV_LINK_BLE;
    unsigned k;
    memset(out, 0, sizeof *out);
    advise_variant_name(auth, auth_len, c, g->level, g->variant);
    out->rank = rank;
    out->kem = advise_kem_name(g->level);
    out->category = advise_category(g->level);
    out->link = ble ? "ble" : "802154";
    out->auth = auth;
    out->phy = ble ? pqpan_ble_phy_name(g->phy) : NULL;
    out->ll_octets = ble ? g->ll_octets : 0u;
    out->att_mtu = ble ? g->att_mtu : 0u;
    out->transfer = ble ? pqpan_ble_transfer_choice_name(g->server_transfer, g->client_transfer)
                        : NULL;
    out->ci_ms = ble ? ms(g->ci_ns) : -1.0;
    out->addressing = ble ? NULL : g->short_addr ? "short" : "extended";
    out->poll_ms = ble ? -1.0 : c->poll_ms;
    out->keygen_side = side_name(c, g->link, (int)g->keygen);
    out->device_side = side_name(c, g->link, (int)c->dev_role);
    out->energy_device_uj = w->ev.e_uj[c->dev_role];
    out->energy_peer_uj = w->ev.e_uj[advise_other_role(c->dev_role)];
    out->objective_uj = w->ev.objective_uj;
    out->latency_ms = w->ev.latency_ms;
    out->exchange_latency_ms = w->ev.exchange_latency_ms;
    out->idle_again_ms = w->ev.idle_again_ms;
    out->peak_current_ma = w->peak_ua[c->dev_role] * 1e-3;
    out->saving_known = ble;
    out->saving_vs_study_uj = ble ? w->vs_study_uj : 0.0;
    out->floor_uj = w->floor_uj;
    out->floor_ratio = w->floor_ratio;
    out->life_years = w->life_y;
    out->hops = ble ? 0u : w->ev.hops;
    out->forwarding = w->ev.hops > 1 ? pqpan_802154_forwarding_name((unsigned)c->o->lowpan.forwarding)
                                     : NULL;
    out->forwarder_max_uj = -1.0;
    for (k = 1; k < w->ev.hops; k++) {
        out->forwarder_max_uj = w->ev.forwarder_uj[k] > out->forwarder_max_uj ? w->ev.forwarder_uj[k]
                                                                              : out->forwarder_max_uj;
    }
}

int advise_choices(const struct advise_ctx *c, const struct advise_result *r,
                   int (*emit_row)(void *arg, const struct pqpan_run_advise_choice *w), void *arg)
{
    struct advise_row rows[PQPAN_ADVISE_TOP_MAX];
    struct pqpan_run_advise_choice choice;
    char auth[128];
    size_t i;
    int rc = rows_of(rows, c, r);
    for (i = 0; i < r->rank.count && rc == EXIT_OK; i++) {
        choice_of(&choice, auth, sizeof auth, c, &rows[i], (unsigned)(i + 1));
        rc = emit_row(arg, &choice);
    }
    return rc;
}
