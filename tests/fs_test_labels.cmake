# Included by ctest after the discovered GoogleTest lists (see CMakeLists.txt):
# labels every test of the lose-unsynced filesystem's FUSE binaries.
foreach(test IN LISTS unsyncedfs_rules_test_TESTS unsyncedfs_mount_test_TESTS)
  set_tests_properties("${test}" PROPERTIES LABELS "integration;fs")
endforeach()
