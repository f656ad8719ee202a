# Exported targets, a CMake package config and a pkg-config file, so a third party builds plugins
# and hosts against the install alone: find_package(Interlink) -> Interlink::interface_api,
# Interlink::framework.
include(CMakePackageConfigHelpers)
set(INTERLINK_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Interlink)
install(EXPORT InterlinkTargets NAMESPACE Interlink:: DESTINATION ${INTERLINK_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/InterlinkConfig.cmake.in
  ${PROJECT_BINARY_DIR}/InterlinkConfig.cmake INSTALL_DESTINATION ${INTERLINK_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/InterlinkConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/InterlinkConfig.cmake ${PROJECT_BINARY_DIR}/InterlinkConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/InterlinkPlugin.cmake
  DESTINATION ${INTERLINK_CMAKE_DIR})
configure_file(${PROJECT_SOURCE_DIR}/cmake/interlink.pc.in ${PROJECT_BINARY_DIR}/interlink.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/interlink.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
