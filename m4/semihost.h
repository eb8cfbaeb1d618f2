/* Output and exit status for programs under QEMU (-semihosting-config enable=on), through
 * Arm semihosting: "Semihosting for AArch32 and AArch64", Arm, version 2.0, operations
 * SYS_WRITE0 (0x04) and SYS_EXIT (0x18), invoked on M-profile with BKPT 0xAB. */
#ifndef PQPAN_M4_SEMIHOST_H
#define PQPAN_M4_SEMIHOST_H

#include <stdint.h>

/* Writes a NUL-terminated string to the host's console. */
void pqpan_m4_puts(const char *s);
/* Writes v in decimal. */
void pqpan_m4_put_u32(uint32_t v);
/* Writes v as 8 lowercase hex digits. */
void pqpan_m4_put_hex32(uint32_t v);
/* Ends the emulation: status 0 -> QEMU exits 0, anything else -> QEMU exits 1. */
_Noreturn void pqpan_m4_exit(int status);

#endif
