// Adversarial regression tests against real servers: another local user who
// reaches a run's servers through the bridge address gets nowhere without the
// run's password; no credential leaks into what a run leaves readable; a
// hostile store path cannot break or extend a server's config; Ctrl-C never
// waits out a long hold or a long fault.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
#include <mysql.h>
#include <mysqld_error.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include "host/system_command.hpp"
#include "clusters/servers/zookeeper_node.hpp"
#include "tests/support/integration_helpers.hpp"

namespace fs = std::filesystem;
using namespace lockcheck;
using namespace lockcheck::testing;
using Clock = std::chrono::steady_clock;

namespace {

/// The run directory of the run started in `store`, once lockcheck.log says
/// its topology is ready (up to 60 s); empty if it never does.
fs::path wait_until_ready(const fs::path& store) {
    for (int i = 0; i < 1200; ++i) {
        std::error_code ec;
        const auto run_dir = fs::canonical(store / "latest", ec);
        if (!ec && read_file(run_dir / "lockcheck.log").find(" ready: ") != std::string::npos) return run_dir;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "the run's topology never became ready";
    return {};
}

/// The first argument of `directive` in a redis.conf / sentinel.conf (quoted
/// as lockcheck writes it, or bare as Sentinel rewrites it).
std::string config_value(const fs::path& conf, const std::string& directive) {
    std::smatch match;
    const std::string text = read_file(conf);
    if (!std::regex_search(text, match, std::regex("\n" + directive + " \"?([^\"\n]*)\"?\n"))) {
        ADD_FAILURE() << conf << " has no " << directive;
        return "";
    }
    return match[1];
}

/// The reply to `argv` at address:port on a fresh connection, after AUTH
/// `password` when not empty: "+..." status, "-..." error, ":n", "$..." string.
std::string redis_reply(const std::string& address, int port, const std::vector<std::string>& argv,
                        const std::string& password = "") {
    redisContext* c = redisConnectWithTimeout(address.c_str(), port, timeval{2, 0});
    if (!c || c->err) {
        if (c) redisFree(c);
        return "(no connection)";
    }
    std::string text = "(no reply)";
    const auto send = [&](const std::vector<std::string>& args) {
        std::vector<const char*> pointers;
        std::vector<size_t> lengths;
        for (const auto& a : args) pointers.push_back(a.data()), lengths.push_back(a.size());
        auto* r = static_cast<redisReply*>(
            redisCommandArgv(c, static_cast<int>(args.size()), pointers.data(), lengths.data()));
        if (!r) return std::string("(no reply)");
        std::string out = r->type == REDIS_REPLY_ERROR     ? "-" + std::string(r->str, r->len)
                          : r->type == REDIS_REPLY_STATUS  ? "+" + std::string(r->str, r->len)
                          : r->type == REDIS_REPLY_STRING  ? "$" + std::string(r->str, r->len)
                          : r->type == REDIS_REPLY_INTEGER ? ":" + std::to_string(r->integer)
                                                           : "*";
        freeReplyObject(r);
        return out;
    };
    if (password.empty() || send({"AUTH", password}) == "+OK") text = send(argv);
    redisFree(c);
    return text;
}

/// The MariaDB error of logging in at address:3306 as user/password (0 when it succeeds).
unsigned int mariadb_login_error(const std::string& address, const std::string& user, const std::string& password) {
    MYSQL* m = mysql_init(nullptr);
    const unsigned int seconds = 3;
    mysql_optionsv(m, MYSQL_OPT_CONNECT_TIMEOUT, &seconds);
    const bool ok =
        mysql_real_connect(m, address.c_str(), user.c_str(), password.c_str(), "lockcheck", 3306, nullptr, 0);
    const unsigned int error = ok ? 0 : mysql_errno(m);
    mysql_close(m);
    return error;
}

/// The first endpoint's address in lockcheck.log's "topology ... ready: A:port, ..." line.
std::string first_endpoint_address(const fs::path& run_dir) {
    std::smatch match;
    const std::string log = read_file(run_dir / "lockcheck.log");
    EXPECT_TRUE(std::regex_search(log, match, std::regex(" ready: (?:sentinel:)?([0-9.]+):"))) << log;
    return match.size() > 1 ? match[1].str() : "";
}

unsigned mode_of(const fs::path& path) {
    struct stat st {};
    EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
    return st.st_mode & 07777;
}

/// Every regular file under `run_dir` holding one of `secrets`, but for
/// those inside the servers' own data directories (nodes/*/data).
std::vector<std::string> files_holding(const fs::path& run_dir, const std::vector<std::string>& secrets) {
    std::vector<std::string> holders;
    for (auto it = fs::recursive_directory_iterator(run_dir); it != fs::recursive_directory_iterator(); ++it) {
        if (it->is_directory() && it->path().filename() == "data" &&
            it->path().parent_path().parent_path().filename() == "nodes") {
            it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file()) continue;
        const std::string text = read_file(it->path());
        for (const auto& secret : secrets)
            if (!secret.empty() && text.find(secret) != std::string::npos) {
                holders.push_back(fs::relative(it->path(), run_dir).string());
                break;
            }
    }
    std::sort(holders.begin(), holders.end());
    return holders;
}

/// `text` written to `path`.
fs::path write_text(const fs::path& path, const std::string& text) {
    std::ofstream(path) << text;
    return path;
}

/// Sends SIGINT to the run and waits for it; the run and the seconds from the signal to its end.
std::pair<RunOutcome, double> interrupt_and_finish(ChildProcess& child, const fs::path& store) {
    const auto interrupted_at = Clock::now();
    child.send_signal(SIGINT);
    auto run = finish(child, store);
    return {run, std::chrono::duration<double>(Clock::now() - interrupted_at).count()};
}

/// Lines of history.jsonl so far.
int history_lines(const fs::path& run_dir) {
    const std::string text = read_file(run_dir / "history.jsonl");
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST(ServerAuth, RedisServersAndSentinelsRefuseClientsWithoutThePassword) {
    const auto store = fresh_store("auth-redis");
    auto child = start_lockcheck(store, {"run", scenario("redis-failover-lock-loss"), "--nemesis", "none",
                                         "--time-limit", "6", "--name", "auth-redis"});
    const auto run_dir = wait_until_ready(store);
    ASSERT_FALSE(run_dir.empty());
    const auto n1 = run_dir / "nodes" / "n1" / "redis.conf";
    const auto s1 = run_dir / "nodes" / "s1" / "sentinel.conf";
    const std::string password = config_value(n1, "requirepass");
    const std::string server = config_value(n1, "bind");
    const std::string sentinel = config_value(s1, "bind");
    EXPECT_EQ(password.size(), 32u);
    EXPECT_EQ(config_value(s1, "requirepass"), password);

    // Another user's attack: set the lock key (an 11 s stuck lock before the fix).
    EXPECT_EQ(redis_reply(server, 6379, {"SET", "lock", "intruder", "PX", "11000"}).rfind("-NOAUTH", 0), 0u);
    EXPECT_EQ(redis_reply(server, 6379, {"PING"}).rfind("-NOAUTH", 0), 0u);
    EXPECT_EQ(redis_reply(server, 6379, {"PING"}, "lockcheck").rfind("(no reply)", 0), 0u) << "a wrong password";
    EXPECT_EQ(redis_reply(sentinel, 26379, {"SENTINEL", "get-master-addr-by-name", "lockcheck"}).rfind("-NOAUTH", 0),
              0u);
    EXPECT_EQ(redis_reply(server, 6379, {"PING"}, password), "+PONG") << "the run's password works";

    auto run = finish(*child, store);
    EXPECT_EQ(run.exit_code, 0) << "replicas (masterauth) and sentinels (auth-pass) still work: " << run.output;
    EXPECT_EQ(run.results["valid"], true);
    EXPECT_GE(stats(run, "mutual-exclusion")["sessions"].get<int>(), 5);

    // The password is only in the configs, and those are owner-only.
    const std::vector<std::string> expected{"nodes/n1/redis.conf",    "nodes/n2/redis.conf",
                                            "nodes/n3/redis.conf",    "nodes/s1/sentinel.conf",
                                            "nodes/s2/sentinel.conf", "nodes/s3/sentinel.conf"};
    EXPECT_EQ(files_holding(run.run_dir, {password}), expected);
    for (const auto& config : expected)
        EXPECT_EQ(mode_of((run.run_dir / config).parent_path()), 0700u)
            << config << ": Sentinel rewrites its config with the umask's mode; the node directory keeps it private";
    EXPECT_EQ(mode_of(run.run_dir / "nodes" / "n1" / "redis.conf"), 0600u) << "as lockcheck writes it";
    expect_nothing_left(run);
}

TEST(ServerAuth, MariadbRefusesTheOldAccountAndGrantsClientsOnlyTheirDatabase) {
    const auto store = fresh_store("auth-mysql");
    // The built-in worker behind a tee: the test learns the init (and its password) as a user's client would.
    const std::string client = "tee -a " + (store / "init.jsonl").string() + " | " + LOCKCHECK_BINARY + " worker";
    auto child = start_lockcheck(store, {"run", scenario("mysql-replica-promotion"), "--nemesis", "none",
                                         "--time-limit", "6", "--name", "auth-mysql", "--client-cmd", client});
    const auto run_dir = wait_until_ready(store);
    ASSERT_FALSE(run_dir.empty());
    const std::string primary = first_endpoint_address(run_dir);
    for (int i = 0; i < 100 && read_file(store / "init.jsonl").empty(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto init =
        nlohmann::json::parse(read_file(store / "init.jsonl").substr(0, read_file(store / "init.jsonl").find('\n')));
    ASSERT_TRUE(init.contains("auth")) << init.dump();
    EXPECT_EQ(init["auth"]["user"], "lockcheck");
    const std::string password = init["auth"]["password"];

    EXPECT_EQ(mariadb_login_error(primary, "lockcheck", "lockcheck"), ER_ACCESS_DENIED_ERROR) << "the old account";
    EXPECT_EQ(mariadb_login_error(primary, "lockcheck", ""), ER_ACCESS_DENIED_ERROR);
    EXPECT_EQ(mariadb_login_error(primary, "lockcheck_repl", "lockcheck"), ER_ACCESS_DENIED_ERROR);
    EXPECT_EQ(mariadb_login_error(primary, "lockcheck", password), 0u) << "the init's password works";

    const auto grants = run_command({"mariadb", "--no-defaults", "-uroot", "-N",
                                     "--socket=" + (run_dir / "nodes" / "n1" / "mysqld.sock").string(), "-e",
                                     "SHOW GRANTS FOR 'lockcheck'@'%'; SHOW GRANTS FOR 'lockcheck_repl'@'%'"});
    ASSERT_EQ(grants.exit_code, 0) << grants.output;
    std::istringstream lines(grants.output);
    int client_grants = 0, replication_grants = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.find("TO `lockcheck`@") != std::string::npos) {
            ++client_grants;
            EXPECT_EQ(line.find("REPLICATION"), std::string::npos) << line;
            EXPECT_TRUE(line.rfind("GRANT USAGE ON *.*", 0) == 0 || line.find(" ON `lockcheck`.*") != std::string::npos)
                << "the client account reaches its own database only: " << line;
        }
        if (line.find("TO `lockcheck_repl`@") != std::string::npos) {
            ++replication_grants;
            EXPECT_NE(line.find("REPLICATION SLAVE ON *.*"), std::string::npos) << line;
        }
    }
    EXPECT_EQ(client_grants, 2) << grants.output;
    EXPECT_EQ(replication_grants, 1) << grants.output;

    auto run = finish(*child, store);
    EXPECT_EQ(run.exit_code, 0) << "replication with its own account still works: " << run.output;
    EXPECT_GE(stats(run, "mutual-exclusion")["sessions"].get<int>(), 3);
    EXPECT_TRUE(files_holding(run.run_dir, {password}).empty())
        << "the client password leaked into " << files_holding(run.run_dir, {password}).front();
    for (const char* node : {"n1", "n2"})
        EXPECT_EQ(mode_of(run.run_dir / "nodes" / node / "data") & 077u, 0u) << "the data directory holds "
                                                                                "the replica's password: owner only";
    expect_nothing_left(run);
}

TEST(ServerAuth, ZooKeeperAnswersOnlyTheFourLetterWordsLockcheckUses) {
    const auto store = fresh_store("auth-zk");
    auto child = start_lockcheck(
        store, {"run", scenario("zk-holder-pause"), "--nemesis", "none", "--time-limit", "5", "--name", "auth-zk"});
    const auto run_dir = wait_until_ready(store);
    ASSERT_FALSE(run_dir.empty());
    const std::string address = first_endpoint_address(run_dir);
    EXPECT_NE(zookeeper_four_letter(address, "srvr").value_or("").find("Mode: "), std::string::npos);
    EXPECT_EQ(zookeeper_four_letter(address, "ruok").value_or(""), "imok");
    for (const char* word : {"conf", "dump", "envi", "cons", "wchp", "mntr", "stat"}) {
        const auto answer = zookeeper_four_letter(address, word).value_or("");
        EXPECT_NE(answer.find("not in the whitelist"), std::string::npos) << word << " answered: " << answer;
        EXPECT_EQ(answer.find("dataDir"), std::string::npos) << word;
        EXPECT_EQ(answer.find("0x"), std::string::npos) << word << " showed a session: " << answer;
    }
    auto run = finish(*child, store);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(mode_of(run.run_dir / "nodes" / "n1" / "zoo.cfg"), 0600u);
    expect_nothing_left(run);
}

TEST(HostileNames, AStorePathWithQuotesAndNewlinesCannotExtendRedisConf) {
    const auto store = fresh_store("hostile-redis") / "a b\"c\\d\nrequirepass pwned\n#";
    fs::create_directories(store);
    auto child = start_lockcheck(store, {"run", scenario("redis-quick-no-faults"), "--time-limit", "3"});
    auto run = finish(*child, store);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    ASSERT_FALSE(run.run_dir.empty());
    const std::string conf = read_file(run.run_dir / "nodes" / "n1" / "redis.conf");
    EXPECT_EQ(conf.find("\nrequirepass pwned"), std::string::npos) << conf;
    EXPECT_GE(stats(run, "mutual-exclusion")["sessions"].get<int>(), 3) << "redis-server ran in that directory";
    expect_nothing_left(run);
}

TEST(HostileNames, AStorePathWithQuotesAndNewlinesStillRunsZooKeeper) {
    const auto store = fresh_store("hostile-zk") / "a b:c=d#e\nserver.9=x:1:2";
    fs::create_directories(store);
    auto child = start_lockcheck(store, {"run", scenario("zk-holder-pause"), "--nemesis", "none", "--time-limit", "3"});
    auto run = finish(*child, store);
    EXPECT_EQ(run.exit_code, 0) << "zoo.cfg read back every path intact: " << run.output;
    ASSERT_FALSE(run.run_dir.empty());
    EXPECT_TRUE(fs::exists(run.run_dir / "nodes" / "n1" / "data" / "version-2")) << "its data went where it was told";
    EXPECT_EQ(read_file(run.run_dir / "nodes" / "n1" / "zoo.cfg").find("\nserver.9"), std::string::npos);
    expect_nothing_left(run);
}

// Issue 33, item 8: the MariaDB installer (a shell script) split its --datadir at the space.
TEST(HostileNames, AStorePathWithASpaceAndANewlineStillInstallsMariaDB) {
    const auto store = fresh_store("hostile-mysql") / "st ore\nx";
    fs::create_directories(store);
    auto child =
        start_lockcheck(store, {"run", scenario("mysql-record-crash"), "--nemesis", "none", "--time-limit", "3"});
    auto run = finish(*child, store);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    ASSERT_FALSE(run.run_dir.empty());
    EXPECT_GE(stats(run, "mutual-exclusion")["sessions"].get<int>(), 3) << "mariadbd ran in that directory";
    expect_nothing_left(run);
}

TEST(HostileNames, ANameThatLeavesTheStoreIsOneErrorLine) {
    const auto store = fresh_store("escape");
    const auto target = store.parent_path() / ("lockcheck-escaped-" + std::to_string(::getpid()));
    auto child = start_lockcheck(store, {"run", "--name", "../" + target.filename().string(), "--time-limit", "1"});
    auto run = finish(*child, store);
    EXPECT_EQ(run.exit_code, 254);
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
    EXPECT_NE(run.output.find("field 'name'"), std::string::npos) << run.output;
    EXPECT_FALSE(fs::exists(target)) << "nothing was written outside the store";
}

TEST(Interrupts, CtrlCEndsALongHoldAtOnce) {
    const auto store = fresh_store("interrupt-hold");
    const auto spec =
        write_text(store / "long-hold.json",
                   R"({"name": "long-hold", "hold_ms": [30000, 30000], "nemesis": [], "time_limit_s": 60})");
    auto child = start_lockcheck(store, {"run", spec.string()});
    const auto run_dir = wait_until_ready(store);
    ASSERT_FALSE(run_dir.empty());
    for (int i = 0; i < 200 && history_lines(run_dir) < 4; ++i)  // acquire, its ok, the read: holding
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const auto [run, took] = interrupt_and_finish(*child, store);
    EXPECT_LT(took, 5.0) << "a 30 s hold was waited out (it took " << took << " s)";
    EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.output;
    EXPECT_EQ(run.results["run"]["interrupted"], true);
    EXPECT_GE(stats(run, "mutual-exclusion")["sessions"].get<int>(), 1) << "the holder still wrote and released";
    expect_nothing_left(run);
}

TEST(Interrupts, CtrlCEndsALongFaultAtOnce) {
    const auto store = fresh_store("interrupt-fault");
    const auto spec = write_text(store / "long-fault.json",
                                 R"({"name": "long-fault", "nemesis": ["kill-restart"], "restart_delay_ms": 600000,
                                     "nemesis_gap_ms": [500, 500], "time_limit_s": 60})");
    auto child = start_lockcheck(store, {"run", spec.string()});
    const auto run_dir = wait_until_ready(store);
    ASSERT_FALSE(run_dir.empty());
    bool killed = false;
    for (int i = 0; i < 200 && !killed; ++i) {
        killed = read_file(run_dir / "history.jsonl").find("\"targets\":[\"n1\"]") != std::string::npos;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_TRUE(killed) << "the node was never killed";
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const auto [run, took] = interrupt_and_finish(*child, store);
    EXPECT_LT(took, 5.0) << "a 10-minute restart delay was waited out (it took " << took << " s)";
    EXPECT_EQ(run.results["run"]["interrupted"], true) << run.output;
    expect_nothing_left(run);
}

TEST(Interrupts, CtrlCDoesNotWaitForAHungWorker) {
    const auto store = fresh_store("interrupt-hung");
    const nlohmann::json spec{{"name", "hung-worker"},
                              {"recipe", "python-misbehaving"},
                              {"client_cmd", "/usr/bin/python3 " + std::string(LOCKCHECK_SOURCE_DIR) +
                                                 "/tests/clients/misbehaving_client.py hang 4"},
                              {"workers", 2},
                              {"nemesis", nlohmann::json::array()},
                              {"time_limit_s", 60},
                              {"op_timeout_ms", 600000}};
    const auto spec_file = write_text(store / "hung.json", spec.dump());
    auto child = start_lockcheck(store, {"run", spec_file.string()});
    const auto run_dir = wait_until_ready(store);
    ASSERT_FALSE(run_dir.empty());
    std::this_thread::sleep_for(std::chrono::seconds(3));  // both workers hang at their 4th request
    const auto [run, took] = interrupt_and_finish(*child, store);
    EXPECT_LT(took, 6.0) << "a 10-minute op_timeout_ms was waited out (it took " << took << " s)";
    EXPECT_EQ(run.results["run"]["interrupted"], true) << run.output;
    EXPECT_NE(read_file(run.run_dir / "history.jsonl").find("interrupted: no reply"), std::string::npos)
        << "the hung op completed as given up on";
    expect_nothing_left(run);
}
