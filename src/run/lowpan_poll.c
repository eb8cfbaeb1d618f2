/* A sleepy end device's data poll with the link options (lowpan.h lowpan_poll): what
 * `pqpan idle --link 802154` prints and `pqpan advise` prices the device's idle link by
 * (moved from cli/idle_802154.c). */
#include <string.h>

#include "lowpan.h"

/* The current of each ledger state for the poll: the 802.15.4 TX level at --tx-dbm and RX
 * from the --currents table, the profile's sleep, CPU and crystal-start currents. */
static int poll_currents(double ua[PQPAN_STATE_COUNT], const struct model_env *env,
                         struct cli_msg *msg)
{
    const struct pqpan_profile *p = &env->in.profile;
    double tx = 0.0, rx = 0.0;
    if (pqpan_profile_tx_mode_ua(p, env->table, PQPAN_RADIO_IEEE802154, env->eopts.tx_dbm, &tx) !=
            PQPAN_OK ||
        pqpan_profile_rx_ua(p, env->table, PQPAN_RADIO_IEEE802154, &rx) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE,
                           "profile %s gives no %s current in 802.15.4 mode for TX %d dBm or RX "
                           "(its ieee802154 section); try another --currents table or --tx-dbm, "
                           "or a profile with 802.15.4 figures (built in: nrf52840 at 0 dBm)",
                           p->name, pqpan_current_table_name(env->table), env->eopts.tx_dbm);
    }
    memset(ua, 0, PQPAN_STATE_COUNT * sizeof ua[0]);
    ua[PQPAN_STATE_SLEEP] = p->sleep_ua;
    ua[PQPAN_STATE_CPU] = p->cpu_ua;
    ua[PQPAN_STATE_HFXO_START] = p->hfxo_start_ua;
    ua[PQPAN_STATE_RAMP_TX] = tx;
    ua[PQPAN_STATE_TX] = tx;
    ua[PQPAN_STATE_RX] = rx;
    ua[PQPAN_STATE_IFS] = rx;
    return EXIT_OK;
}

static int setup(struct pqpan_802154_poll_cfg *c, const struct lowpan_opts *l, double poll_ms,
                 const struct model_env *env, struct cli_msg *msg)
{
    struct pqpan_802154_est_config d;
    pqpan_802154_est_config_default(&d);
    memset(c, 0, sizeof *c);
    c->link = d.link;
    lowpan_link(&c->link, l);
    c->csma = l->contiki ? pqpan_802154_csma_contiki() : pqpan_802154_csma_ieee();
    c->p_busy = l->busy;
    c->backoff_rx = (uint8_t)lowpan_backoff_listens(l, env);
    c->period_ns = (uint64_t)(poll_ms * 1e6 + 0.5);
    return lowpan_wake(&c->wake_xtal_ns, &c->wake_cpu_ns, env, msg);
}

int lowpan_poll(struct pqpan_802154_poll *p, struct pqpan_802154_poll_charge *q,
                double ua[PQPAN_STATE_COUNT], const struct model_env *env,
                const struct lowpan_opts *l, double poll_ms, struct cli_msg *msg)
{
    struct pqpan_802154_poll_cfg c;
    int rc = setup(&c, l, poll_ms, env, msg);
    if (rc == EXIT_OK) {
        rc = poll_currents(ua, env, msg);
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    if (pqpan_802154_poll_plan(p, &c) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE, "--poll-ms %.3f is shorter than one poll's active "
                           "part (%.3f ms)", poll_ms, (double)p->active_ns * 1e-6);
    }
    pqpan_802154_poll_charge(q, p, ua);
    return EXIT_OK;
}
