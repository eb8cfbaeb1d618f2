/* insn_profile: a QEMU TCG plugin that counts, per guest instruction address, the
 * executions, memory reads and translation blocks begun between each pair of markers
 * (m4/markers.c: pqpan_m4_mark_begin / pqpan_m4_mark_end), for a per-function profile of
 * one measured operation (scripts/m4_profile.py maps the addresses to the ELF's symbols):
 *
 *   qemu-system-arm ... -plugin libpqpan_insn_profile.so,begin=0xADDR,end=0xADDR,out=FILE
 *
 * At each end marker it appends "pair,N" (N counting the pairs from 0) and one line
 * "ADDR,instructions,reads,blocks" (ADDR in hex) for every address that ran since the
 * begin marker. The counts are insn_count.c's, split by address: every instruction adds 1
 * inline, every load 1 through the memory callback, and every executed block 1 at its
 * first instruction, so per-function sums add up to insn_count.c's totals (which
 * scripts/bench_m4.sh turns into estimated cycles). Only addresses in the 4 MiB code
 * region of m4/mps2_an386.ld are counted. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin_args.h"
#include "qemu_plugin_api.h"

/* The API version this plugin was written against (QEMU 7.2 accepts 0..1). */
PQPAN_QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

/* Thumb instructions are 2-byte aligned: one slot per halfword of the code region. */
#define CODE_BYTES (4u << 20)
#define SLOTS (CODE_BYTES / 2)

struct slot {
    uint64_t insns;
    uint64_t reads;
    uint64_t blocks;
};

/* The translation callback of API version 1 receives no user data, so the state is
 * file-scope (QEMU loads the plugin once). */
static struct {
    struct slot *now;      /* counts since the start of the run */
    struct slot *at_begin; /* snapshot at the last begin marker */
    uint64_t begin, end;   /* marker addresses, Thumb bit cleared */
    uint64_t pairs;
    FILE *out;
} prof;

static void on_begin(unsigned int vcpu_index, void *userdata)
{
    (void)vcpu_index;
    (void)userdata;
    memcpy(prof.at_begin, prof.now, SLOTS * sizeof *prof.now);
}

static void on_end(unsigned int vcpu_index, void *userdata)
{
    (void)vcpu_index;
    (void)userdata;
    fprintf(prof.out, "pair,%" PRIu64 "\n", prof.pairs++);
    for (uint32_t i = 0; i < SLOTS; i++) {
        const struct slot d = {prof.now[i].insns - prof.at_begin[i].insns,
                               prof.now[i].reads - prof.at_begin[i].reads,
                               prof.now[i].blocks - prof.at_begin[i].blocks};
        if (d.insns != 0 || d.reads != 0 || d.blocks != 0) {
            fprintf(prof.out, "%" PRIx32 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", 2 * i, d.insns,
                    d.reads, d.blocks);
        }
    }
    fflush(prof.out);
}

/* Counts the loads of the instruction whose slot is userdata. */
static void on_access(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr, void *userdata)
{
    (void)vcpu_index;
    (void)vaddr;
    if (!qemu_plugin_mem_is_store(info)) {
        ((struct slot *)userdata)->reads++;
    }
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    (void)id;
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        struct slot *s;
        if (pc >= CODE_BYTES) {
            continue;
        }
        s = &prof.now[pc / 2];
        if (pc == prof.begin) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_begin, QEMU_PLUGIN_CB_NO_REGS, NULL);
        } else if (pc == prof.end) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_end, QEMU_PLUGIN_CB_NO_REGS, NULL);
        }
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &s->insns, 1);
        qemu_plugin_register_vcpu_mem_cb(insn, on_access, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, s);
        if (i == 0) {
            qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &s->blocks, 1);
        }
    }
}

PQPAN_QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                                 char **argv);

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    const char *path = NULL;
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "out=", 4) == 0) {
            path = argv[i] + 4;
        } else if (!parse_address(argv[i], "begin", &prof.begin) && !parse_address(argv[i], "end", &prof.end)) {
            fprintf(stderr, "insn_profile: unknown argument '%s' (want begin=0xADDR,end=0xADDR,out=FILE)\n",
                    argv[i]);
            return -1;
        }
    }
    if (prof.begin == 0 || prof.end == 0 || path == NULL) {
        fprintf(stderr, "insn_profile: need begin=0xADDR, end=0xADDR and out=FILE\n");
        return -1;
    }
    prof.now = calloc(SLOTS, sizeof *prof.now);
    prof.at_begin = calloc(SLOTS, sizeof *prof.at_begin);
    prof.out = fopen(path, "w");
    if (prof.now == NULL || prof.at_begin == NULL || prof.out == NULL) {
        fprintf(stderr, "insn_profile: cannot allocate the counters or open %s\n", path);
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    return 0;
}
