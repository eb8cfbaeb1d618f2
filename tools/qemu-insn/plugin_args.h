/* What the two pqpan QEMU plugins (insn_count.c, insn_profile.c) share: reading a marker
 * address from a plugin argument. */
#ifndef PQPAN_QEMU_PLUGIN_ARGS_H
#define PQPAN_QEMU_PLUGIN_ARGS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Parses "name=0xHEX" into *out (Thumb bit cleared). 1 on success. */
static inline int parse_address(const char *arg, const char *name, uint64_t *out)
{
    size_t len = strlen(name);
    char *rest = NULL;
    if (strncmp(arg, name, len) != 0 || arg[len] != '=') {
        return 0;
    }
    *out = strtoull(arg + len + 1, &rest, 0) & ~(uint64_t)1;
    return rest != NULL && *rest == '\0' && *out != 0;
}

#endif
