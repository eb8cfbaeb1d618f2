/* A sleepy end device's periodic data poll (include/pqpan/ieee802154.h "A sleepy end
 * device's data poll"): wake-up, unslotted CSMA-CA (§6.2.5.1, closed form), the Data
 * Request command (§7.5.5) sized by the frame builder, the Imm-Ack with Frame Pending 0
 * (§7.3.3), and sleep until the next poll. */
#include <string.h>

#include "pqpan/ieee802154.h"

static const char *const phase_names[PQPAN_802154_POLL_PHASES] = {
    "wake_xtal", "wake_cpu", "backoff", "cca", "turnaround", "tx", "ack_wait", "sleep",
};

const char *pqpan_802154_poll_phase_name(enum pqpan_802154_poll_phase ph)
{
    return (unsigned)ph < PQPAN_802154_POLL_PHASES ? phase_names[ph] : "?";
}

/* The Data Request's PSDU octets: built for real (MHR of the configuration as a command
 * frame, Command ID, MIC, FCS) with a dummy key: security changes no size. */
static int request_octets(size_t *len, const struct pqpan_802154_link_cfg *link)
{
    struct pqpan_802154_mhr h;
    struct pqpan_802154_keying k;
    uint8_t psdu[PQPAN_802154_MAX_PSDU];
    memset(&k, 0, sizeof k);
    pqpan_802154_plan_mhr(&h, link, 0);
    h.ack_request = 1;
    return pqpan_802154_mac_build_data_request(psdu, sizeof psdu, len, &h, &k);
}

static uint64_t round_ns(double ns)
{
    return (uint64_t)(ns + 0.5);
}

int pqpan_802154_poll_plan(struct pqpan_802154_poll *out, const struct pqpan_802154_poll_cfg *c)
{
    uint64_t active = 0;
    int rc, ph;
    if (out == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (c == 0 || !(c->p_busy >= 0.0 && c->p_busy < 1.0) ||
        pqpan_802154_csma_params_check(&c->csma) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = request_octets(&out->request_psdu, &c->link);
    if (rc != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    out->ccas = pqpan_802154_csma_expected_ccas(&c->csma, c->p_busy);
    /* The device sleeps before the poll. */
    out->wakes = pqpan_802154_sender_wakes(c->backoff_rx, 1, out->ccas);
    out->ns[PQPAN_802154_POLL_WAKE_XTAL] = round_ns(out->wakes * (double)c->wake_xtal_ns);
    out->ns[PQPAN_802154_POLL_WAKE_CPU] = round_ns(out->wakes * (double)c->wake_cpu_ns);
    out->ns[PQPAN_802154_POLL_BACKOFF] =
        round_ns(pqpan_802154_csma_expected_backoff_ns(&c->csma, c->p_busy));
    out->ns[PQPAN_802154_POLL_CCA] = round_ns(out->ccas * (double)PQPAN_802154_CCA_NS);
    out->ns[PQPAN_802154_POLL_TURNAROUND] = PQPAN_802154_TURNAROUND_NS;
    out->ns[PQPAN_802154_POLL_TX] = pqpan_802154_phy_ppdu_ns(out->request_psdu);
    /* The Imm-Ack follows the frame aTurnaroundTime after its last symbol (§6.7.4, as the
     * simulator and the estimator time it). */
    out->ns[PQPAN_802154_POLL_ACK_WAIT] =
        PQPAN_802154_TURNAROUND_NS + pqpan_802154_phy_ppdu_ns(PQPAN_802154_ACK_PSDU);
    out->state[PQPAN_802154_POLL_WAKE_XTAL] = PQPAN_STATE_HFXO_START;
    out->state[PQPAN_802154_POLL_WAKE_CPU] = PQPAN_STATE_CPU;
    out->state[PQPAN_802154_POLL_BACKOFF] = c->backoff_rx ? PQPAN_STATE_RX : PQPAN_STATE_SLEEP;
    out->state[PQPAN_802154_POLL_CCA] = PQPAN_STATE_RX;
    out->state[PQPAN_802154_POLL_TURNAROUND] = PQPAN_STATE_RAMP_TX;
    out->state[PQPAN_802154_POLL_TX] = PQPAN_STATE_TX;
    out->state[PQPAN_802154_POLL_ACK_WAIT] = PQPAN_STATE_RX;
    out->state[PQPAN_802154_POLL_SLEEP] = PQPAN_STATE_SLEEP;
    for (ph = 0; ph < PQPAN_802154_POLL_SLEEP; ph++) {
        active += out->ns[ph];
    }
    out->active_ns = active;
    if (c->period_ns < active) {
        return PQPAN_ERR_INVALID_ARG;
    }
    out->ns[PQPAN_802154_POLL_SLEEP] = c->period_ns - active;
    return PQPAN_OK;
}

void pqpan_802154_poll_charge(struct pqpan_802154_poll_charge *out,
                              const struct pqpan_802154_poll *p,
                              const double ua[PQPAN_STATE_COUNT])
{
    uint64_t period = 0;
    int ph;
    memset(out, 0, sizeof *out);
    for (ph = 0; ph < PQPAN_802154_POLL_PHASES; ph++) {
        /* µA × ns × 1e-9 = µC */
        out->uc[ph] = ua[p->state[ph]] * (double)p->ns[ph] * 1e-9;
        period += p->ns[ph];
        if (ph == PQPAN_802154_POLL_SLEEP) {
            out->sleep_uc = out->uc[ph];
        } else {
            out->poll_uc += out->uc[ph];
        }
    }
    if (period != 0) {
        out->avg_ua = (out->poll_uc + out->sleep_uc) / ((double)period * 1e-9);
    }
}
