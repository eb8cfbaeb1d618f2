# Helpers shared by the ACVP generators m4/gen_acvp.cmake (ML-KEM) and
# m4/gen_acvp_mldsa.cmake (ML-DSA), include()d by both.

# Appends `static const uint8_t <name>[] = {...};` for the hex string hex to the caller's body.
function(acvp_emit_hex name hex)
  string(REGEX REPLACE "([0-9A-Fa-f][0-9A-Fa-f])" "0x\\1," bytes "${hex}")
  string(APPEND body "static const uint8_t ${name}[] = {${bytes}};\n")
  set(body "${body}" PARENT_SCOPE)
endfunction()

# Sets <out> to the index of the group's parameterSet in the caller's list `levels`.
function(acvp_level_index out group)
  string(JSON pset GET "${group}" parameterSet)
  list(FIND levels "${pset}" idx)
  if(idx LESS 0)
    message(FATAL_ERROR "unknown parameterSet ${pset}")
  endif()
  set(${out} ${idx} PARENT_SCOPE)
endfunction()
