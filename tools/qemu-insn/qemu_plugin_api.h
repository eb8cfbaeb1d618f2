/* The part of QEMU's TCG plugin API (API version 1, QEMU 7.x) that insn_count.c uses,
 * declared from QEMU's documentation: "QEMU TCG Plugins" (docs/devel/tcg-plugins.rst,
 * QEMU 7.2 manual, sections "API versioning", "Plugin life cycle" and the API
 * reference). Debian's qemu-system-arm exports these symbols but ships no
 * development header, so pqpan declares the few it needs. The functions are resolved
 * from the QEMU binary when it loads the plugin (-plugin FILE). */
#ifndef PQPAN_QEMU_PLUGIN_API_H
#define PQPAN_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PQPAN_QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))

/* "qemu_plugin_id_t - Unique plugin ID" (a 64-bit integer). */
typedef uint64_t qemu_plugin_id_t;
/* System information handed to qemu_plugin_install; only passed through here. */
typedef struct qemu_info_t qemu_info_t;
/* Opaque handles, valid only during the callback that gave them. */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* "enum qemu_plugin_cb_flags - type of callback": the callback reads no registers. */
enum qemu_plugin_cb_flags {
    QEMU_PLUGIN_CB_NO_REGS,
    QEMU_PLUGIN_CB_R_REGS,
    QEMU_PLUGIN_CB_RW_REGS,
};

/* "enum qemu_plugin_op - describes an inline op": add an immediate to a uint64_t. */
enum qemu_plugin_op {
    QEMU_PLUGIN_INLINE_ADD_U64,
};

/* "enum qemu_plugin_mem_rw - type of memory access" to instrument. */
enum qemu_plugin_mem_rw {
    QEMU_PLUGIN_MEM_R = 1,
    QEMU_PLUGIN_MEM_W,
    QEMU_PLUGIN_MEM_RW,
};

typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

/* Called at translation time of every translation block. */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
/* Runs cb before every execution of insn. */
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata);
/* Applies op (*ptr += imm) inline before every execution of insn. */
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op,
                                                void *ptr, uint64_t imm);
/* Applies op inline on every execution of the translation block tb. */
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr,
                                              uint64_t imm);
/* The guest address of the first instruction of tb. */
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
/* Runs cb before every execution of the translation block tb. */
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void *userdata);
/* "qemu_plugin_meminfo_t": size, sign, endianness and direction of one access, packed. */
typedef uint32_t qemu_plugin_meminfo_t;
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
                                          uint64_t vaddr, void *userdata);
/* "qemu_plugin_mem_is_store - was the access a store?", from the meminfo of a callback. */
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
/* Runs cb on every memory access of insn of kind rw (an LDM of n registers makes n
 * accesses), with the guest virtual address. */
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw,
                                      void *userdata);
/* Writes to QEMU's log: shown with `-d plugin`, to the file given by -D. */
void qemu_plugin_outs(const char *string);

#endif
