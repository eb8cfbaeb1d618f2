/* The PQKE over 6LoWPAN / IEEE 802.15.4, the run layer's part (lowpan.h): the 802.15.4
 * options as data, the estimator's configuration, the rows of an estimate and the notes
 * (assumptions) of an 802.15.4 run. Taken from cli/lowpan_model.c, which keeps the argv
 * walk, help and the contention simulator's runs. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "link.h"
#include "lowpan.h"
#include "notes.h"
#include "pqpan/kem.h"
#include "pqpan/multihop154.h"
#include "pqpan/pqke.h"

void lowpan_opts_init(struct lowpan_opts *o)
{
    memset(o, 0, sizeof *o);
    o->idle = -1;    /* the profile's ieee802154.idle */
    o->backoff = -1; /* the profile's ieee802154.backoff */
    link_pqke_init(&o->pqke);
    cli_opt_table_defaults(&lowpan_opts_table, o);
    cli_opt_table_defaults(&lowpan_exchange_table, o);
    cli_opt_table_defaults(&lowpan_busy_table, o);
    cli_opt_table_defaults(&lowpan_chain_table, o);
}

/* --mac-security values: IEEE 802.15.4-2015 Table 9-6 without level 4 (ENC, reserved in
 * 2015). */
static const char *const sec_words[] = {"none",      "mic32",     "mic64",      "mic128",
                                        "enc-mic32", "enc-mic64", "enc-mic128", NULL};
static const int sec_levels[] = {
    PQPAN_802154_SEC_NONE,       PQPAN_802154_SEC_MIC_32,     PQPAN_802154_SEC_MIC_64,
    PQPAN_802154_SEC_MIC_128,    PQPAN_802154_SEC_ENC_MIC_32, PQPAN_802154_SEC_ENC_MIC_64,
    PQPAN_802154_SEC_ENC_MIC_128};

const char *lowpan_sec_name(int level)
{
    size_t i;
    for (i = 0; i < sizeof sec_levels / sizeof sec_levels[0]; i++) {
        if (sec_levels[i] == level) {
            return sec_words[i];
        }
    }
    return NULL;
}

/* Options of the 802.15.4 link that take one word of a set: the word's index goes into an
 * int of lowpan_opts (--csma: contiki = 1, --addr: short = 1, --idle / --backoff:
 * listen = 1). */
static const char *const csma_words[] = {"ieee", "contiki", NULL};
static const char *const addr_words[] = {"extended", "short", NULL};
static const char *const state_words[] = {"sleep", "listen", NULL};
static const char *const link_words[] = {"802154", NULL};
static const char *const forwarding_words[] = {"reassemble", "fragment", NULL};

/* --mac-security: the level of the word. */
static int set_sec(void *field, const char *v)
{
    int level = sec_levels[cli_word_index(sec_words, v)];
    memcpy(field, &level, sizeof level);
    return 0;
}

#define LOWPAN(m) offsetof(struct lowpan_opts, m)

