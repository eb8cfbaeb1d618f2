/* Checks the fault path: an undefined instruction (UDF, ARMv7-M DDI 0403E §A7.7.194)
 * escalates to HardFault, whose handler must end QEMU with a non-zero status. */
#include "semihost.h"

int main(void)
{
    pqpan_m4_puts("executing UDF\n");
    __asm__ volatile("udf #0");
    pqpan_m4_puts("UDF did not fault\n");
    return 0;
}
