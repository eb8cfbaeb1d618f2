/* Whether two caller buffers share bytes: the library refuses a call whose output overlaps
 * one of its inputs (ML-KEM, PQKE) instead of computing from half-overwritten input. */
#ifndef PQPAN_COMMON_OVERLAP_H
#define PQPAN_COMMON_OVERLAP_H

#include <stddef.h>
#include <stdint.h>

/* 1 if the byte ranges [a, a + a_len) and [b, b + b_len) overlap (NULL or empty: 0). */
int pqpan_buffers_overlap(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len);

#endif
