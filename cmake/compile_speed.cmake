# What makes a build from scratch (./run.sh on a fresh machine) and a rebuild
# faster, measured in docs/benchmarks.md ("Build time").

# ccache where it is installed (Debian's `ccache`; not required): a rebuild of
# unchanged compile units, e.g. in a second build directory or after
# `rm -rf build`, takes seconds. A compiler launcher given on the command line
# wins.
option(LOCKCHECK_USE_CCACHE "Compile through ccache when it is installed" ON)
if(LOCKCHECK_USE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(LOCKCHECK_CCACHE ccache)
  if(LOCKCHECK_CCACHE)
    set(CMAKE_C_COMPILER_LAUNCHER ${LOCKCHECK_CCACHE})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${LOCKCHECK_CCACHE})
  endif()
endif()

# Debug information in RelWithDebInfo (the default build type): line tables
# only (-g1), enough for a backtrace with file and line, in place of full -g
# (locals and types for a debugger), which makes each compile unit about 40%
# slower (docs/benchmarks.md, "Build time"). -DLOCKCHECK_FULL_DEBUG_INFO=ON
# brings -g back.
option(LOCKCHECK_FULL_DEBUG_INFO "Full debug information (-g) in RelWithDebInfo, not line tables only (-g1)" OFF)
if(NOT LOCKCHECK_FULL_DEBUG_INFO)
  foreach(language C CXX)
    string(REGEX REPLACE "(^| )-g( |$)" "\\1-g1\\2" CMAKE_${language}_FLAGS_RELWITHDEBINFO
                         "${CMAKE_${language}_FLAGS_RELWITHDEBINFO}")
  endforeach()
endif()

# Precompiled headers for the library targets of many compile units (a unity
# build still parses the common headers once per eight sources): the standard
# headers every folder uses, nlohmann/json (core/op.hpp brings it everywhere),
# fmt, and spdlog where the folder logs. A target of one or two units would
# spend on its precompiled header what it saves, so those go without.
# lockcheck_precompile_headers() is called once every target exists.
option(LOCKCHECK_PCH "Precompile the common headers of the larger targets" ON)
function(lockcheck_precompile_headers)
  if(NOT LOCKCHECK_PCH)
    return()
  endif()
  # C++ sources only: a target with a C source too (lockcheck_clusters holds
  # the clock library's record code) would get a C header of <string>.
  set(common)
  foreach(header string vector map memory optional functional filesystem chrono nlohmann/json.hpp fmt/format.h)
    list(APPEND common "$<$<COMPILE_LANGUAGE:CXX>:<${header}$<ANGLE-R>>")
  endforeach()
  foreach(target lockcheck_clusters lockcheck_topologies lockcheck_recipes lockcheck_checkers)
    target_precompile_headers(${target} PRIVATE ${common})
  endforeach()
  foreach(target lockcheck_run lockcheck_workers lockcheck_commands lockcheck_nemesis)
    target_precompile_headers(${target} PRIVATE ${common} "$<$<COMPILE_LANGUAGE:CXX>:<spdlog/spdlog.h$<ANGLE-R>>")
  endforeach()
endfunction()