static const struct cli_opt lowpan_rows[] = {
    {.name = "--link", .kind = CLI_OPT_WORD, .meta = "ble|802154", .words = link_words,
     .allowed = "ble or 802154",
     .help = "the link (BLE by default): 6LoWPAN over IEEE 802.15.4 (2.4 GHz O-QPSK, 250 kb/s, "
             "acknowledged frames) with --link 802154"},
    {.name = "--csma", .kind = CLI_OPT_WORD, .words = csma_words, .def = PQPAN_DEFAULT_CSMA,
     .store = CLI_STORE_INT, .offset = LOWPAN(contiki),
     .help = "CSMA-CA set: ieee (macMinBE 3, macMaxBE 5, 4 backoffs, 3 retries) or contiki "
             "(3, 5, 5, 7: Contiki-NG)"},
    {.name = "--addr", .kind = CLI_OPT_WORD, .words = addr_words, .def = PQPAN_DEFAULT_ADDR,
     .store = CLI_STORE_INT, .offset = LOWPAN(short_addr),
     .help = "MAC addressing: 16-bit short or 64-bit extended"},
    {.name = "--backoff", .kind = CLI_OPT_WORD, .words = state_words,
     .def = PQPAN_DEFAULT_BACKOFF, .store = CLI_STORE_INT,
     .offset = LOWPAN(backoff),
     .help = "the radio during a CSMA-CA random backoff (0..2^BE-1 periods of 320 us): listen "
             "= RX current, sleep = sleep current. CCAs (128 us each) are always charged at the "
             "RX current. A radio that sleeps wakes (crystal start + the profile's "
             "ieee802154.wake_cpu_us of CPU) before each frame it sends or receives / each CCA"},
    {.name = "--mac-security", .kind = CLI_OPT_WORD, .meta = "LEVEL", .words = sec_words,
     .def = PQPAN_DEFAULT_MAC_SECURITY, .set = set_sec, .offset = LOWPAN(sec_level),
     .help = "MAC frame security (IEEE 802.15.4-2015 s9; enc-mic32 is Thread's): auxiliary "
             "security header and a 0/4/8/16-octet MIC on every data frame (Imm-Acks stay "
             "unsecured)"},
    /* key identifier modes: IEEE 802.15.4-2015 Table 9-7 */
    {.name = "--key-id-mode", .kind = CLI_OPT_UINT, .meta = "N", .min = 0, .max = 3,
     .def = PQPAN_DEFAULT_KEY_ID_MODE, .store = CLI_STORE_INT, .offset = LOWPAN(key_id_mode),
     .help = "key identifier mode of the auxiliary security header: 0 implicit, 1 key index "
             "(Thread), 2 and 3 with a 4- or 8-octet key source: header 5, 6, 10 or 14 octets"},
};

static const struct cli_opt chain_rows[] = {
    {.name = "--hops", .kind = CLI_OPT_UINT, .meta = "H", .min = 1, .max = PQPAN_802154_HOPS_MAX,
     .def = PQPAN_DEFAULT_HOPS, .store = CLI_STORE_INT, .offset = LOWPAN(hops),
     .help = "802.15.4 hops between the initiator and the responder (a chain of H + 1 nodes, "
             "RPL route-over, forwarders always-on routers, no other traffic; needs --idle "
             "listen (advise's --sed-idle auto chooses it) and --backoff listen): energy per "
             "node and "
             "latency "
             "(docs/MODEL.md \"Multi-hop 6LoWPAN\")"},
    {.name = "--forwarding", .kind = CLI_OPT_WORD, .words = forwarding_words,
     .def = PQPAN_DEFAULT_FORWARDING, .store = CLI_STORE_INT, .offset = LOWPAN(forwarding),
     .help = "with --hops > 1: each forwarder reassembles every IPv6 packet and fragments it "
             "again (RFC 4944), or forwards each fragment as it arrives (RFC 8930); a node "
             "sends its next unit once the one before is 3 hops on"},
};

/* Appends " NAME WORD" (WORD NULL: " NAME") to buf (len bytes) at *n, clamped at the end. */
static void args_word(char *buf, size_t len, size_t *n, const char *name, const char *word)
{
    int k = *n < len ? snprintf(buf + *n, len - *n, " %s%s%s", name, word != NULL ? " " : "",
                                word != NULL ? word : "")
                     : 0;
    *n += k > 0 ? (size_t)k : 0u;
}

/* Appends " NAME V" (V as typed: up to 15 significant digits). */
static void args_number(char *buf, size_t len, size_t *n, const char *name, double v)
{
    char num[32];
    snprintf(num, sizeof num, "%.15g", v);
    args_word(buf, len, n, name, num);
}

void lowpan_link_args(char *buf, size_t len, const struct lowpan_opts *o, int estimate)
{
    struct lowpan_opts d;
    size_t n = 0;
    lowpan_opts_init(&d);
    buf[0] = '\0';
    if (o->contiki != d.contiki) {
        args_word(buf, len, &n, "--csma", csma_words[o->contiki != 0]);
    }
    if (o->backoff != d.backoff) {
        args_word(buf, len, &n, "--backoff", state_words[o->backoff > 0]);
    }
    if (o->sec_level != d.sec_level) {
        args_word(buf, len, &n, "--mac-security", lowpan_sec_name(o->sec_level));
    }
    if (o->key_id_mode != d.key_id_mode) {
        args_number(buf, len, &n, "--key-id-mode", (double)o->key_id_mode);
    }
    if (o->ipv6_frag) {
        args_word(buf, len, &n, "--ipv6-frag", NULL);
    }
    if (estimate && o->busy != d.busy) {
        args_number(buf, len, &n, "--busy", o->busy);
    }
    if (o->hops != d.hops) {
        args_number(buf, len, &n, "--hops", (double)o->hops);
        args_word(buf, len, &n, "--forwarding", forwarding_words[o->forwarding != 0]);
    }
}

