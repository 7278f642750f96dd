# The project's warnings, for every target (a change must not add one), and
# LOCKCHECK_WERROR to make them errors: scripts/setup.sh turns it on in CI
# (CI=true) so that a new warning fails CI (docs/ci.md).
add_compile_options(-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
option(LOCKCHECK_WERROR "Treat compiler warnings as errors" OFF)
if(LOCKCHECK_WERROR)
  add_compile_options(-Werror)
endif()
