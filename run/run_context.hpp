// What every part of one run shares (run/run.cpp, run/run_cluster.hpp,
// run/run_workers.hpp): its plan, directory, options, stop and the servers'
// credentials. Made once per run by run/run.cpp.
#pragma once

#include <stop_token>

#include "clusters/servers/server_credentials.hpp"
#include "run/run.hpp"
#include "run/run_directory.hpp"
#include "spec/run_plan.hpp"

namespace lockcheck {

/// What every part of one run shares.
struct RunContext {
    const RunPlan& plan;
    const RunDirectory& dir;
    const RunOptions& options;
    std::stop_source& stop;  ///< the run's stop: the time limit, max_ops, every slot stopping, or an interrupt
    const ServerCredentials& credentials;
};

}  // namespace lockcheck
