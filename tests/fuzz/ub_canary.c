/* A planted undefined behaviour (signed overflow on an input starting with '!') built with
 * the fuzz targets' flags: its ctest (WILL_FAIL) proves a UBSan finding stops a fuzz run
 * and fails the test instead of being printed and passed over. */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    volatile int x = INT_MAX;
    if (size > 0 && data[0] == '!') {
        x = x + (int)size;
    }
    return 0;
}
