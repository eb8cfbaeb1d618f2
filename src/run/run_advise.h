/* The run of `pqpan advise` (pqpan_run "advise", run.h; docs/CLI.md "pqpan advise",
 * docs/MODEL.md "Advice"): the cheapest key exchange for a battery-powered device under
 * constraints. Options (run_advise_opts.c), the search over the link model
 * (run_advise_search.c), the answer as notes and CHOICE rows (run_advise_print.c,
 * run_advise.c) and --out's figures (advise_figures.c); the arithmetic is the library's
 * (include/pqpan/advise.h). Private to the run layer and the CLI. */
#ifndef PQPAN_RUN_ADVISE_H
#define PQPAN_RUN_ADVISE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lowpan.h"
#include "model.h"
#include "notes.h"
#include "pqpan/advise.h"
#include "pqpan/multihop154.h"
#include "pqpan/run.h"

#define ADV_CMD "advise"
#define ADV_LEVELS 3 /* ML-KEM-512, -768, -1024 */

/* Energizer CR2032 product datasheet (data.energizer.com/pdfs/cr2032.pdf, form
 * 2032NA0618): "Typical Capacity 235 mAh (to 2.0 volts), rated at 15K ohms at 21°C". */
#define ADV_CR2032_MAH 235.0
#define ADV_CR2032_SOURCE                                                                   \
    "Energizer CR2032 datasheet (data.energizer.com/pdfs/cr2032.pdf): typical capacity "    \
    "235 mAh to 2.0 V at a 15 kohm load, 21 C"

enum adv_battery { ADV_BATTERY_PERIPHERAL = 0, ADV_BATTERY_CENTRAL, ADV_BATTERY_BOTH };

/* --link: bits of the links searched. */
#define ADV_LINK_BLE 1u
#define ADV_LINK_802154 2u

/* --auth's default: the PQKE modes that authenticate both devices with keys a device can
 * hold (docs/PROTOCOL.md §5): psk, kem-auth-mutual, sig-mutual. numeric (a display and a
 * user on both sides) and the one-sided and unauthenticated modes only when asked. */
#define ADV_AUTH_MUTUAL                                                                     \
    (PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_PSK) |                                              \
     PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL) |                                 \
     PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_SIG_MUTUAL))
/* --hybrid: bit 0 ML-KEM alone, bit 1 P-256 + ML-KEM. */
#define ADV_HYBRID_NONE 1u
#define ADV_HYBRID_P256 2u
/* The variants of the exchange searched: 7 modes x {ML-KEM alone, with P-256}. */
#define ADV_VARIANT_MAX 14

/* One variant of pqpan's exchange: authentication mode and suite (the study protocol: mode
 * none, no P-256). */
struct advise_variant {
    unsigned mode;  /* enum pqpan_pqke_mode */
    int hybrid;     /* 1: P-256 + ML-KEM */
};

struct advise_opts {
    struct model_opts m;        /* energy options; --profile is the battery-powered device */
    const char *peer_profile;   /* NULL: the same as --profile */
    unsigned min_level;         /* NIST category 1, 3 or 5 */
    double max_latency_ms;      /* 0: no limit */
    enum adv_battery battery;
    double battery_mah;
    double rekey_s;
    char rekey_text[32];        /* --rekey-every as given */
    struct pqpan_ble_idle_config idle; /* --idle-phy, --idle-ci-ms, --idle-latency */
    uint32_t idle_ll_octets;
    unsigned peer_phys;         /* bit 1u << enum pqpan_ble_phy */
    uint32_t peer_max_ll;
    uint32_t peer_max_mtu;
    enum pqpan_ble_protocol protocol;
    unsigned auth_modes;        /* --auth: PQPAN_PQKE_MODE_BIT of each mode allowed */
    unsigned hybrids;           /* --hybrid: ADV_HYBRID_* bits */
    unsigned sig;               /* --sig: the ML-DSA set of the sig modes, 0 = the KEM's
                                   category (model_sig_for_kem) */
    size_t top;
    const char *out_dir;        /* NULL: no figures */
    int brief;                  /* --brief: the answer block only */
    double app_ua;              /* --app-ua: the application's own average current */
    double self_discharge_pct;  /* --self-discharge-pct-year */
    double derate;              /* --battery-derate: usable fraction of the capacity */
    unsigned links;             /* ADV_LINK_* bits */
    double poll_ms;             /* 802.15.4 poll period; <= 0: the idle interval's */
    int poll_from_idle;         /* 1: poll_ms is the idle interval's (no --poll-ms) */
    struct lowpan_opts lowpan;  /* 802.15.4 link options (--busy, --csma, --idle, ...) */
};

