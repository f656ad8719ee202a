# Strict warnings for project code only (third-party headers are included as SYSTEM).
add_library(interlink_warnings INTERFACE)
target_compile_options(interlink_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor)
if(INTERLINK_WERROR)
  target_compile_options(interlink_warnings INTERFACE -Werror)
endif()
