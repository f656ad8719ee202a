# interlink_add_plugin(<target> SOURCES ... [LIBRARIES ...])
# Builds a plugin as a MODULE library in the plugin directory of the build tree and installs it
# to the plugin directory of the install, where the loader looks by itself.
function(interlink_add_plugin target)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE interlink_warnings ${ARG_LIBRARIES})
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    LIBRARY_OUTPUT_DIRECTORY ${INTERLINK_PLUGIN_OUTPUT_DIR}
    INSTALL_RPATH "$ORIGIN/../..")
  install(TARGETS ${target} LIBRARY DESTINATION ${INTERLINK_PLUGIN_SUBDIR})
  set_property(GLOBAL APPEND PROPERTY INTERLINK_PLUGIN_TARGETS ${target})
endfunction()
