// What the servers' own record decides of one overlap (issue 42): the blame
// class it proves and the fact in the servers' order it relies on. Made by
// each server's witness (etcd: checkers/server_witness.hpp, ZooKeeper:
// checkers/zk_witness.hpp) and applied to the mutual-exclusion findings by
// apply_server_witness.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "checkers/overlap_blame.hpp"

namespace lockcheck {

struct WitnessDecision {
    Blame blame = Blame::Uncertain;
    std::string fact;  ///< the servers' order in words: "worker 2's own key ... deleted at revision 10 ..."
    nlohmann::json details = nlohmann::json::object();
};

}  // namespace lockcheck
