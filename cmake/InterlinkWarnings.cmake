# Strict warnings for project code only (third-party headers are included as SYSTEM).
# -Wshadow=local (a local shadowing a local) is GCC's; clang has no such subset of -Wshadow, so
# clang builds (fuzz, sanitizers) rely on the GCC build for it.
add_library(interlink_warnings INTERFACE)
target_compile_options(interlink_warnings INTERFACE -Wall -Wextra -Wpedantic
                       $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local> -Wnon-virtual-dtor)
if(INTERLINK_WERROR)
  target_compile_options(interlink_warnings INTERFACE -Werror)
endif()
