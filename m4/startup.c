/* Start-up for the Cortex-M4 on QEMU mps2-an386: vector table, reset handler (copy .data,
 * zero .bss, enable the FPU, run main, exit through semihosting with main's status) and
 * fault handlers that report the fault and exit non-zero, so a crash fails the test. */
#include <stdint.h>
#include <string.h>

#include "semihost.h"

int main(void);
void pqpan_m4_reset_handler(void);

/* Symbols of m4/mps2_an386.ld. */
extern uint32_t __data_start[], __data_end[], __data_load[];
extern uint32_t __bss_start[], __bss_end[];
extern uint32_t __stack_top[];

/* System Control Block registers (ARMv7-M Architecture Reference Manual, DDI 0403E,
 * §B3.2.2 Table B3-4 and §B3.2.20 CPACR; Cortex-M4 TRM r0p1 §4.1). */
#define SCB_CPACR ((volatile uint32_t *)0xE000ED88u)
#define SCB_CFSR ((volatile uint32_t *)0xE000ED28u)
#define SCB_HFSR ((volatile uint32_t *)0xE000ED2Cu)
/* CPACR.CP10 and CP11 (bits 20..23) = 0b11: full access to the FPU (DDI 0403E §B3.2.20). */
#define CPACR_CP10_CP11_FULL (0xFu << 20)

static _Noreturn void report_fault(const char *name)
{
    pqpan_m4_puts("FATAL: ");
    pqpan_m4_puts(name);
    pqpan_m4_puts(" CFSR=0x");
    pqpan_m4_put_hex32(*SCB_CFSR);
    pqpan_m4_puts(" HFSR=0x");
    pqpan_m4_put_hex32(*SCB_HFSR);
    pqpan_m4_puts("\n");
    pqpan_m4_exit(1);
}

static void hard_fault_handler(void)
{
    report_fault("HardFault");
}

static void mem_manage_handler(void)
{
    report_fault("MemManage");
}

static void bus_fault_handler(void)
{
    report_fault("BusFault");
}

static void usage_fault_handler(void)
{
    report_fault("UsageFault");
}

static void unexpected_handler(void)
{
    report_fault("unexpected exception");
}

/* ARMv7-M vector table (DDI 0403E §B1.5.3): initial SP, then exceptions 1..15. No
 * external interrupt is ever enabled, so the table stops after SysTick. */
struct vector_table {
    uint32_t *initial_sp;
    void (*handlers[15])(void);
};

__attribute__((section(".isr_vector"), used)) static const struct vector_table vectors = {
    __stack_top,
    {
        pqpan_m4_reset_handler, /* 1 Reset */
        unexpected_handler,     /* 2 NMI */
        hard_fault_handler,     /* 3 HardFault */
        mem_manage_handler,     /* 4 MemManage */
        bus_fault_handler,      /* 5 BusFault */
        usage_fault_handler,    /* 6 UsageFault */
        NULL, NULL, NULL, NULL, /* 7..10 reserved */
        unexpected_handler,     /* 11 SVCall */
        unexpected_handler,     /* 12 DebugMonitor */
        NULL,                   /* 13 reserved */
        unexpected_handler,     /* 14 PendSV */
        unexpected_handler,     /* 15 SysTick */
    },
};

void pqpan_m4_reset_handler(void)
{
    size_t data_bytes = (size_t)((uintptr_t)__data_end - (uintptr_t)__data_start);
    size_t bss_bytes = (size_t)((uintptr_t)__bss_end - (uintptr_t)__bss_start);
    memcpy(__data_start, __data_load, data_bytes);
    memset(__bss_start, 0, bss_bytes);
    *SCB_CPACR |= CPACR_CP10_CP11_FULL;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    pqpan_m4_exit(main());
}