static void lowpan_init(void *o)
{
    lowpan_opts_init(o);
}

static const struct cli_opt exchange_rows[] = {
    {.name = "--kem", .kind = CLI_OPT_WORD, .meta = "NAME", .words_fn = model_kem_names,
     .def = PQPAN_DEFAULT_KEM, .store = CLI_STORE_STR, .offset = LOWPAN(kem),
     .help = "the ML-KEM parameter set; messages are pqpan's INIT / RESP / FIN "
             "(docs/PROTOCOL.md) in UDP, with --auth, --sig and --hybrid as on BLE. A message "
             "over 1232 octets (the 1280-octet IPv6 MTU of RFC 4944 less IPv6 and UDP headers) "
             "goes in segments of a 2-octet header + <= 1230 octets, one datagram of <= 1280 "
             "each (or IPv6 fragments: --ipv6-frag) "
             "(docs/MODEL.md \"PQKE messages over 6LoWPAN\")"},
    {.name = "--ipv6-frag", .kind = CLI_OPT_FLAG, .store = CLI_STORE_INT,
     .offset = LOWPAN(ipv6_frag),
     .help = "a message over 1232 octets goes as one UDP datagram in IPv6 fragments of <= "
             "1280 octets (RFC 8200 s4.5: an 8-octet Fragment header, 1232 octets of the "
             "datagram per fragment; IPHC carries Next Header 44 inline, the Fragment and UDP "
             "headers go uncompressed) instead of application segments"},
    {.name = "--idle", .kind = CLI_OPT_WORD, .words = state_words,
     .def = PQPAN_DEFAULT_IDLE_RADIO, .store = CLI_STORE_INT, .offset = LOWPAN(idle),
     .help = "the radio when a node neither sends, receives nor computes (SIFS/LIFS, waiting "
             "for the other side): listen = RX current (a non-duty-cycled node), sleep = sleep "
             "current (ideal wake-up)"},
};

const struct cli_opt_table lowpan_chain_table =
    CLI_OPT_TABLE("802154-chain", NULL, chain_rows, struct lowpan_opts, lowpan_init);

const struct cli_opt_table lowpan_exchange_table =
    CLI_OPT_TABLE("802154-exchange", NULL, exchange_rows, struct lowpan_opts, lowpan_init);

const struct cli_opt_table lowpan_opts_table =
    CLI_OPT_TABLE("802154-link", "IEEE 802.15.4 link options (--link 802154)", lowpan_rows,
                  struct lowpan_opts, lowpan_init);

static const struct cli_opt busy_rows[] = {
    {.name = "--busy", .kind = CLI_OPT_NUMBER, .meta = "P", .min = 0, .max = 0.99,
     .def = PQPAN_DEFAULT_BUSY,
     .allowed = "a probability in 0..0.99", .store = CLI_STORE_DOUBLE, .offset = LOWPAN(busy),
     .help = "probability that a CCA finds the channel busy (0: an idle channel)"},
};

const struct cli_opt_table lowpan_busy_table =
    CLI_OPT_TABLE("802154-busy", NULL, busy_rows, struct lowpan_opts, lowpan_init);

void lowpan_link(struct pqpan_802154_link_cfg *l, const struct lowpan_opts *o)
{
    if (o->short_addr) {
        l->src.mode = PQPAN_802154_ADDR_SHORT;
        l->src.short_addr = 0x0001;
        l->dst.mode = PQPAN_802154_ADDR_SHORT;
        l->dst.short_addr = 0x0002;
    }
    l->sec_level = (uint8_t)o->sec_level;
    l->key_id_mode = (uint8_t)o->key_id_mode;
}

