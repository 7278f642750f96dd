// The controller's workload is chosen by the capabilities the workers announce.
#include <gtest/gtest.h>

#include <set>
#include <string_view>

#include "workers/lock_workload.hpp"
#include "workers/stock_workload.hpp"
#include "workers/unique_ids_workload.hpp"
#include "workers/workload_registry.hpp"

using namespace lockcheck;

TEST(WorkloadRegistry, LocksAreTheDefault) {
    EXPECT_EQ(&workload_for({}), &lock_workload());
    EXPECT_EQ(&workload_for({"fencing", "renew", "reentrant", "resource", "no-lease"}), &lock_workload());
}

TEST(WorkloadRegistry, CapabilityStockSelectsTheStockLoop) {
    EXPECT_EQ(&workload_for({"stock"}), &stock_workload());
    EXPECT_EQ(&workload_for({"fencing", "stock"}), &stock_workload());
}

TEST(WorkloadRegistry, CapabilityUniqueIdsSelectsTheIdLoop) {
    EXPECT_EQ(&workload_for({"unique-ids"}), &unique_ids_workload());
    EXPECT_EQ(&workload_for({"fencing", "unique-ids"}), &unique_ids_workload());
    EXPECT_NE(&workload_for({"stock"}), &unique_ids_workload());
}

TEST(WorkloadRegistry, OneDefaultAndOneWorkloadPerCapability) {
    int defaults = 0;
    std::set<std::string_view> capabilities, names;
    for (const WorkloadDescriptor* workload : workloads()) {
        EXPECT_TRUE(names.insert(workload->name).second) << workload->name;
        EXPECT_NE(workload->run_slot, nullptr) << workload->name;
        if (workload->capability.empty())
            ++defaults;
        else
            EXPECT_TRUE(capabilities.insert(workload->capability).second) << workload->capability;
    }
    EXPECT_EQ(defaults, 1);
}
