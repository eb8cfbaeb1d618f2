#!/usr/bin/env python3
"""The study's headline figures and its DLE figure, from pqpan's Python package.

Runs the study's matrix (ML-KEM-512/768/1024 without DLE, LL 27 octets, and with DLE, LL
251; the LE Secure Connections baseline at both sizes; the study's protocol and `study`
transfer preset, LE 1M, 50 ms interval, KeyGen and Decaps on the peripheral) in the three
readings of `pqpan reproduce`: `defaults` (the sourced defaults), `study` (radio-only
currents and one T_IFS per PDU sent in the bits accounting, the two choices the study leaves
open, and LE SC as the fastest pairing there is: Emill's P-256, a reused key pair, the
encryption start left out, gamma_comp 1.00 for P-256) and `shipped` (LE SC with the P-256
Zephyr ships, p256-m). Prints
the four headline figures for the peripheral in the bits accounting beside the study's
ranges, writes them to OUT/headline.json, and draws the DLE figure, the peripheral's
energy against the LL payload size 27..251 per ML-KEM level, to OUT/dle.png with
matplotlib (Agg backend: no display needed).

    PYTHONPATH=python python3 python/examples/study_headline.py --out out/python

The study: "Post-quantum key establishment over BLE", SenSys '26, arXiv 2602.18708; its
ranges as docs/MODEL.md "Reproducing the study" quotes them (STUDY below)."""
import argparse
import json
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

import pqpan  # noqa: E402

LEVELS = ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024")
LL = {"no_dle": 27, "dle": 251}
# The study's published ranges (arXiv 2602.18708; docs/MODEL.md "Reproducing the study"):
# figure -> (text, low, high). "about 37 %" is read as 32..42 %, as `pqpan reproduce` does.
STUDY = {
    "comm_share_no_dle_pct": ("57-63 %", 57.0, 63.0),
    "dle_saving_pct": ("25-34 %", 25.0, 34.0),
    "pqke_lesc_ratio": ("2.5-8.5x", 2.5, 8.5),
    "comm_share_1024_dle_pct": ("about 37 %", 32.0, 42.0),
}
READINGS = {
    "defaults": {},
    "study": {"currents": "radio-only", "bits_ifs": "per-pdu-sent", "p256_impl": "emill-asm",
              "lesc_keypair": "reused",
              "gamma_comp": {"ecdh_keygen": 1.0, "ecdh_shared": 1.0}},
    "shipped": {"p256_impl": "p256-m", "lesc_keypair": "reused"},
}
# The readings whose LE SC leaves the LL encryption start out of the ratio (cli/reproduce.c).
ENC_START_OUT = ("study",)


def peripheral(kem, ll_octets, reading):
    """The peripheral's row of one configuration of the study's preset (its protocol: raw
    ek and ct, as `pqpan reproduce` runs it)."""
    return pqpan.estimate(kem, ll_octets=ll_octets, protocol="study",
                          **READINGS[reading])["peripheral"]


def headline(reading):
    """The four headline figures as ranges over the levels (cli/reproduce.c's definition)."""
    rows = {(k, d): peripheral(k, ll, reading) for k in LEVELS for d, ll in LL.items()}
    lesc = {d: peripheral("LESC-P256", ll, reading) for d, ll in LL.items()}
    share = [rows[k, "no_dle"]["comm_share_pct"] for k in LEVELS]
    saving = [100.0 * (1.0 - rows[k, "dle"]["e_total_uj"] / rows[k, "no_dle"]["e_total_uj"])
              for k in LEVELS]
    out = reading in ENC_START_OUT
    base = {d: lesc[d]["e_total_uj"] - (lesc[d]["e_lesc_enc_start_uj"] if out else 0.0)
            for d in LL}
    ratio = [rows[k, d]["e_total_uj"] / base[d] for k in LEVELS for d in LL]
    share_1024 = rows["ML-KEM-1024", "dle"]["comm_share_pct"]
    return {"comm_share_no_dle_pct": (min(share), max(share)),
            "dle_saving_pct": (min(saving), max(saving)),
            "pqke_lesc_ratio": (min(ratio), max(ratio)),
            "comm_share_1024_dle_pct": (share_1024, share_1024)}


def verdict(lo, hi, study_lo, study_hi):
    if lo >= study_lo and hi <= study_hi:
        return "inside"
    if hi < study_lo or lo > study_hi:
        return "outside"
    return "overlaps"


def dle_figure(path, step):
    """Peripheral energy (bits accounting) against the LL payload size, per level, in both
    readings: one estimate per point (the study reading's bits_ifs is estimate()'s, not an
    option of `pqpan sweep`)."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    lls = sorted(set(range(27, 252, step)) | {251})
    for ax, reading in zip(axes, READINGS):
        for kem in LEVELS:
            energies = [pqpan.estimate(kem, ll_octets=ll, **READINGS[reading])["peripheral"][
                "e_total_uj"] for ll in lls]
            ax.plot(lls, energies, lw=2, label=kem)
        for ll in LL.values():
            ax.axvline(ll, color="grey", lw=0.8, ls=":")
        ax.set_title("%s reading" % reading)
        ax.set_xlabel("LL payload octets (27: no DLE, 251: DLE)")
        ax.grid(True, alpha=0.4)
    axes[0].set_ylabel("peripheral energy, bits accounting (uJ)")
    axes[0].legend()
    fig.suptitle("PQKE energy vs LL payload size (study preset, LE 1M, 50 ms)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="out/python", help="directory for headline.json, dle.png")
    ap.add_argument("--step", type=int, default=1, help="LL octets between figure points")
    args = ap.parse_args()
    out = Path(args.out)
    os.makedirs(out, exist_ok=True)
    results = []
    for reading in READINGS:
        print("headline (%s reading, peripheral, bits accounting)" % reading)
        for name, (lo, hi) in headline(reading).items():
            text, s_lo, s_hi = STUDY[name]
            v = verdict(lo, hi, s_lo, s_hi)
            print("  %-26s model %8.3f .. %8.3f   study %-10s  %s" % (name, lo, hi, text, v))
            results.append({"reading": reading, "figure": name, "model_lo": lo,
                            "model_hi": hi, "study": text, "verdict": v})
    (out / "headline.json").write_text(json.dumps(results, indent=2) + "\n")
    dle_figure(out / "dle.png", args.step)
    print("wrote %s and %s" % (out / "headline.json", out / "dle.png"))


if __name__ == "__main__":
    main()
