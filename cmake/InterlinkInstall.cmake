# Exported targets, a CMake package config and a pkg-config file, so a third party builds plugins
# and hosts against the install alone: find_package(Interlink) -> Interlink::interface_api,
# Interlink::framework.
include(CMakePackageConfigHelpers)
set(INTERLINK_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Interlink)
install(EXPORT InterlinkTargets NAMESPACE Interlink:: DESTINATION ${INTERLINK_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/InterlinkConfig.cmake.in
  ${PROJECT_BINARY_DIR}/InterlinkConfig.cmake INSTALL_DESTINATION ${INTERLINK_CMAKE_DIR}
  PATH_VARS INTERLINK_PLUGIN_SUBDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/InterlinkConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/InterlinkConfig.cmake ${PROJECT_BINARY_DIR}/InterlinkConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/InterlinkPlugin.cmake
  DESTINATION ${INTERLINK_CMAKE_DIR})
# Relocatable: the prefix is found from the .pc file's own location (${pcfiledir}).
file(RELATIVE_PATH INTERLINK_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" INTERLINK_PC_TO_PREFIX "${INTERLINK_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/interlink.pc.in ${PROJECT_BINARY_DIR}/interlink.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/interlink.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The licence, the change log, the user documentation and the man page.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md ${PROJECT_SOURCE_DIR}/README.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs FILES_MATCHING PATTERN "*.md"
  PATTERN "dev" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/samples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/samples)
install(FILES ${PROJECT_SOURCE_DIR}/docs/man/interlink.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