/* advise's own options as data (opts.h), by help section, and the parts of the shared
 * tables it takes (advise_opts.c). */
extern const struct cli_opt_table advise_device_table;
extern const struct cli_opt_table advise_constraint_table;
extern const struct cli_opt_table advise_idle_table;
extern const struct cli_opt_table advise_peer_table;
extern const struct cli_opt_table advise_output_table;
extern const char *const advise_lowpan_link[];
extern const char *const advise_lowpan_exchange[];
extern const char *const advise_gamma[];

/* Every table advise reads, in the order help lists them: the rows it takes (only: NULL for
 * all), where they store and the help section each opens (NULL: it continues the one
 * before). */
enum adv_into { ADV_INTO_SELF, ADV_INTO_MODEL, ADV_INTO_LOWPAN };
struct advise_table {
    const struct cli_opt_table *t;
    const char *const *only;
    enum adv_into into;
    const char *section;
};
extern const struct advise_table advise_tables[];
extern const size_t advise_n_tables;

/* The row of option name among advise's tables (NULL: none), *into the part of *o it
 * stores into. */
const struct cli_opt *advise_opt_row(const char *name, struct advise_opts *o, void **into);

/* An option advise refuses with a reason (--gamma-comm, --kem, --addr): EXIT_USAGE with
 * the reason in *m, else EXIT_OK. */
int advise_refused(const char *name, struct cli_msg *m);

/* *o at every option's default. */
/* The request opts[0..n_opts) into *o (advise's defaults first), checked as the run checks
 * it: PQPAN_OK, or the error in r's (run_internal.h; o's texts point into r's values). */
struct run_ctx;
int advise_request_parse(struct run_ctx *r, struct advise_opts *o,
                         const struct pqpan_run_opt *opts, size_t n_opts);
void advise_opts_defaults(struct advise_opts *o);

/* What the options say together, checked (and the poll period derived) before any work:
 * EXIT_OK or EXIT_USAGE with *m, *option the option it is about. */
int advise_opts_check(struct advise_opts *o, struct cli_msg *m, const char **option);

/* "30s", "15m", "1h", "1d", "7d", "1.5h": a positive number and one unit s|m|h|d, from 1 s
 * to 3650 d. 0 and *seconds set, or -1. */
int advise_parse_duration(const char *text, double *seconds);

/* One year of 365.25 days, in seconds: battery life in years. */
#define ADV_SECONDS_PER_YEAR (365.25 * 86400.0)

/* What the battery figure leaves out (--app-ua, --self-discharge-pct-year and
 * --battery-derate at their defaults), or what it includes; shortly: the answer block's
 * words. Into buf (len bytes). */
void advise_battery_caveats(char *buf, size_t len, const struct advise_opts *o, int shortly);

/* A comma-separated list of PHY names (1M, 2M, S2, S8) into a bit mask; -1 on an empty
 * list, an empty item or an unknown name. */
int advise_parse_phys(const char *text, unsigned *mask);

/* The grids of the search, in the order the ids enumerate them. */
#define ADV_LL_MAX 12
#define ADV_MTU_MAX 24
#define ADV_CI_MAX 12

/* How the exchange's messages go over GATT, with the peripheral as the GATT server (the
 * study's roles): the --transfer choices (pqpan_ble_transfer_choice) and KeyGen sides that
 * GATT can build (pqpan_ble_config_gatt_fault): each SERVER/CLIENT pair with KeyGen on
 * either side, the study's preset with KeyGen on the peripheral. */
#define ADV_SENDS_MAX (PQPAN_BLE_TRANSFER_CHOICES * 2)

struct advise_send {
    enum pqpan_ble_transfer server, client;
    enum pqpan_ble_role keygen;
};

struct advise_grid {
    unsigned priced_phys;            /* the peer's PHYs that both profiles price */
    enum pqpan_ble_phy phy[PQPAN_BLE_PHY_COUNT];
    size_t n_phy;
    uint32_t ll[ADV_LL_MAX];
    size_t n_ll;
    uint32_t mtu[ADV_MTU_MAX];
    size_t n_mtu;
    uint64_t ci_ns[ADV_CI_MAX];
    size_t n_ci;
    size_t idle_phy, idle_ll, idle_ci; /* the idle link's settings' indices */
};

