// The compile unit of the shared precompiled header of the tests
// (cmake/compile_speed.cmake, lockcheck_share_test_precompiled_header): it
// holds no code; the header is built with it and reused by every test target.
