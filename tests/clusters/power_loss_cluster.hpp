// Shared by the power-loss integration tests: a topology started the way a
// run starts it, with its nodes' data on the lose-unsynced filesystem
// (Cluster), a power loss of some of its nodes (lose_power), and the mount
// table entries of a run (mounts_of_run). Needs UNSYNCEDFS_DAEMON defined as
// the path of lockcheck-unsyncedfs.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>

#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "clusters/power_loss.hpp"
#include "host/run_containment.hpp"
#include "run/run_directory.hpp"
#include "run/run_liveness.hpp"
#include "tests/support/integration_helpers.hpp"
#include "unsyncedfs/mounts.hpp"

namespace lockcheck::testing {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

using namespace std::chrono_literals;

/// The mounts of run `run_id` in the mount table.
inline std::vector<MountEntry> mounts_of_run(const std::string& run_id) {
    std::vector<MountEntry> found;
    for (auto& entry : read_mount_table())
        if (entry.fsname.rfind("lockcheck:" + run_id + ":", 0) == 0) found.push_back(std::move(entry));
    return found;
}

/// One topology started the way a run starts it, its nodes' data on the
/// lose-unsynced filesystem unless `unsynced` is false, on a network of
/// `mode` (namespaces when it can by default).
template <typename Topology>
class Cluster {
public:
    Cluster(const std::string& name, int hosts, TopologyOptions options, bool unsynced = true,
            NetworkMode mode = NetworkMode::Auto)
        : run_id_(new_run_id()), alive_(run_id_), containment_(run_id_) {
        ::signal(SIGPIPE, SIG_IGN);  // as the controller does
        dir_ = fs::temp_directory_path() / ("lockcheck-power-loss-" + name + "-" + run_id_);
        fs::create_directories(dir_ / "scratch");
        options.name = name;
        options.dir = dir_ / "nodes";
        options.scratch_dir = dir_ / "scratch";
        options.credentials = fresh_server_credentials();
        if (unsynced)
            options.unsynced_data = UnsyncedDataOptions{UNSYNCEDFS_DAEMON, run_id_, "", [this](const std::string& m) {
                                                            std::lock_guard lock(mutex_);
                                                            failures_.push_back(m);
                                                        }};
        password_ = options.credentials.client_password;
        network_ = std::make_unique<TestNetwork>(run_id_, hosts, mode);
        topology_ = std::make_unique<Topology>(options, *network_);
        topology_->start();
        make_data_durable(*topology_);  // as a run does once its topology is ready
    }
    ~Cluster() {
        topology_->stop();
        EXPECT_TRUE(mounts_of_run(run_id_).empty()) << "a node's filesystem is still mounted after stop()";
        topology_.reset();
        network_.reset();
        // A failed test's nodes stay, for their logs (an exception is recorded as a failure only after this).
        if (!::testing::Test::HasFailure() && std::uncaught_exceptions() == 0) fs::remove_all(dir_);
    }

    Topology& topology() { return *topology_; }
    Node& node(std::size_t i) { return *topology_->nodes().at(i); }
    const std::string& run_id() const { return run_id_; }
    const std::string& password() const { return password_; }
    /// What the filesystems reported through on_failure.
    std::vector<std::string> failures() {
        std::lock_guard lock(mutex_);
        return failures_;
    }

private:
    std::string run_id_;
    RunAliveLock alive_;  ///< so that no `clean` (every run starts with one) takes this run for dead
    RunContainment containment_;
    fs::path dir_;
    std::string password_;
    std::unique_ptr<TestNetwork> network_;
    std::unique_ptr<Topology> topology_;
    std::mutex mutex_;
    std::vector<std::string> failures_;
};

/// Cuts the power of `nodes`, keeps them down 200 ms, starts them again.
inline void lose_power(const std::vector<Node*>& nodes) {
    const auto lost = power_loss(nodes, 200ms, std::stop_token{});
    ASSERT_TRUE(lost.has_value());
    for (std::size_t i = 0; i < nodes.size(); ++i)
        std::printf("power loss of %s: %zu file(s) restored, %zu directory change(s) undone\n",
                    nodes[i]->name().c_str(), (*lost)[i].files_restored, (*lost)[i].changes_undone);
}

}  // namespace lockcheck::testing
