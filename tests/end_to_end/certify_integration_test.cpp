// `lockcheck certify` with the real binary and redis-server, on two cells of
// redis-single: the Python example that releases by plain DEL fails with the
// blame on the client (exit 1); the compare-and-delete one passes (exit 0).
// Both write certify.json, certify.html and junit.xml. The built-in
// redis-setnx-expire fails kill-client with a stuck lock, the client's.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck::testing;

namespace {

struct Certified {
    int exit_code = -1;
    std::string output;
    fs::path dir;
    nlohmann::json card;
};

/// `lockcheck certify --topology redis-single` with `args`.
Certified certify_with(const std::string& test, std::vector<std::string> args) {
    const auto store = fresh_store(test);
    args.insert(args.begin(), {"certify", "--topology", "redis-single"});
    auto child = start_lockcheck(store, args);
    Certified c;
    EXPECT_TRUE(child->wait_for_exit(std::chrono::seconds(150))) << "certify did not finish";
    c.exit_code = child->exit_status().value_or(-1);
    c.output = read_file(store / "output.txt");
    for (const auto& entry : fs::directory_iterator(store))
        if (entry.path().filename().string().rfind("certify-redis-single-", 0) == 0) c.dir = entry.path();
    if (!c.dir.empty() && fs::exists(c.dir / "certify.json"))
        c.card = nlohmann::json::parse(read_file(c.dir / "certify.json"));
    return c;
}

/// A Python example of examples/python on the cells no-faults and pause-holder.
Certified certify(const std::string& test, const std::string& client) {
    return certify_with(test, {"--client-cmd",
                               "/usr/bin/python3 " + std::string(LOCKCHECK_SOURCE_DIR) + "/examples/python/" + client,
                               "--cells", "no-faults,pause-holder"});
}

}  // namespace

TEST(Certify, AnUnsafeClientFailsWithTheBlameOnTheClient) {
    const auto c = certify("certify-unsafe", "redis_lock_unsafe.py");
    EXPECT_EQ(c.exit_code, 1) << c.output;
    ASSERT_TRUE(c.card.is_object()) << c.output;
    ASSERT_EQ(c.card["cells"].size(), 2u) << c.card.dump(2);
    const auto& pause = c.card["cells"][1];
    EXPECT_EQ(pause["cell"], "pause-holder");
    EXPECT_EQ(pause["met"], false) << pause.dump(2);
    EXPECT_EQ(pause["blame"], "your client") << pause.dump(2);
    EXPECT_NE(c.output.find("blame:  your client"), std::string::npos) << c.output;
    EXPECT_TRUE(fs::exists(c.dir / "junit.xml"));
    EXPECT_TRUE(fs::exists(c.dir / "certify.html"));
}

TEST(Certify, ASafeClientMeetsEveryCell) {
    const auto c = certify("certify-safe", "redis_lock_safe.py");
    EXPECT_EQ(c.exit_code, 0) << c.output;
    ASSERT_TRUE(c.card.is_object()) << c.output;
    for (const auto& cell : c.card["cells"]) EXPECT_EQ(cell["met"], true) << cell.dump(2);
    EXPECT_TRUE(fs::exists(c.dir / "certify.html"));
}

TEST(Certify, AClientKilledBetweenSetnxAndExpireLeavesAStuckLockBlamedOnTheClient) {
    // kill-client kills a worker whose acquire has been in flight 10-50 ms:
    // redis-setnx-expire waits 300 ms between SETNX and PEXPIRE, so the first
    // kill leaves a lock with no lease, told held for the rest of the 12 s run.
    const auto c = certify_with("certify-setnx-expire", {"--recipe", "redis-setnx-expire", "--cells", "kill-client"});
    EXPECT_EQ(c.exit_code, 1) << c.output;
    ASSERT_TRUE(c.card.is_object()) << c.output;
    ASSERT_EQ(c.card["cells"].size(), 1u) << c.card.dump(2);
    const auto& kill = c.card["cells"][0];
    EXPECT_EQ(kill["cell"], "kill-client");
    EXPECT_EQ(kill["met"], false) << kill.dump(2);
    EXPECT_EQ(kill["blame"], "your client") << kill.dump(2);
    EXPECT_EQ(kill["first_violation"].get<std::string>().rfind("stuck-lock: ", 0), 0u) << kill.dump(2);
}
