// The worker process (`lockcheck worker`, internal): one lock client of a
// built-in recipe that answers protocol requests (recipes/protocol.hpp) on
// stdin/stdout until EOF.
#pragma once

#include <istream>
#include <ostream>

namespace lockcheck {

/// Reads the init request, builds the recipe's client for the nodes it names
/// and answers with a hello (or a fail reply for an unknown recipe, then exits
/// 254). Then serves requests from `in`, one reply line per request on `out`,
/// until EOF. A request that cannot be decoded gets a fail reply (with id -1
/// if it has none). Returns the process exit code.
int run_worker(std::istream& in, std::ostream& out);

}  // namespace lockcheck
