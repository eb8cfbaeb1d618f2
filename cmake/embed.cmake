# Embeds every file listed in PQPAN_EMBED_FILES (paths relative to the source root) into
# libpqpan-io as a C array, so the built-in profiles and cycle tables are the very files in
# data/ (DESIGN.md: "The built-in default is that same file, embedded at build time").
# Each file becomes `pqpan_embedded_<name>` / `pqpan_embedded_<name>_len`, and a table
# `pqpan_embedded_files[]` maps the relative path to its bytes (src/io/load/embedded.h).
file(GLOB_RECURSE PQPAN_EMBED_FILES CONFIGURE_DEPENDS
     RELATIVE ${PROJECT_SOURCE_DIR}
     ${PROJECT_SOURCE_DIR}/data/*.json ${PROJECT_SOURCE_DIR}/data/*.csv)
list(SORT PQPAN_EMBED_FILES)
set(PQPAN_EMBED_DIR ${CMAKE_BINARY_DIR}/embedded)
set(PQPAN_EMBED_C ${PQPAN_EMBED_DIR}/embedded.c)
set(PQPAN_EMBED_DEPS "")
foreach(f ${PQPAN_EMBED_FILES})
  list(APPEND PQPAN_EMBED_DEPS ${PROJECT_SOURCE_DIR}/${f})
endforeach()
# A list argument would be split into separate words on the command line: pass it with
# "," between the paths (embed_run.cmake splits it again).
string(REPLACE ";" "," PQPAN_EMBED_FILES_ARG "${PQPAN_EMBED_FILES}")
add_custom_command(
  OUTPUT ${PQPAN_EMBED_C}
  COMMAND ${CMAKE_COMMAND} -DSRC=${PROJECT_SOURCE_DIR} -DOUT=${PQPAN_EMBED_C}
          "-DFILES=${PQPAN_EMBED_FILES_ARG}" -P ${PROJECT_SOURCE_DIR}/cmake/embed_run.cmake
  DEPENDS ${PQPAN_EMBED_DEPS} ${PROJECT_SOURCE_DIR}/cmake/embed_run.cmake
  COMMENT "Embedding data/ files"
  VERBATIM)
set(PQPAN_EMBEDDED_SOURCES ${PQPAN_EMBED_C})
