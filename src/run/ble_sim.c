/* One BLE key exchange in the packet simulator (see ble_sim.h). */
#include <string.h>

#include "ble_sim.h"
#include "pqpan/kem.h"
#include "pqpan/pqke.h"

void ble_sim_opts_init(struct ble_sim_opts *o)
{
    memset(o, 0, sizeof *o);
    o->transport = pqpan_default_is(PQPAN_DEFAULT_TRANSPORT, "l2cap-coc") ? PQPAN_SIM_L2CAP_COC
                                                                          : PQPAN_SIM_GATT;
    o->seed = pqpan_default_u32(PQPAN_DEFAULT_SEED);
    o->timeout_ms = pqpan_default_u32(PQPAN_DEFAULT_SUPERVISION_TIMEOUT_MS);
}

static int is_lesc(const struct link_opts *l)
{
    return strcmp(l->kem, MODEL_LESC_NAME) == 0;
}

int ble_sim_check(const struct link_opts *l, const struct ble_sim_opts *o, struct cli_msg *msg)
{
    int rc = link_opts_check(&l->cfg, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (o->transport == PQPAN_SIM_GATT && !l->allow_unbuildable) {
        rc = link_gatt_check(&l->cfg, l->kem, msg); /* a channel has no GATT roles */
        if (rc != EXIT_OK) {
            return rc;
        }
    }
    if (l->cfg.encrypted) {
        return cli_msg_set(msg, EXIT_USAGE, "--encrypted is not simulated (the exchange runs "
                                            "before the LL encryption)");
    }
    if (is_lesc(l) && o->transport != PQPAN_SIM_GATT) {
        return cli_msg_set(msg, EXIT_USAGE, "%s pairs over SMP: --transport does not apply",
                           MODEL_LESC_NAME);
    }
    return EXIT_OK;
}

/* The LE Secure Connections pairing and the LL encryption start (src/sim/lesc_app.c). */
static int run_lesc(struct pqpan_sim *s, struct pqpan_sim_lesc *a, struct ble_sim_keys *k,
                    const struct ble_sim_opts *o, const struct pqpan_sim_observer *obs, void *obs_ctx)
{
    int run;
    pqpan_sim_lesc_init(a, o->seed);
    run = pqpan_sim_run(s, pqpan_sim_lesc_app(), a, obs, obs_ctx);
    k->protocol = 1;
    k->lesc = 1;
    k->equal = pqpan_sim_lesc_keys_equal(a);
    k->confirmed = pqpan_sim_lesc_confirmed(a);
    k->encrypted = s->res.encrypted;
    pqpan_sim_lesc_wipe(a);
    return run;
}

int ble_sim_run(struct pqpan_sim *s, struct ble_sim_apps *apps, struct ble_sim_keys *k,
                const struct model_env *env, const struct link_opts *l,
                const struct ble_sim_opts *o, const struct pqpan_sim_observer *obs,
                void *obs_ctx, struct cli_msg *msg)
{
    struct pqpan_sim_config c;
    struct pqpan_sim_synth app;
    struct pqpan_sim_pqke *pq = &apps->pqke;
    int run, rc = ble_sim_check(l, o, msg);
    memset(k, 0, sizeof *k);
    if (rc != EXIT_OK) {
        return rc;
    }
    pqpan_sim_config_default(&c);
    c.ble = l->cfg;
    rc = model_setup(c.cycles, &c.ble, env, l->kem, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    c.dev = env->dev;
    c.transport = is_lesc(l) ? PQPAN_SIM_SMP : o->transport;
    c.chan[0].per = c.chan[1].per = o->per;
    c.chan[0].ber = c.chan[1].ber = o->ber;
    c.seed = o->seed;
    c.supervision_timeout_ms = (uint32_t)o->timeout_ms;
    if (o->adv_mean) {
        pqpan_ble_adv_mean(c.ble.adv_interval_ns, &c.adv_scan_channel, &c.adv_wait_ns);
    }
    if (pqpan_sim_init(s, &c) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE, "configuration out of range (--supervision-timeout-ms "
                                            "more than twice --ci-ms and --initial-ci-ms; "
                                            "--transfer study needs --att-mtu >= 403)");
    }
    if (is_lesc(l)) {
        run = run_lesc(s, &apps->lesc, k, o, obs, obs_ctx);
    } else if (c.ble.protocol == PQPAN_BLE_PROTO_STUDY) {
        pqpan_sim_synth_init(&app, c.ble.ek_bytes, c.ble.ct_bytes, c.ble.keygen_side);
        run = pqpan_sim_run(s, pqpan_sim_synth_app(), &app, obs, obs_ctx);
    } else {
        enum pqpan_kem_id id = pqpan_kem_by_name(l->kem)->id;
        unsigned suite = c.ble.pqke_hybrid ? pqpan_pqke_hybrid_suite_for_kem(id)
                                           : pqpan_pqke_suite_for_kem(id);
        if (pqpan_sim_pqke_init(pq, suite, c.ble.pqke_mode, c.ble.pqke_sig, c.ble.keygen_side,
                                o->seed) != PQPAN_OK) {
            return cli_msg_set(msg, EXIT_FAILURE_RUN, "cannot set up the protocol");
        }
        run = pqpan_sim_run(s, pqpan_sim_pqke_app(), pq, obs, obs_ctx);
        k->protocol = 1;
        k->equal = pqpan_sim_pqke_keys_equal(pq);
        k->confirmed = pqpan_sim_pqke_confirmed(pq);
        pqpan_sim_pqke_wipe(pq);
    }
    /* A failed exchange still has a result; s->res.status says why. */
    return run == PQPAN_ERR_INVALID_ARG
               ? cli_msg_set(msg, EXIT_FAILURE_RUN, "simulator: %s", pqpan_strerror(run))
               : EXIT_OK;
}

int ble_sim_succeeded(const struct pqpan_sim *s, const struct ble_sim_keys *k)
{
    return s->res.status == PQPAN_OK &&
           (!k->protocol || (k->equal && k->confirmed && (!k->lesc || k->encrypted)));
}

int ble_sim_rows(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env, const char *kem,
                 const struct pqpan_sim *s, struct cli_msg *msg)
{
    const struct pqpan_sim_result *r = &s->res;
    struct pqpan_ble_estimate e;
    int side, rc;
    memset(&e, 0, sizeof e);
    e.ledger[0] = r->ledger[0];
    e.ledger[1] = r->ledger[1];
    e.bits[0] = r->bits[0];
    e.bits[1] = r->bits[1];
    e.counts = r->counts;
    e.ll_octets_eff = r->ll_octets;
    e.latency_ns = r->latency_ns;
    e.setup_ns = r->setup_ns;
    memcpy(e.span_ns, r->span_ns, sizeof e.span_ns);
    rc = model_fill(rows, env, kem, &s->cfg.ble, &e, msg);
    for (side = 0; side < MODEL_SIDES && rc == EXIT_OK; side++) {
        rows[side].conn_events = r->conn_events; /* the connect phase's events as they ran */
    }
    return rc;
}

const char *ble_sim_status_text(const struct pqpan_sim_result *r)
{
    if (r->status == PQPAN_ERR_LINK_LOST && !r->established) {
        return "link lost (not established: no packet received in the first 6 connection "
               "events, Core v5.4 Vol 6 Part B 4.5.2)";
    }
    if (r->status == PQPAN_ERR_TIMEOUT && r->conn_events == 0u) {
        return "timed out before a connection (no CONNECT_IND received)";
    }
    return r->status == PQPAN_OK ? "completed" : pqpan_strerror(r->status);
}
