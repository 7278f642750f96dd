// To add a topology: write clusters/NAME.{hpp,cpp} and its descriptor in
// clusters/NAME_descriptor.cpp, then list it here (docs/design.md, "Adding a
// topology, recipe or fault").
#include "clusters/topologies/topology_registry.hpp"

#include "clusters/topologies/etcd_cluster.hpp"
#include "clusters/topologies/mysql_replicated.hpp"
#include "clusters/topologies/mysql_single.hpp"
#include "clusters/topologies/redis_independent.hpp"
#include "clusters/topologies/redis_sentinel.hpp"
#include "clusters/topologies/redis_single.hpp"
#include "clusters/topologies/zookeeper_ensemble.hpp"
#include "core/find_by_name.hpp"

namespace lockcheck {

const std::vector<TopologyDescriptor>& topology_descriptors() {
    static const std::vector<TopologyDescriptor> all{
        redis_single_topology(), redis_sentinel_topology(), redis_independent_topology(), zookeeper_topology(),
        etcd_topology(),         mysql_single_topology(),   mysql_replicated_topology(),
    };
    return all;
}

const TopologyDescriptor* find_topology(const std::string& name) { return find_by_name(topology_descriptors(), name); }

}  // namespace lockcheck
