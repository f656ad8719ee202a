# interlink_add_plugin(<target> SOURCES ... [LIBRARIES ...] [INSTALL_DESTINATION dir])
# interlink_add_hardware_plugin(<target> SOURCES ... [LIBRARIES ...] [INSTALL_DESTINATION dir])
#
# Builds a format (or hardware) plugin as a MODULE library and installs it where the loader looks
# by itself. Works in the Interlink build tree and, after find_package(Interlink), in any
# out-of-tree project:
#   - in-tree: output in the build tree's plugin directory, installed to <prefix>/lib/interlink/plugins;
#   - out of tree: output in ${CMAKE_CURRENT_BINARY_DIR} (point INTERLINK_PLUGIN_PATH there to try
#     it), installed to INSTALL_DESTINATION, else to Interlink's own plugin directory
#     (INTERLINK_PLUGIN_INSTALL_DIR), where every Interlink host finds it without configuration.
# The plugin links Interlink::interface_api (header-only), hidden visibility, C++17.
function(interlink_add_plugin target)
  cmake_parse_arguments(ARG "" "INSTALL_DESTINATION" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE Interlink::interface_api ${ARG_LIBRARIES})
  target_compile_features(${target} PRIVATE cxx_std_17)
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(TARGET interlink_warnings)
    # Inside the Interlink build.
    target_link_libraries(${target} PRIVATE interlink_warnings)
    set_target_properties(${target} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY ${INTERLINK_PLUGIN_OUTPUT_DIR}
      INSTALL_RPATH "$ORIGIN/../.."
      BUILD_WITH_INSTALL_RPATH ON)  # lib/interlink/plugins in both trees; no padded build run path
    set(destination ${INTERLINK_PLUGIN_SUBDIR})
    set_property(GLOBAL APPEND PROPERTY INTERLINK_PLUGIN_TARGETS ${target})
  else()
    set(destination ${INTERLINK_PLUGIN_INSTALL_DIR})
  endif()
  if(ARG_INSTALL_DESTINATION)
    set(destination ${ARG_INSTALL_DESTINATION})
  endif()
  if(destination)
    install(TARGETS ${target} LIBRARY DESTINATION ${destination})
  endif()
endfunction()

# Hardware plugins (actuator catalogs and drivers) are loaded the same way as format plugins; the
# descriptor's kind tells them apart.
function(interlink_add_hardware_plugin target)
  interlink_add_plugin(${target} ${ARGN})
endfunction()
