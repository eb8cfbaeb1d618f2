/* insn_count: a QEMU TCG plugin that counts executed guest instructions exactly between
 * two marker addresses (m4/markers.c: pqpan_m4_mark_begin / pqpan_m4_mark_end).
 *
 *   qemu-system-arm ... -plugin libpqpan_insn_count.so,begin=0xADDR,end=0xADDR \
 *                       -d plugin -D counts.log
 *
 * Every instruction adds 1 to a counter inline (no call per instruction); every data
 * access calls on_access, which counts the loads (qemu_plugin_mem_is_store false). An
 * inline counter filtered on QEMU_PLUGIN_MEM_R is not used: QEMU 7.2 (Debian's 7.2.22)
 * runs it on the stores, not the loads (an LDR added 0 and an STR 1 in a per-address
 * count; one filtered on QEMU_PLUGIN_MEM_W ran on both), which made this column count
 * the stores until the calibration function got loads to check it. The first
 * instruction of the begin marker snapshots the counter, the first instruction of the
 * end marker prints "insn,<instructions>,<memory reads>,<translation blocks>" since the
 * snapshot. Each begin/end pair gives one line, in execution order. The count includes the marker call overhead, which the
 * program measures with an empty pair and scripts/bench_m4.sh subtracts.
 *
 * With trace=on (the constant-time check, m4/ct_main.c), every executed translation
 * block's address and every data access's address (reads and writes) between the
 * markers are also folded, in execution order, into a 64-bit FNV-1a hash, printed after
 * the counts as "trace,<hash>,<events>": two runs have equal hashes when they executed
 * the same blocks and touched the same addresses in the same order. Its callbacks slow
 * QEMU down, so it is off by default. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin_args.h"
#include "qemu_plugin_api.h"

/* The API version this plugin was written against (QEMU 7.2 accepts 0..1). */
PQPAN_QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

/* Counts since the start of the run, all updated inline. */
struct counts {
    uint64_t insns;  /* executed instructions */
    uint64_t reads;  /* memory read accesses (data loads) */
    uint64_t blocks; /* executed translation blocks: each ends at a branch (or a page edge) */
};

struct counter {
    struct counts now;
    struct counts at_begin; /* snapshot at the last begin marker */
    uint64_t begin;    /* marker addresses, Thumb bit cleared */
    uint64_t end;
    int open;          /* a begin marker has been passed without its end */
    int trace;         /* trace=on: hash the block and data address sequence */
    uint64_t hash;     /* FNV-1a of the events since the begin marker */
    uint64_t events;
};

/* FNV-1a, 64-bit (Fowler, Noll, Vo; offset basis and prime of the FNV reference,
 * IETF draft-eastlake-fnv), over the 8 little-endian bytes of v. */
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static void fold(struct counter *c, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        c->hash = (c->hash ^ ((v >> (8 * i)) & 0xFF)) * FNV_PRIME;
    }
    c->events++;
}

static void on_begin(unsigned int vcpu_index, void *userdata)
{
    struct counter *c = userdata;
    (void)vcpu_index;
    c->at_begin = c->now;
    c->open = 1;
    c->hash = FNV_OFFSET;
    c->events = 0;
}

static void on_end(unsigned int vcpu_index, void *userdata)
{
    struct counter *c = userdata;
    char line[128];
    (void)vcpu_index;
    if (!c->open) {
        qemu_plugin_outs("insn,error: end marker without begin\n");
        return;
    }
    c->open = 0;
    snprintf(line, sizeof line, "insn,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", c->now.insns - c->at_begin.insns,
             c->now.reads - c->at_begin.reads, c->now.blocks - c->at_begin.blocks);
    qemu_plugin_outs(line);
    if (c->trace) {
        snprintf(line, sizeof line, "trace,%016" PRIx64 ",%" PRIu64 "\n", c->hash, c->events);
        qemu_plugin_outs(line);
    }
}

/* One counter per QEMU process: the translation callback of API version 1 receives no
 * user data, so the plugin's state has to be file-scope (QEMU loads it once). */
static struct counter state;

static void on_block(unsigned int vcpu_index, void *userdata)
{
    (void)vcpu_index;
    if (state.open) {
        fold(&state, (uint64_t)(uintptr_t)userdata);
    }
}

/* Counts the loads; with trace=on, folds every access's address, bit 63 set: a data
 * address, never equal to a block address of the 32-bit guest. */
static void on_access(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *userdata)
{
    (void)vcpu_index;
    (void)userdata;
    if (!qemu_plugin_mem_is_store(info)) {
        state.now.reads++;
    }
    if (state.trace && state.open) {
        fold(&state, vaddr | 1ULL << 63);
    }
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    (void)id;
    if (state.trace) {
        qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS,
                                             (void *)(uintptr_t)qemu_plugin_tb_vaddr(tb));
    }
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        if (pc == state.begin) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_begin, QEMU_PLUGIN_CB_NO_REGS, &state);
        } else if (pc == state.end) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_end, QEMU_PLUGIN_CB_NO_REGS, &state);
        }
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &state.now.insns, 1);
        qemu_plugin_register_vcpu_mem_cb(insn, on_access, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
    }
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &state.now.blocks, 1);
}

PQPAN_QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                                 char **argv);

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "trace=on") == 0) {
            state.trace = 1;
        } else if (!parse_address(argv[i], "begin", &state.begin) && !parse_address(argv[i], "end", &state.end)) {
            fprintf(stderr, "insn_count: unknown argument '%s' (want begin=0xADDR,end=0xADDR[,trace=on])\n", argv[i]);
            return -1;
        }
    }
    if (state.begin == 0 || state.end == 0) {
        fprintf(stderr, "insn_count: need begin=0xADDR and end=0xADDR\n");
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    return 0;
}
