/* Arm semihosting ("Semihosting for AArch32 and AArch64", v2.0): r0 = operation number,
 * r1 = parameter, BKPT 0xAB traps into the debugger, here QEMU. */
#include "semihost.h"

#define SYS_WRITE0 0x04u /* r1 = address of a NUL-terminated string */
#define SYS_EXIT 0x18u   /* AArch32: r1 = reason code (not a parameter block) */
/* Reason codes of SYS_EXIT (spec, Table "Exception type and reason codes"): QEMU maps
 * ApplicationExit to host exit status 0 and every other reason to 1. */
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define ADP_STOPPED_RUN_TIME_ERROR_UNKNOWN 0x20023u

static uint32_t semihost_call(uint32_t op, uintptr_t arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register uintptr_t r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void pqpan_m4_puts(const char *s)
{
    (void)semihost_call(SYS_WRITE0, (uintptr_t)s);
}

void pqpan_m4_put_u32(uint32_t v)
{
    char buf[11];
    unsigned i = sizeof buf - 1;
    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    pqpan_m4_puts(&buf[i]);
}

void pqpan_m4_put_hex32(uint32_t v)
{
    static const char digits[] = "0123456789abcdef";
    char buf[9];
    for (unsigned i = 0; i < 8u; i++) {
        buf[i] = digits[(v >> (28u - 4u * i)) & 0xfu];
    }
    buf[8] = '\0';
    pqpan_m4_puts(buf);
}

_Noreturn void pqpan_m4_exit(int status)
{
    uint32_t reason = status == 0 ? ADP_STOPPED_APPLICATION_EXIT : ADP_STOPPED_RUN_TIME_ERROR_UNKNOWN;
    for (;;) {
        (void)semihost_call(SYS_EXIT, reason);
    }
}