int lowpan_wake(uint64_t *xtal_ns, uint64_t *cpu_ns, const struct model_env *env,
                struct cli_msg *msg)
{
    const struct pqpan_profile *p = &env->in.profile;
    *xtal_ns = p->hfxo_start_ns;
    *cpu_ns = p->ieee802154.wake_cpu_ns;
    if (!p->ieee802154.wake_cpu_given) {
        return cli_msg_set(msg, EXIT_USAGE, "profile %s gives no ieee802154.wake_cpu_us: a radio "
                                            "that sleeps wakes before its frames and needs it "
                                            "(or use --idle listen --backoff listen)",
                           p->name);
    }
    return EXIT_OK;
}

unsigned lowpan_suite(const struct lowpan_opts *o)
{
    const struct pqpan_kem *k = pqpan_kem_by_name(o->kem);
    if (k == NULL) {
        return 0;
    }
    return o->pqke.hybrid ? pqpan_pqke_hybrid_suite_for_kem(k->id) : pqpan_pqke_suite_for_kem(k->id);
}


const char *lowpan_protocol_name(const struct lowpan_opts *o)
{
    return model_protocol_name(o->pqke.mode, model_pqke_sig(o->pqke.mode, o->pqke.sig, o->kem),
                               o->pqke.hybrid);
}

int lowpan_setup(struct pqpan_802154_est_config *c, uint64_t cycles[PQPAN_OP_COUNT],
                 const struct model_env *env, const struct lowpan_opts *o, struct cli_msg *msg)
{
    const struct pqpan_kem *k = pqpan_kem_by_name(o->kem);
    struct pqpan_ble_config ble;
    int rc;
    pqpan_802154_est_config_default(c);
    if (k == NULL) {
        return cli_msg_set(msg, EXIT_USAGE, "unknown KEM '%s' (ML-KEM-512, ML-KEM-768, "
                           "ML-KEM-1024)", o->kem);
    }
    pqpan_ble_config_default(&ble);
    ble.protocol = PQPAN_BLE_PROTO_PQPAN;
    ble.pqke_mode = o->pqke.mode;
    ble.pqke_sig = o->pqke.sig;
    ble.pqke_hybrid = o->pqke.hybrid;
    rc = model_setup(cycles, &ble, env, o->kem, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (pqpan_802154_est_config_pqke(c, lowpan_suite(o), ble.pqke_mode, ble.pqke_sig) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE, "--auth %s: no such PQKE variant",
                           pqpan_pqke_mode_name(o->pqke.mode));
    }
    c->csma = o->contiki ? pqpan_802154_csma_contiki() : pqpan_802154_csma_ieee();
    c->ipv6_frag = (uint8_t)o->ipv6_frag;
    c->p_busy = o->busy;
    c->cpu_hz = env->in.profile.cpu_hz;
    c->rx_always_on = (uint8_t)lowpan_idle_listens(o, env);
    c->backoff_rx = (uint8_t)lowpan_backoff_listens(o, env);
    lowpan_link(&c->link, o);
    if (!c->rx_always_on || !c->backoff_rx) {
        return lowpan_wake(&c->wake_xtal_ns, &c->wake_cpu_ns, env, msg);
    }
    return EXIT_OK;
}

int lowpan_idle_listens(const struct lowpan_opts *o, const struct model_env *env)
{
    return o->idle >= 0 ? o->idle : env->in.profile.ieee802154.idle_rx;
}

int lowpan_backoff_listens(const struct lowpan_opts *o, const struct model_env *env)
{
    return o->backoff >= 0 ? o->backoff : env->in.profile.ieee802154.backoff_rx;
}

static const char *state_word(int listens)
{
    return listens ? "listen" : "sleep";
}

/* The CPU time of the crypto operations, from their cycles: the ledger's CPU state holds
 * less of it, as the receiver of a message computes while its radio sends the Imm-Ack of
 * the message's last frame (that time is booked to the radio). */
static double crypto_ms(const struct pqpan_ledger *led, uint32_t hz)
{
    uint64_t ns = 0;
    int op;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        ns += pqpan_cycles_to_ns(led->op_cycles[op], hz);
    }
    return (double)ns * 1e-6;
}

