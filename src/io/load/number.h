/* The number grammar inside libpqpan-io's JSON readers (src/io/load/number.c). */
#ifndef PQPAN_IO_LOAD_NUMBER_H
#define PQPAN_IO_LOAD_NUMBER_H

#include <stddef.h>

/* PQPAN_OK when every number of the JSON text (outside its strings) is spelled in JSON's
 * grammar, the one pqpan_io_parse_double accepts (cJSON alone also takes "03" and "3.");
 * else PQPAN_ERR_MALFORMED with "ORIGIN: line N: number 'TOKEN' is not a JSON
 * number (...)" in err. */
int pqpan_io_json_numbers_check(const char *text, size_t len, const char *origin, char *err,
                                size_t errlen);

#endif