/* Switching the link from the idle settings to one grid point for the exchange and back
 * (pqpan_advise_round_trip), priced per side. */
struct advise_switch {
    double uj[2];          /* both legs, events accounting, by role */
    double there_ms, back_ms;
    unsigned procedures;   /* bit 1u << phase of each procedure of the way there (the way
                              back runs the same ones) */
    uint64_t llctrl_pdus;  /* LL control PDUs of both legs, both sides */
};

/* The 802.15.4 part of the space per variant: level x addressing (extended, short) x the
 * node that runs KeyGen (the device, its peer). */
#define ADV_802154_CONFIGS (ADV_LEVELS * 2 * 2)

/* One configuration of the search. */
struct advise_cfg {
    unsigned link;                   /* ADV_LINK_BLE or ADV_LINK_802154 */
    int short_addr;                  /* 802.15.4: 16-bit short addresses (else EUI-64) */
    int level;                       /* 0..ADV_LEVELS-1 */
    size_t variant;                  /* index into advise_ctx.variant */
    size_t i_phy, i_ll, i_ci;        /* indices into the grid */
    enum pqpan_ble_phy phy;
    uint32_t ll_octets, att_mtu;
    size_t i_send;                   /* BLE: index into the ctx's sends */
    enum pqpan_ble_transfer server_transfer, client_transfer;
    uint64_t ci_ns;
    enum pqpan_ble_role keygen;      /* the role index of the node running KeyGen (802.15.4:
                                        the initiator; the device has the battery's index) */
};

/* What one configuration costs. e_uj / t_s / charge are per role (enum pqpan_ble_role). */
struct advise_eval {
    unsigned link;         /* ADV_LINK_* */
    int short_addr;        /* 802.15.4: the addressing (the poll uses it too) */
    double exchange_uj[2]; /* the exchange alone (estimate's e_exchange_events_uj) */
    double e_uj[2];        /* the exchange and the link switch there and back */
    double t_s[2];         /* the time both occupy on that side */
    double objective_uj;   /* the battery side's e_uj (both: the sum) */
    double exchange_objective_uj; /* the same of exchange_uj */
    double latency_ms;     /* time to key: from the decision to rekey to both sides holding
                              the key (the BLE switch there, then the exchange) */
    double exchange_latency_ms; /* the exchange alone, first computation to the last message */
    double idle_again_ms;  /* from the decision until the link is back on its idle settings
                              (BLE: time to key + the switch back; 802.15.4: time to key) */
    const struct advise_switch *sw; /* BLE: the switch priced in (NULL: 802.15.4) */
    unsigned hops;         /* 802.15.4: the hops to the peer (1: one link; > 1: a chain) */
    double forwarder_uj[PQPAN_802154_CHAIN_NODES]; /* a chain: node n's energy per exchange
                              (n = 1 .. hops - 1), all-states accounting, priced with the
                              peer's profile: always-on routers, their battery not searched */
};

/* Everything the search needs, loaded once. */
struct advise_ctx {
    const struct advise_opts *o;
    struct cli_msg *msg;               /* where an error's message goes */
    FILE *out;                         /* where the notes are rendered */
    struct model_env *env[2];          /* by role; the same pointer when no --peer-profile */
    const struct model_env *timing;    /* the device (--profile), whose timing the link
                                          model uses */
    enum pqpan_ble_role dev_role;      /* its role index (the peer has the other) */
    uint32_t n_ble;                    /* ids 0..n_ble-1 are BLE, the next 802.15.4 */
    struct advise_variant variant[ADV_VARIANT_MAX]; /* the variants searched */
    size_t n_variant;
    struct advise_send sends[ADV_SENDS_MAX]; /* BLE: the ways to send, n_sends of them */
    size_t n_sends;
    unsigned sig[ADV_LEVELS];          /* the ML-DSA set of the sig modes per level */
    uint64_t cycles[ADV_LEVELS][ADV_VARIANT_MAX][PQPAN_OP_COUNT];
    uint32_t ek_bytes[ADV_LEVELS], ct_bytes[ADV_LEVELS];
    double idle_ua[2];                 /* the idle BLE link's average current, by role */
    double poll_ms;                    /* 802.15.4: the device's poll period */
    double idle154_ua[2];              /* 802.15.4: the device's average current polling,
                                          [short addresses] */
    struct advise_grid grid;
    struct advise_switch sw[PQPAN_BLE_PHY_COUNT][ADV_LL_MAX][ADV_CI_MAX]; /* by grid index */
    char dropped_phys[96];             /* peer PHYs a profile gives no current for */
};