int lowpan_fill(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env,
                const struct lowpan_opts *o, const struct pqpan_ledger led[2],
                const struct pqpan_ledger bits[2], uint64_t latency_ns, struct cli_msg *msg)
{
    struct pqpan_ledger l[MODEL_SIDES], b[MODEL_SIDES];
    int s, rc = EXIT_OK;
    memset(rows, 0, MODEL_SIDES * sizeof rows[0]);
    pqpan_ledger_init(&l[MODEL_TOTAL]);
    pqpan_ledger_init(&b[MODEL_TOTAL]);
    for (s = 0; s < 2; s++) {
        l[s] = led[s];
        b[s] = bits[s];
        pqpan_ledger_accumulate(&l[MODEL_TOTAL], &l[s]);
        pqpan_ledger_accumulate(&b[MODEL_TOTAL], &b[s]);
    }
    for (s = 0; s < MODEL_SIDES && rc == EXIT_OK; s++) {
        struct pqpan_run_exchange_row *r = &rows[s];
        rc = model_fill_side(r, env, PQPAN_RADIO_IEEE802154, &l[s], &b[s], msg);
        r->side = model_side_name(GROUP_802154, s);
        r->kem = o->kem;
        r->protocol = lowpan_protocol_name(o);
        r->auth = pqpan_pqke_mode_name(o->pqke.mode);
        r->phy = pqpan_radio_mode_name(PQPAN_RADIO_IEEE802154);
        r->latency_ms = (double)latency_ns * 1e-6;
        r->t_crypto_ms = crypto_ms(&l[s], env->in.profile.cpu_hz);
        r->pdus_tx = l[s].pdus_tx;
        r->pdus_rx = l[s].pdus_rx;
        r->bytes_tx = l[s].bytes_tx;
        r->bytes_rx = l[s].bytes_rx;
    }
    if (rc != EXIT_OK) {
        memset(rows, 0, MODEL_SIDES * sizeof rows[0]);
        return rc;
    }
    model_fill_sig(rows, env, model_pqke_sig(o->pqke.mode, o->pqke.sig, o->kem));
    return EXIT_OK;
}

/* µA × V × ms = nJ; / 1000 = µJ */
static double uj(double ua, double v, double ms)
{
    return ua * v * ms * 1e-3;
}

/* Expected CCA and backoff time of n of the exchange's total data frames (every frame
 * has the same closed-form expectation). */
static void csma_share(struct pqpan_run_exchange_row *r, const struct pqpan_802154_estimate *e, unsigned n,
                       unsigned total)
{
    double share = total > 0 ? (double)n / (double)total : 0.0;
    r->t_cca_ms = e->ccas * share * (double)PQPAN_802154_CCA_NS * 1e-6;
    r->t_backoff_ms = e->backoff_ns * share * 1e-6;
}

void lowpan_fill_802154(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct pqpan_802154_estimate *e,
                        const struct pqpan_802154_est_config *c, const struct model_env *env)
{
    const struct pqpan_profile *p = &env->in.profile;
    unsigned data[2], total = e->frames[0] + e->frames[1] + e->frames[2] + e->frames[3];
    double rx_ua = 0.0;
    int s;
    data[PQPAN_802154_INITIATOR] = e->frames[0] + e->frames[2];
    data[PQPAN_802154_RESPONDER] = e->frames[1] + e->frames[3];
    if (pqpan_profile_rx_ua(p, env->table, PQPAN_RADIO_IEEE802154, &rx_ua) != PQPAN_OK) {
        rx_ua = 0.0; /* lowpan_fill has reported the missing current already */
    }
    for (s = 0; s < MODEL_SIDES; s++) {
        struct pqpan_run_exchange_row *r = &rows[s];
        r->idle = state_word(c->rx_always_on);
        r->backoff = state_word(c->backoff_rx);
        r->mac_security = lowpan_sec_name(c->link.sec_level);
        r->data_frames_tx = s < 2 ? data[s] : total;
        r->acks_tx = s < 2 ? data[1 - s] : total;
        csma_share(r, e, (unsigned)r->data_frames_tx, total);
        r->e_cca_uj = uj(rx_ua, p->supply_v, r->t_cca_ms);
        r->e_backoff_rx_uj = c->backoff_rx ? uj(rx_ua, p->supply_v, r->t_backoff_ms) : 0.0;
        r->e_backoff_sleep_uj = c->backoff_rx ? 0.0 : uj(p->sleep_ua, p->supply_v, r->t_backoff_ms);
    }
}

