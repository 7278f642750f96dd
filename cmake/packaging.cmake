# `cpack -G DEB` in the build directory: lockcheck_<version>_amd64.deb with
#   /usr/bin/lockcheck                     the binary (and its worker: `lockcheck worker`)
#   /usr/lib/lockcheck/                    its helpers (core/install_layout.hpp finds them there)
#   /usr/share/lockcheck/scenarios/        the scenarios `lockcheck list` and `suite` read
#   /usr/share/lockcheck/docs/, README.md  the documentation
# Depends: the Debian libraries it links (dpkg-shlibdeps) and the servers and
# tools a run starts. docs/ci.md says how CI builds, caches and installs it.
# `cpack` installs what is built rather than building everything first, so
# `cmake --build build --target lockcheck_runtime && cd build && cpack -G DEB`
# makes the package without building the tests.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
install(TARGETS lockcheck RUNTIME DESTINATION bin)
install(TARGETS lockcheck-unsyncedfs RUNTIME DESTINATION lib/lockcheck)
install(TARGETS clockshift LIBRARY DESTINATION lib/lockcheck)
install(TARGETS lockcheck-clock-launch RUNTIME DESTINATION lib/lockcheck)  # beside it: clock_launcher_beside
install(DIRECTORY ${CMAKE_SOURCE_DIR}/scenarios/ DESTINATION share/lockcheck/scenarios)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION share/lockcheck/docs)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION share/lockcheck)

set(CPACK_PACKAGE_NAME lockcheck)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "lockcheck maintainers <lockcheck@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Jepsen-style safety checks of distributed locks (Redis, etcd, ZooKeeper, MariaDB)")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # lockcheck_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)  # no debug info in the package: 96 MB of lockcheck become a few
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${LOCKCHECK_RUNTIME_PACKAGES}")  # cmake/runtime_packages.cmake
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "docker.io, openssh-client")
include(CPack)
