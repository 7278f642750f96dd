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

# One precompiled header shared by every C++ target under tests/ (REUSE_FROM):
# a test file spends about 7 of its 10 s of compiler time parsing GoogleTest,
# nlohmann/json, fmt and the standard library, and test files are two thirds
# of the compile units. A shared header is valid only where the macros it
# depends on are the same, so every test target gets the same definitions
# (those GoogleTest, fmt and fuse's pkg-config give some of them). Call it once
# every test target exists.
function(lockcheck_share_test_precompiled_header directory)
  set(definitions GTEST_HAS_PTHREAD=1 FMT_SHARED _FILE_OFFSET_BITS=64)
  if(NOT TARGET lockcheck_test_pch)
    set(headers)
    foreach(header gtest/gtest.h nlohmann/json.hpp fmt/format.h string vector map set filesystem fstream sstream
                   thread chrono algorithm functional memory optional)
      list(APPEND headers "$<$<COMPILE_LANGUAGE:CXX>:<${header}$<ANGLE-R>>")
    endforeach()
    add_library(lockcheck_test_pch OBJECT ${PROJECT_SOURCE_DIR}/tests/support/precompiled_header_anchor.cpp)
    target_compile_definitions(lockcheck_test_pch PRIVATE ${definitions})
    target_link_libraries(lockcheck_test_pch PRIVATE GTest::gtest nlohmann_json::nlohmann_json fmt::fmt)
    target_precompile_headers(lockcheck_test_pch PRIVATE ${headers})
  endif()
  get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    get_target_property(sources ${target} SOURCES)
    list(FILTER sources INCLUDE REGEX "\\.cpp$")
    if(target STREQUAL lockcheck_test_pch OR NOT sources OR NOT type MATCHES "EXECUTABLE|STATIC_LIBRARY")
      continue()
    endif()
    target_compile_definitions(${target} PRIVATE ${definitions})
    target_precompile_headers(${target} REUSE_FROM lockcheck_test_pch)
    # GCC 12 warns of a memcpy out of bounds inside std::string's operator+ in
    # some tests once <string> comes from the precompiled header (false
    # positives of its object-size warnings, GCC bug 105651): off for test
    # code only; the product code keeps them.
    target_compile_options(${target} PRIVATE
      $<$<CXX_COMPILER_ID:GNU>:-Wno-array-bounds -Wno-stringop-overflow -Wno-stringop-overread>)
  endforeach()
  get_property(subdirectories DIRECTORY ${directory} PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    lockcheck_share_test_precompiled_header(${subdirectory})
  endforeach()
endfunction()