int lowpan_estimate(struct pqpan_run_exchange_row rows[MODEL_SIDES], struct pqpan_802154_est_config *c,
                    struct pqpan_802154_estimate *e, const struct model_env *env,
                    const struct lowpan_opts *o, struct cli_msg *msg)
{
    uint64_t cycles[PQPAN_OP_COUNT];
    int rc = lowpan_setup(c, cycles, env, o, msg);
    memset(rows, 0, MODEL_SIDES * sizeof rows[0]);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (pqpan_802154_estimate_pqke(e, c, cycles) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE, "802.15.4 configuration out of range");
    }
    rc = lowpan_fill(rows, env, o, e->ledger, e->bits, e->latency_ns, msg);
    if (rc == EXIT_OK) {
        lowpan_fill_802154(rows, e, c, env);
    }
    return rc;
}

/* ---- assumptions ---- */

/* The 802.15.4 TX level at the --tx-dbm in use (its index), or -1. */
static int tx_level(const struct model_env *env)
{
    const struct pqpan_profile_802154 *s = &env->in.profile.ieee802154;
    size_t i;
    for (i = 0; i < s->tx_level_count && i < PQPAN_PROFILE_TX_LEVELS_MAX; i++) {
        if (s->tx_dbm[i] == env->eopts.tx_dbm && s->tx_given[env->table][i]) {
            return (int)i;
        }
    }
    return -1;
}

static const char *given_or(const char *src, int given)
{
    return given ? src : "not given";
}

/* "from the profile: SOURCE" or "--OPT (command line)". */
static void print_origin(FILE *f, int override, const char *opt, const char *src)
{
    if (override >= 0) {
        fprintf(f, "--%s (command line)", opt);
    } else {
        fprintf(f, "profile: %s", src);
    }
}

/* Whether an 802.15.4 run uses the profile figure at path: as model_figure_used says for
 * the link, but the crystal-start figures only when wake-ups are charged (*ctx != 0). */
static int lowpan_uses(const struct model_env *env, const char *path, const void *ctx)
{
    int wakes = *(const int *)ctx;
    if (!wakes && strncmp(path, "hfxo_start_", 11) == 0) {
        return 0;
    }
    return model_figure_used(env, PQPAN_RADIO_IEEE802154, path);
}

/* Octets the auxiliary security header adds to a data frame. */
static size_t aux_octets(const struct lowpan_opts *o)
{
    return pqpan_802154_sec_aux_len((uint8_t)o->sec_level, (uint8_t)o->key_id_mode);
}

void lowpan_print_security_wake(FILE *f, const struct model_env *env, const struct lowpan_opts *o,
                                int wakes, const char *prefix)
{
    const struct pqpan_profile *p = &env->in.profile;
    if (o->sec_level == PQPAN_802154_SEC_NONE) {
        fprintf(f, "%sMAC security: none\n", prefix);
    } else {
        fprintf(f, "%sMAC security: %s, key identifier mode %d: auxiliary security header %zu + "
                   "MIC %zu octets\n%s  per frame (IEEE 802.15.4-2015 §9.4, Table 9-6), AES-128 "
                   "CCM*; Imm-Acks unsecured\n",
                prefix, lowpan_sec_name(o->sec_level), o->key_id_mode, aux_octets(o),
                pqpan_802154_sec_mic_len((uint8_t)o->sec_level), prefix);
    }
    if (!wakes) {
        fprintf(f, "%swake-ups: none (the radio never sleeps: it listens when idle and in the "
                   "backoff)\n",
                prefix);
        return;
    }
    fprintf(f, "%swake-up from sleep: crystal start %.0f us at %.0f uA (profile hfxo_start_us, "
               "hfxo_start_ua)\n%s  + CPU %.0f us at %.0f uA (profile ieee802154.wake_cpu_us: %s)\n",
            prefix, (double)p->hfxo_start_ns * 1e-3, p->hfxo_start_ua, prefix,
            (double)p->ieee802154.wake_cpu_ns * 1e-3, p->cpu_ua, env->in.src802154.wake_cpu);
}

void lowpan_print_derived(FILE *f, const struct model_env *env, int wakes, const char *prefix)
{
    model_print_derived_where(f, env, lowpan_uses, &wakes, prefix);
}

void lowpan_print_derived_json(FILE *f, const struct model_env *env, int wakes, const char *indent)
{
    model_print_derived_where_json(f, env, lowpan_uses, &wakes, indent);
}

