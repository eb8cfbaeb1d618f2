# Cross toolchain for the Cortex-M4F (the nRF52840's core) with Debian's gcc-arm-none-eabi
# and newlib. Used by `cmake --preset cortex-m4` / `make m4`; the top-level CMakeLists.txt
# sees PQPAN_TARGET=cortex-m4 and builds only m4/ (portable core + QEMU test programs).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(PQPAN_TARGET cortex-m4 CACHE STRING "pqpan build target (host or cortex-m4)")

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_AR arm-none-eabi-ar CACHE FILEPATH "")
set(CMAKE_RANLIB arm-none-eabi-ranlib CACHE FILEPATH "")
set(PQPAN_M4_SIZE arm-none-eabi-size CACHE FILEPATH "")
set(PQPAN_M4_NM arm-none-eabi-nm CACHE FILEPATH "")
# No OS to run a test executable on while CMake probes the compiler.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# Cortex-M4 with the single-precision FPU of the nRF52840 (nRF52840 PS v1.7 §6.1 "CPU":
# ARM Cortex-M4 with FPU), hard-float ABI. Optimisation level comes from PQPAN_M4_OPT.
set(CMAKE_C_FLAGS_INIT "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -ffunction-sections -fdata-sections")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 --specs=nano.specs -nostartfiles -Wl,--gc-sections")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
