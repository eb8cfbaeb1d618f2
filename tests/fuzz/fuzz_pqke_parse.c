/* libFuzzer target: the PQKE message parsers (src/pqke/messages.c), every suite (ML-KEM alone
 * and hybrid with P-256) and every mode (with the sig modes' ML-DSA set byte). Every input
 * goes through the header parser and the four message parsers; whatever parses must write
 * back to exactly the input bytes (parse/write round trip), and its optional fields must be
 * present exactly as the suite and mode have them (REVEAL: numeric only). Seeds: the INIT,
 * RESP, FIN (and numeric's REVEAL) of one real exchange per suite and mode
 * (tests/fuzz/corpus/pqke_parse/). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/pqke.h"

static uint8_t rewritten[PQPAN_PQKE_MSG_MAX_BYTES];

static void check_same(int rc, size_t len, const uint8_t *data, size_t size)
{
    if (rc != PQPAN_OK || len != size || memcmp(rewritten, data, size) != 0) {
        abort();
    }
}

static void require(int condition)
{
    if (!condition) {
        abort();
    }
}

static int is_sig_mode(unsigned mode)
{
    return mode == PQPAN_PQKE_MODE_SIG || mode == PQPAN_PQKE_MODE_SIG_MUTUAL;
}

static int is_hybrid(unsigned suite)
{
    return suite >= PQPAN_PQKE_SUITE_P256_MLKEM512 && suite <= PQPAN_PQKE_SUITE_P256_MLKEM1024;
}

/* The ML-DSA set byte is there (and 1..3) exactly in the sig modes. */
static void require_sig_set(unsigned mode, unsigned sig)
{
    require(is_sig_mode(mode) ? sig >= 1 && sig <= 3 : sig == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pqpan_pqke_header h;
    struct pqpan_pqke_init_msg im;
    struct pqpan_pqke_resp_msg rm;
    struct pqpan_pqke_fin_msg fm;
    struct pqpan_pqke_reveal_msg vm;
    size_t len = 0;
    if (pqpan_pqke_header_parse(&h, data, size) == PQPAN_OK && size < PQPAN_PQKE_HEADER_BYTES) {
        abort();
    }
    if (pqpan_pqke_init_parse(&im, data, size) == PQPAN_OK) {
        require((im.ct_static != NULL) == (im.mode == PQPAN_PQKE_MODE_KEM_AUTH ||
                                           im.mode == PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL));
        require((im.ecdh != NULL) == is_hybrid(im.suite));
        require_sig_set(im.mode, im.sig);
        check_same(pqpan_pqke_init_write(rewritten, sizeof rewritten, &len, &im), len, data,
                   size);
    }
    if (pqpan_pqke_resp_parse(&rm, data, size) == PQPAN_OK) {
        require((rm.ct_static != NULL) == (rm.mode == PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL));
        require((rm.ecdh != NULL) == is_hybrid(rm.suite));
        require((rm.signature != NULL) == is_sig_mode(rm.mode));
        require((rm.commit != NULL) == (rm.mode == PQPAN_PQKE_MODE_NUMERIC));
        require_sig_set(rm.mode, rm.sig);
        check_same(pqpan_pqke_resp_write(rewritten, sizeof rewritten, &len, &rm), len, data,
                   size);
    }
    if (pqpan_pqke_fin_parse(&fm, data, size) == PQPAN_OK) {
        require((fm.numeric_nonce != NULL) == (fm.mode == PQPAN_PQKE_MODE_NUMERIC));
        require((fm.signature != NULL) == (fm.mode == PQPAN_PQKE_MODE_SIG_MUTUAL));
        require_sig_set(fm.mode, fm.sig);
        check_same(pqpan_pqke_fin_write(rewritten, sizeof rewritten, &len, &fm), len, data,
                   size);
    }
    if (pqpan_pqke_reveal_parse(&vm, data, size) == PQPAN_OK) {
        require(vm.mode == PQPAN_PQKE_MODE_NUMERIC && vm.numeric_nonce != NULL);
        check_same(pqpan_pqke_reveal_write(rewritten, sizeof rewritten, &len, &vm), len, data,
                   size);
    }
    return 0;
}