void lowpan_print_security_wake_json(FILE *f, const struct model_env *env,
                                     const struct lowpan_opts *o, int wakes, const char *indent)
{
    const struct pqpan_profile *p = &env->in.profile;
    fprintf(f, "%s\"mac_security\": \"%s\",\n%s\"key_id_mode\": %d,\n%s\"aux_header_octets\": "
               "%zu,\n%s\"mic_octets\": %zu,\n%s\"wake_ups\": %s,\n%s\"wake_xtal_us\": %.1f,\n"
               "%s\"wake_xtal_ua\": %.1f,\n%s\"wake_cpu_us\": ",
            indent, lowpan_sec_name(o->sec_level), indent, o->key_id_mode, indent, aux_octets(o),
            indent, pqpan_802154_sec_mic_len((uint8_t)o->sec_level), indent,
            wakes ? "true" : "false", indent, (double)p->hfxo_start_ns * 1e-3, indent,
            p->hfxo_start_ua, indent);
    if (p->ieee802154.wake_cpu_given) {
        fprintf(f, "%.1f", (double)p->ieee802154.wake_cpu_ns * 1e-3);
    } else {
        fputs("null", f);
    }
    fprintf(f, ",\n%s\"wake_cpu_ua\": %.1f,\n%s\"wake_cpu_source\": ", indent, p->cpu_ua, indent);
    model_json_string(f, env->in.src802154.wake_cpu);
    fputs(",\n", f);
}

const char *lowpan_idle_text(char buf[LOWPAN_IDLE_TEXT_MAX], const struct lowpan_opts *o,
                             const struct model_env *env)
{
    snprintf(buf, LOWPAN_IDLE_TEXT_MAX,
             "%s between frames and while the other side computes (%s), backoff %s (%s)",
             state_word(lowpan_idle_listens(o, env)),
             o->idle >= 0 ? "--idle" : "the profile's ieee802154.idle",
             state_word(lowpan_backoff_listens(o, env)),
             o->backoff >= 0 ? "--backoff" : "the profile's ieee802154.backoff");
    return buf;
}

void lowpan_print_exchange_line(FILE *f, const struct model_env *env, const struct lowpan_opts *o,
                                const char *prefix)
{
    char idle[LOWPAN_IDLE_TEXT_MAX];
    model_print_exchange_line(f, prefix, lowpan_protocol_name(o),
                              pqpan_pqke_mode_name(o->pqke.mode), lowpan_idle_text(idle, o, env));
}

void lowpan_print_assumptions(FILE *f, const struct model_env *env, const struct lowpan_opts *o,
                              const char *prefix)
{
    const struct pqpan_profile *p = &env->in.profile;
    const struct pqpan_io_802154_sources *src = &env->in.src802154;
    int lvl = tx_level(env), idle = lowpan_idle_listens(o, env);
    int backoff = lowpan_backoff_listens(o, env);
    int rx_given = p->rx_given[env->table][PQPAN_RADIO_IEEE802154];
    model_print_profile_line(f, env, prefix);
    fprintf(f, "%scurrents: profile section ieee802154, %s table: TX %d dBm %.0f uA, RX %.0f uA\n",
            prefix, pqpan_current_table_name(env->table), env->eopts.tx_dbm,
            lvl >= 0 ? p->ieee802154.tx_ua[env->table][lvl] : 0.0,
            p->rx_ua[env->table][PQPAN_RADIO_IEEE802154]);
    fprintf(f, "%s  TX source: %s\n%s  RX source: %s\n", prefix,
            lvl >= 0 ? src->tx[env->table][lvl] : "not given", prefix,
            given_or(src->rx[env->table], rx_given));
    fprintf(f, "%sidle radio (SIFS/LIFS, waiting for the other side): %s, %s current; ", prefix,
            state_word(idle), idle ? "RX" : "sleep");
    print_origin(f, o->idle, "idle", src->idle);
    fprintf(f, "\n%sCSMA-CA backoff: %s, %s current; ", prefix, state_word(backoff),
            backoff ? "RX" : "sleep");
    print_origin(f, o->backoff, "backoff", src->backoff);
    fprintf(f, "\n%sCCA (aCcaTime 128 us) at the RX current; aTurnaroundTime (192 us) CCA to data "
               "frame at the TX current,\n%s  data frame to Imm-Ack at the RX current; TX ramp-up "
               "in 802.15.4 mode (tTXEN) fast %.0f us,\n%s  normal %.0f us (0: not given; inside "
               "the turnaround, not charged on top)\n",
            prefix, prefix, (double)p->ieee802154.ramp_tx_fast_ns * 1e-3, prefix,
            (double)p->ieee802154.ramp_tx_normal_ns * 1e-3);
    fprintf(f, "%smessages over %u octets: %s\n", prefix, (unsigned)PQPAN_802154_UDP_PAYLOAD_MAX,
            o->ipv6_frag
                ? "one UDP datagram in IPv6 fragments (RFC 8200 s4.5) of <= 1280 octets"
                : "application segments (2-octet header), one datagram of <= 1280 octets each");
    lowpan_print_security_wake(f, env, o, !idle || !backoff, prefix);
    lowpan_print_derived(f, env, !idle || !backoff, prefix);
    model_print_crypto_gamma(f, env, prefix);
    fprintf(f, "%saccountings: e_comm_uj/e_total_uj = bits (data frames, Imm-Acks and the "
               "turnaround between them\n%s  x gamma_comm); e_comm_events_uj/e_total_events_uj = "
               "all states (adds CCA, backoff,\n%s  the turnaround before each data frame, idle "
               "listening or sleep; no gamma)\n",
            prefix, prefix, prefix);
}

