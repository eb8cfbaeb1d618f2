#include <stddef.h>

#include "pqpan/error.h"

struct err_row {
    int code;
    const char *text;
};

static const struct err_row err_rows[] = {
    {PQPAN_OK, "success"},
    {PQPAN_ERR_INVALID_ARG, "invalid argument"},
    {PQPAN_ERR_BAD_LENGTH, "wrong input length"},
    {PQPAN_ERR_BAD_KEY, "key fails its input check (FIPS 203 section 7; P-256 range or point validation)"},
    {PQPAN_ERR_RNG, "random source failed"},
    {PQPAN_ERR_MALFORMED, "malformed input"},
    {PQPAN_ERR_UNSUPPORTED, "not supported"},
    {PQPAN_ERR_BUFFER_TOO_SMALL, "output buffer too small"},
    {PQPAN_ERR_STATE, "call not allowed in the current protocol state"},
    {PQPAN_ERR_AUTH, "authentication (confirmation tag) failed"},
    {PQPAN_ERR_VERSION, "unsupported protocol version"},
    {PQPAN_ERR_SUITE, "unexpected cipher suite"},
    {PQPAN_ERR_TIMEOUT, "timed out"},
    {PQPAN_ERR_LINK_LOST, "link lost (supervision timeout)"},
    {PQPAN_ERR_CAPACITY, "workspace capacity exceeded"},
    {PQPAN_ERR_IO, "input/output error"},
    {PQPAN_ERR_NOT_FOUND, "not found"},
    {PQPAN_ERR_MODE, "authentication mode not accepted"},
    {PQPAN_ERR_DOWNGRADE, "downgrade: a better suite or mode is accepted by both sides"},
};

const char *pqpan_strerror(int err)
{
    size_t i;
    for (i = 0; i < sizeof err_rows / sizeof err_rows[0]; i++) {
        if (err_rows[i].code == err) {
            return err_rows[i].text;
        }
    }
    return "unknown error";
}
