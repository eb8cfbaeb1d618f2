/* Files of data/ compiled into libpqpan-io (cmake/embed.cmake). Each is NUL-terminated. */
#ifndef PQPAN_IO_LOAD_EMBEDDED_H
#define PQPAN_IO_LOAD_EMBEDDED_H

#include <stddef.h>

struct pqpan_embedded_file {
    const char *path; /* relative to the source root, e.g. "data/profiles/nrf52840.json" */
    const unsigned char *bytes;
    size_t len;
};

/* Terminated by an entry whose path is NULL. */
extern const struct pqpan_embedded_file pqpan_embedded_files[];

#endif