/* Loads both profiles and checks what the search needs before it starts (cycle counts
 * of every level, the idle link, the PHYs the profiles price). An exit code (run_text.h),
 * the message in *msg; on failure nothing is left to free. */
int advise_ctx_load(struct advise_ctx *c, const struct advise_opts *o, struct cli_msg *msg);

/* rc, and when it is not EXIT_OK, m's text as the run's message (c->msg). */
int advise_report(const struct advise_ctx *c, int rc, const struct cli_msg *m);
void advise_ctx_free(struct advise_ctx *c);

/* The KEM name and NIST category of level index k. */
const char *advise_kem_name(int k);
unsigned advise_category(int k);

/* The configuration id enumerates (0 .. advise_space_size - 1). */
uint32_t advise_space_size(const struct advise_ctx *c);
void advise_cfg_of(struct advise_cfg *cfg, const struct advise_ctx *c, uint32_t id);

/* Runs one configuration. EXIT_OK, or EXIT_FAILURE_RUN when the link model rejects it
 * (e.g. the study transfer below ATT_MTU 403): not a valid configuration. Other exit
 * codes (a current a profile lacks) are errors, message in *msg. */
int advise_eval(struct advise_eval *ev, const struct advise_ctx *c, const struct advise_cfg *cfg,
                struct cli_msg *msg);

/* As advise_eval, and the highest current (uA) each side draws during the exchange into
 * peak_ua[role]: the largest the energy model charges among the states the exchange spends
 * time in (the profile's figures: a system-level TX current includes the CPU and the
 * crystal). */
int advise_eval_peak(struct advise_eval *ev, double *peak_ua, const struct advise_ctx *c,
                     const struct advise_cfg *cfg, struct cli_msg *msg);

/* cfg on the idle link's PHY, LL size and interval (no switch): BLE only. As advise_eval. */
int advise_eval_idle(struct advise_eval *ev, const struct advise_ctx *c,
                     const struct advise_cfg *cfg, struct cli_msg *msg);

/* Every constraint but the level's: the latency limit, and the exchange with its link
 * switch ends within the rekey interval on both sides. */
int advise_meets_link_constraints(const struct advise_ctx *c, const struct advise_eval *ev);

/* Whether cfg runs on the idle link's settings (BLE), so that no switch is priced. */
int advise_on_idle(const struct advise_ctx *c, const struct advise_cfg *cfg);

/* The study's configuration at level k (1M, ATT_MTU 403, LL 27, study transfer, 50 ms,
 * KeyGen on the peripheral) with --protocol's messages in variant v. */
int advise_eval_study(struct advise_eval *ev, const struct advise_ctx *c, int k, size_t v,
                      struct cli_msg *msg);

/* The variant's name, e.g. "psk", "sig-mutual (ML-DSA-65)", "kem-auth-mutual + P-256". */
void advise_variant_name(char *buf, size_t len, const struct advise_ctx *c, int level, size_t v);

/* Points kept for the energy/latency figure: per level, PHY, interval, transfer method and
 * KeyGen side (way to send) the cheapest BLE configuration, then every 802.15.4
 * configuration. */
#define ADV_GROUPS_BLE (ADV_LEVELS * PQPAN_BLE_PHY_COUNT * ADV_CI_MAX * ADV_SENDS_MAX)
#define ADV_GROUPS (ADV_GROUPS_BLE + ADV_802154_CONFIGS)

/* One line describing configuration cfg ("psk; LE 2M, LL 251, ..., notify/write-cmd, ...,
 * KeyGen on the central; INIT and FIN: central writes (Write Commands); RESP: peripheral
 * notifies" or "psk; 802.15.4, ..."), at most ADV_DESCRIBE_MAX octets with its NUL. */
#define ADV_DESCRIBE_MAX 320
void advise_describe(char *buf, size_t len, const struct advise_ctx *c,
                     const struct advise_cfg *cfg);