void lowpan_print_assumptions_json(FILE *f, const struct model_env *env,
                                   const struct lowpan_opts *o, const char *indent)
{
    const struct pqpan_profile *p = &env->in.profile;
    const struct pqpan_io_802154_sources *src = &env->in.src802154;
    int lvl = tx_level(env), idle = lowpan_idle_listens(o, env);
    int backoff = lowpan_backoff_listens(o, env);
    int rx_given = p->rx_given[env->table][PQPAN_RADIO_IEEE802154];
    fprintf(f, "%s\"profile\": ", indent);
    model_print_profile_json(f, env, indent);
    fprintf(f, ",\n%s\"currents\": \"%s\",\n%s\"currents_section\": \"ieee802154\",\n"
               "%s\"tx_dbm\": %d,\n%s\"tx_ua\": %.1f,\n%s\"tx_source\": ",
            indent, pqpan_current_table_name(env->table), indent, indent, env->eopts.tx_dbm,
            indent, lvl >= 0 ? p->ieee802154.tx_ua[env->table][lvl] : 0.0, indent);
    model_json_string(f, lvl >= 0 ? src->tx[env->table][lvl] : "not given");
    fprintf(f, ",\n%s\"rx_ua\": %.1f,\n%s\"rx_source\": ", indent,
            p->rx_ua[env->table][PQPAN_RADIO_IEEE802154], indent);
    model_json_string(f, given_or(src->rx[env->table], rx_given));
    fprintf(f, ",\n%s\"idle\": \"%s\",\n%s\"idle_source\": ", indent, state_word(idle), indent);
    model_json_string(f, o->idle >= 0 ? "--idle (command line)" : src->idle);
    fprintf(f, ",\n%s\"backoff\": \"%s\",\n%s\"backoff_source\": ", indent,
            state_word(backoff), indent);
    model_json_string(f, o->backoff >= 0 ? "--backoff (command line)" : src->backoff);
    fprintf(f, ",\n%s\"ramp_tx_fast_us\": %.1f,\n%s\"ramp_tx_normal_us\": %.1f,\n", indent,
            (double)p->ieee802154.ramp_tx_fast_ns * 1e-3, indent,
            (double)p->ieee802154.ramp_tx_normal_ns * 1e-3);
    fprintf(f, "%s\"large_messages\": \"%s\",\n", indent, o->ipv6_frag ? "ipv6-frag" : "segments");
    lowpan_print_security_wake_json(f, env, o, !idle || !backoff, indent);
    lowpan_print_derived_json(f, env, !idle || !backoff, indent);
    model_print_crypto_gamma_json(f, env, indent);
}

int lowpan_opts_choices(const char *opt, cli_word_fn add, void *ctx)
{
    return strcmp(opt, "--link") != 0 && (cli_opt_table_words(&lowpan_opts_table, opt, add, ctx) ||
                                           cli_opt_table_words(&lowpan_exchange_table, opt, add, ctx));
}
