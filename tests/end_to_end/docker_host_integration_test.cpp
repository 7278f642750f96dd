// The test network on a host that runs Docker (issue 10, item 1): Docker sets
// the FORWARD policy to DROP, and with bridge-nf-call-iptables=1 that drops
// packets bridged between two ports of any bridge of the namespace, so nodes
// on a bridge in the host's namespace never reached each other and
// redis-sentinel never settled. The host is simulated by a throwaway network
// namespace (unshare --net) with exactly that firewall: the br_netfilter
// sysctls are per network namespace, so the real host is left alone.
#include <gtest/gtest.h>

#include "tests/support/integration_helpers.hpp"

using namespace lockcheck::testing;

namespace {

/// Runs the rest of the command line in a new network namespace whose firewall
/// is a Docker host's: forwarded (and bridged) packets dropped.
const std::vector<std::string> kInDockerLikeNamespace{
    "unshare", "--net", "/bin/sh", "-ec",
    "ip link set lo up; sysctl -q -w net.bridge.bridge-nf-call-iptables=1; iptables -P FORWARD DROP; "
    "iptables -S FORWARD | grep -qx -- '-P FORWARD DROP'; exec \"$0\" \"$@\""};

}  // namespace

TEST(DockerHost, SentinelSettlesAndFailsOverWhenTheHostDropsForwardedPackets) {
    const auto store = fresh_store("docker-host");
    auto controller = start_lockcheck(store, {"run", scenario("redis-failover-lock-loss"), "--time-limit", "8"},
                                      kInDockerLikeNamespace);
    auto run = finish(*controller, store);
    EXPECT_EQ(run.output.find("did not settle"), std::string::npos) << "the nodes could not reach each other\n"
                                                                    << run.output;
    ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.output;
    EXPECT_EQ(run.results["run"]["network"], "netns") << run.results.dump();
    EXPECT_GE(run.results["run"]["faults"].get<int>(), 1) << run.output;
    expect_nothing_left(run);
}
