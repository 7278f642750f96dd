// To add a topology: write clusters/NAME.{hpp,cpp} and its descriptor in
// clusters/NAME_descriptor.cpp, then list it here (docs/design.md, "Adding a
// topology, recipe or fault").
#include "clusters/topology_registry.hpp"

#include <algorithm>

#include "clusters/etcd_cluster.hpp"
#include "clusters/mysql_replicated.hpp"
#include "clusters/mysql_single.hpp"
#include "clusters/redis_independent.hpp"
#include "clusters/redis_sentinel.hpp"
#include "clusters/redis_single.hpp"
#include "clusters/zookeeper_ensemble.hpp"

namespace lockcheck {

const std::vector<TopologyDescriptor>& topology_descriptors() {
    static const std::vector<TopologyDescriptor> all{
        redis_single_topology(),
        redis_sentinel_topology(),
        redis_independent_topology(),
        zookeeper_topology(),
        etcd_topology(),
        mysql_single_topology(),
        mysql_replicated_topology(),
    };
    return all;
}

const TopologyDescriptor* find_topology(const std::string& name) {
    const auto& all = topology_descriptors();
    const auto it = std::find_if(all.begin(), all.end(), [&](const auto& t) { return t.name == name; });
    return it == all.end() ? nullptr : &*it;
}

}  // namespace lockcheck
