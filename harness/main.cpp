// The lockcheck binary: the command line (harness/command_line.hpp).
#include "harness/command_line.hpp"

int main(int argc, char** argv) { return lockcheck::lockcheck_main(argc, argv); }
