/* The Bluetooth LE Secure Connections cryptographic functions of the Security Manager
 * toolbox (Core v5.4 Vol 3 Part H §2.2.6-§2.2.9), on AES-CMAC (aes.h): f4 (confirm
 * values), f5 (MacKey and LTK from the DHKey), f6 (DHKey check values) and g2 (the numeric
 * comparison value). Checked with the sample data of Vol 3 Part H Appendix D.
 *
 * Byte order: every value is given and returned most significant octet first, the order
 * in which the specification writes them and in which they enter AES-CMAC (Vol 3 Part H
 * §2.2.5: "the most significant octet of ... is the leftmost"). SMP PDUs carry them least
 * significant octet first (Vol 3 Part H §1.2.1, §3.5); the caller reverses them. A1/A2
 * are 56 bits: the address type octet (0x00 public, 0x01 random) then the 48-bit device
 * address (§2.2.7). IOcap is AuthReq || OOB data flag || IO capability (§2.2.8).
 *
 * Inputs are secret or public as the protocol makes them; the functions run in time
 * independent of their values (AES-CMAC is constant time). */
#ifndef PQPAN_LESC_H
#define PQPAN_LESC_H

#include <stdint.h>

#define PQPAN_LESC_KEY_BYTES 16     /* X, Y, N1, N2, R, MacKey, LTK, confirm and check values */
#define PQPAN_LESC_COORD_BYTES 32   /* U, V: public-key x-coordinates; W: the DHKey */
#define PQPAN_LESC_ADDR_BYTES 7     /* A1, A2: address type || BD_ADDR */
#define PQPAN_LESC_IOCAP_BYTES 3    /* AuthReq || OOB data flag || IO capability */
#define PQPAN_LESC_NUMERIC_MOD 1000000u /* the 6-digit value is g2 mod 10^6 (§2.3.5.6.2) */

/* f4(U, V, X, Z) = AES-CMAC_X(U || V || Z) (§2.2.6). */
void pqpan_lesc_f4(uint8_t out[PQPAN_LESC_KEY_BYTES], const uint8_t u[PQPAN_LESC_COORD_BYTES],
                   const uint8_t v[PQPAN_LESC_COORD_BYTES], const uint8_t x[PQPAN_LESC_KEY_BYTES],
                   uint8_t z);

/* f5(W, N1, N2, A1, A2) (§2.2.7): T = AES-CMAC_SALT(W), then MacKey = AES-CMAC_T(0 ||
 * keyID || N1 || N2 || A1 || A2 || Length) and LTK the same with Counter = 1
 * (keyID = "btle", Length = 256). */
void pqpan_lesc_f5(uint8_t mackey[PQPAN_LESC_KEY_BYTES], uint8_t ltk[PQPAN_LESC_KEY_BYTES],
                   const uint8_t w[PQPAN_LESC_COORD_BYTES], const uint8_t n1[PQPAN_LESC_KEY_BYTES],
                   const uint8_t n2[PQPAN_LESC_KEY_BYTES], const uint8_t a1[PQPAN_LESC_ADDR_BYTES],
                   const uint8_t a2[PQPAN_LESC_ADDR_BYTES]);

/* f6(W, N1, N2, R, IOcap, A1, A2) = AES-CMAC_W(N1 || N2 || R || IOcap || A1 || A2)
 * (§2.2.8). */
void pqpan_lesc_f6(uint8_t out[PQPAN_LESC_KEY_BYTES], const uint8_t w[PQPAN_LESC_KEY_BYTES],
                   const uint8_t n1[PQPAN_LESC_KEY_BYTES], const uint8_t n2[PQPAN_LESC_KEY_BYTES],
                   const uint8_t r[PQPAN_LESC_KEY_BYTES], const uint8_t iocap[PQPAN_LESC_IOCAP_BYTES],
                   const uint8_t a1[PQPAN_LESC_ADDR_BYTES], const uint8_t a2[PQPAN_LESC_ADDR_BYTES]);

/* g2(U, V, X, Y) = AES-CMAC_X(U || V || Y) mod 2^32 (§2.2.9). */
uint32_t pqpan_lesc_g2(const uint8_t u[PQPAN_LESC_COORD_BYTES], const uint8_t v[PQPAN_LESC_COORD_BYTES],
                       const uint8_t x[PQPAN_LESC_KEY_BYTES], const uint8_t y[PQPAN_LESC_KEY_BYTES]);

#endif
