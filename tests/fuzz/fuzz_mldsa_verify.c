/* Fuzzes ML-DSA signature and public-key parsing: verification (FIPS 204 Alg. 3 and 8) of
 * arbitrary public keys, signatures, contexts and messages. Input: byte 0 selects the
 * parameter set (low 2 bits) and the external or internal interface (bit 2); byte 1 is the
 * context length; byte 2, as a signed number, is added to the signature length (so that
 * wrong lengths are tried too); then pk, signature and context, each zero-padded when the
 * input runs short; the rest is the message. Nothing may crash or read out of bounds, the
 * verdict must be one of the four documented results, and it must not change when the
 * same inputs are verified again. The seed corpus holds a valid signature per level. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/sig.h"

static void take(uint8_t *out, size_t want, const uint8_t **data, size_t *size)
{
    size_t n = *size < want ? *size : want;
    memset(out, 0, want);
    memcpy(out, *data, n);
    *data += n;
    *size -= n;
}

static int verify(const struct pqpan_sig *s, int internal, const uint8_t *pk, const uint8_t *msg,
                  size_t msg_len, const uint8_t *ctx, size_t ctx_len, const uint8_t *sig,
                  size_t sig_len)
{
    return internal ? s->verify_internal(pk, msg, msg_len, sig, sig_len)
                    : s->verify(pk, msg, msg_len, ctx, ctx_len, sig, sig_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], sig[PQPAN_SIG_SIG_MAX_BYTES + 128], ctx[255];
    const struct pqpan_sig *s;
    size_t sig_len, ctx_len;
    int internal, ret;
    if (size < 3) {
        return 0;
    }
    s = pqpan_sig_at((size_t)(data[0] & 3) % PQPAN_SIG_COUNT);
    internal = (data[0] >> 2) & 1;
    ctx_len = data[1];
    sig_len = (size_t)((long)s->sig_bytes + (int8_t)data[2]);
    data += 3;
    size -= 3;
    take(pk, s->pk_bytes, &data, &size);
    take(sig, sig_len, &data, &size);
    take(ctx, ctx_len, &data, &size);
    ret = verify(s, internal, pk, data, size, ctx, ctx_len, sig, sig_len);
    if (ret != PQPAN_OK && ret != PQPAN_ERR_BAD_LENGTH && ret != PQPAN_ERR_MALFORMED &&
        ret != PQPAN_ERR_AUTH) {
        abort();
    }
    if ((sig_len != s->sig_bytes) != (ret == PQPAN_ERR_BAD_LENGTH)) {
        abort();
    }
    if (verify(s, internal, pk, data, size, ctx, ctx_len, sig, sig_len) != ret) {
        abort();
    }
    return 0;
}
