/* pqpan error codes (STYLE.md habit 7): one enum, fixed negative values, never renumbered. */
#ifndef PQPAN_ERROR_H
#define PQPAN_ERROR_H

#if defined(__GNUC__) || defined(__clang__)
#define PQPAN_MUST_CHECK __attribute__((warn_unused_result))
#else
#define PQPAN_MUST_CHECK
#endif

enum pqpan_err {
    PQPAN_OK = 0,
    PQPAN_ERR_INVALID_ARG = -1,   /* a NULL pointer, a zero length or an out-of-range option */
    PQPAN_ERR_BAD_LENGTH = -2,    /* an input whose length is wrong for its type */
    PQPAN_ERR_BAD_KEY = -3,       /* a key that fails its input checks (FIPS 203 §7, P-256
                                     private-key range, public-key validation) */
    PQPAN_ERR_RNG = -4,           /* the injected random source failed */
    PQPAN_ERR_MALFORMED = -5,     /* a message, packet or file that does not parse */
    PQPAN_ERR_UNSUPPORTED = -6,   /* a well-formed request for something not implemented */
    PQPAN_ERR_BUFFER_TOO_SMALL = -7,
    PQPAN_ERR_STATE = -8,         /* a call made in the wrong protocol state */
    PQPAN_ERR_AUTH = -9,          /* a confirmation tag or MAC that does not verify */
    PQPAN_ERR_VERSION = -10,      /* a protocol version this build does not speak */
    PQPAN_ERR_SUITE = -11,        /* a cipher suite / KEM id this peer does not accept */
    PQPAN_ERR_TIMEOUT = -12,      /* a simulated link or procedure that timed out */
    PQPAN_ERR_LINK_LOST = -13,    /* supervision timeout: the simulated connection ended */
    PQPAN_ERR_CAPACITY = -14,     /* a caller-given workspace or compile-time pool is full */
    PQPAN_ERR_IO = -15,           /* reading or writing a file failed */
    PQPAN_ERR_NOT_FOUND = -16,    /* a named profile, parameter set or table row not found */
    PQPAN_ERR_MODE = -17,         /* a PQKE authentication mode this peer does not accept */
    PQPAN_ERR_DOWNGRADE = -18     /* a PQKE exchange weaker than the best both sides accept */
};
/* The last (most negative) code, for tests that walk every code. */
#define PQPAN_ERR_LAST PQPAN_ERR_DOWNGRADE

/* A short, static, English description of an error code (never NULL). */
const char *pqpan_strerror(int err);

#endif