struct advise_result {
    uint32_t configs, invalid, feasible;
    struct pqpan_advise_rank rank;
    struct pqpan_advise_front front;
    struct pqpan_advise_point level_best[ADV_LEVELS]; /* every constraint but the level's */
    int level_found[ADV_LEVELS];
    struct pqpan_advise_point nearest; /* no feasible configuration: the fastest valid one
                                          at an allowed level */
    int nearest_found;
    struct pqpan_advise_point group[ADV_GROUPS];
    int group_found[ADV_GROUPS];
    /* BLE, per level and LL size: the cheapest within every constraint but the level's */
    struct pqpan_advise_point ll_best[ADV_LEVELS][ADV_LL_MAX];
    int ll_found[ADV_LEVELS][ADV_LL_MAX];
    struct advise_eval study[ADV_LEVELS][ADV_VARIANT_MAX];
    /* BLE, within the constraints: the cheapest configuration on the idle link's settings
     * (no switch) and the cheapest with a switch there and back: whether switching pays */
    struct pqpan_advise_point best_on_idle, best_switched;
    int on_idle_found, switched_found;
    /* within the constraints, the cheapest per link: [0] BLE, [1] 802.15.4 */
    struct pqpan_advise_point link_best[2];
    int link_found[2];
};

/* Runs the whole search. An exit code, the message in c->msg. */
int advise_search(struct advise_result *r, const struct advise_ctx *c);

/* Battery life of one side for a configuration's evaluation (charge = energy / the side's
 * supply voltage). A pqpan error code. */
int advise_battery(struct pqpan_advise_battery *b, const struct advise_ctx *c,
                   const struct advise_eval *ev, enum pqpan_ble_role role);

/* The cycle-table row with the fewest cycles for level k's op, any implementation (NULL
 * if none). */
const struct pqpan_cycle_row *advise_cheapest(const struct advise_ctx *c, int level,
                                              enum pqpan_op op);

/* The floor of one side for configuration cfg's level, protocol and KeyGen side, on the
 * PHYs of grid.priced_phys, with the cheapest implementation of every operation; count: the
 * executions of each operation the side runs. A pqpan error code. */
int advise_floor(struct pqpan_advise_floor *f, uint64_t count[PQPAN_OP_COUNT],
                 const struct advise_ctx *c, const struct advise_cfg *cfg,
                 enum pqpan_ble_role role);

/* The other side's role index. */
enum pqpan_ble_role advise_other_role(enum pqpan_ble_role r);

/* Whether role is a battery-powered side. */
int advise_is_battery(const struct advise_opts *o, enum pqpan_ble_role role);

/* The answer (run_advise_print.c) rendered into c->out: the table output's text, the JSON
 * output's members. Each returns an exit code, the message in c->msg. */
int advise_print_table(const struct advise_ctx *c, const struct advise_result *r);
int advise_print_json(const struct advise_ctx *c, const struct advise_result *r);

/* One CHOICE row per recommendation, in rank order (run_advise_print.c): each with the
 * fields of pqpan_run_advise_choice_fields. emit_row passes one to the caller. */
int advise_choices(const struct advise_ctx *c, const struct advise_result *r,
                   int (*emit_row)(void *arg, const struct pqpan_run_advise_choice *w),
                   void *arg);

/* --out DIR before any work: created, and a file written in it and removed. EXIT_OK, or
 * EXIT_USAGE or EXIT_IO with the message in *msg (the file's own on stderr, outfile.h). */
int advise_out_check(const char *dir, struct cli_msg *msg);

/* ---- run_advise_mesh.c: advise --link ble-mesh ---- */

/* Its own options (--link ble-mesh, --hybrid); it also takes advise's energy options,
 * --min-level, --max-latency-ms, --top and --format (ADV_MESH_TAKES says so). */
#define ADV_MESH_TAKES                                                                      \
    "advise --link ble-mesh takes the energy options, --min-level, --max-latency-ms, --top, " \
    "--format and --hybrid"
extern const struct cli_opt_table advise_mesh_table;

/* The row of option name as advise --link ble-mesh takes it (NULL: none), *into the part of
 * opts (advise_mesh_opts_size bytes) it stores into. */
const struct cli_opt *advise_mesh_opt_row(const char *name, void *opts, void **into);
size_t advise_mesh_opts_size(void);

/* The figures of --out DIR (advise_figures.c), after the answer: an exit code, message
 * printed (outfile.h, figure.h). */
int advise_write_figures(const struct advise_ctx *c, const struct advise_result *r);

#endif
