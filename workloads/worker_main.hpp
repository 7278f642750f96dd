// The worker process (`lockcheck worker`, internal): one lock client that
// answers protocol requests (workloads/protocol.hpp) on stdin/stdout until EOF.
#pragma once

#include <chrono>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace lockcheck {

struct WorkerOptions {
    std::string recipe;
    std::vector<std::string> endpoints;
    std::chrono::milliseconds server_timeout{1000};
};

/// Says hello, then serves requests from `in`, one reply line per request on
/// `out`, until EOF. A request that cannot be decoded gets a fail reply (with
/// id -1 if it has none). Returns the process exit code.
int run_worker(const WorkerOptions& options, std::istream& in, std::ostream& out);

}  // namespace lockcheck
