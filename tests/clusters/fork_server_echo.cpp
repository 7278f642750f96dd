// A stand-in for `lockcheck worker --fork-server` in tests/clusters/fork_server_test.cpp:
// it serves fork requests on its stdin (serve_forks); each forked worker
// writes "PID PARENT PROCESS-GROUP" on its stdout, then echoes every line of its
// stdin until EOF and exits 0.
#include <unistd.h>

#include <iostream>
#include <string>

#include "clusters/fork_server_process.hpp"

int main() {
    if (const auto server_exit = lockcheck::serve_forks(STDIN_FILENO)) return *server_exit;
    std::cout << ::getpid() << ' ' << ::getppid() << ' ' << ::getpgrp() << std::endl;
    std::string line;
    while (std::getline(std::cin, line)) std::cout << line << std::endl;
    return 0;
}
