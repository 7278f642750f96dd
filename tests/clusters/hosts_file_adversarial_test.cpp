// Hostile hosts files for runtime ssh (issue 33, items 7, 9 and 10): an
// address or user that ssh would read as an option, shell metacharacters,
// control characters and 100 KB fields are refused when the file is parsed
// (one line naming the field); a FIFO or a directory named as the file is
// refused before it is opened; and no ssh command line lets the destination
// be read as an option.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "clusters/runtimes/remote_host.hpp"
#include "clusters/runtimes/ssh_connection.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;
using nlohmann::json;

namespace {

/// The one-line message parse_hosts throws for one host with `field` set to `value`, or "".
std::string error_with(const std::string& field, const std::string& value) {
    json host{{"address", "10.0.0.1"}, {"user", "root"}, {"key", "/k/id"}};
    host[field] = value;
    try {
        parse_hosts(json::array({host}), "/etc/lockcheck/hosts.json");
        return "";
    } catch (const HostsFileError& e) {
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        return e.what();
    }
}

}  // namespace

TEST(HostsFileAdversarial, AnAddressOrUserThatSshWouldReadAsAnOptionIsRefused) {
    EXPECT_NE(error_with("address", "-oProxyCommand=touch /tmp/owned").find("field 'address' must not start with '-'"),
              std::string::npos);
    EXPECT_NE(error_with("user", "-oProxyCommand=x").find("field 'user' must not start with '-'"), std::string::npos);
}

TEST(HostsFileAdversarial, ShellMetacharactersControlCharactersAndHugeFieldsAreRefusedNamingTheField) {
    for (const std::string& bad :
         std::vector<std::string>{"a;b", "a`id`", "$(id)", "a\nb", std::string("a\0b", 3), "a b", "a/b"}) {
        EXPECT_NE(error_with("address", bad).find("field 'address' must be a host name or an IP address"),
                  std::string::npos)
            << bad;
        EXPECT_NE(error_with("user", bad).find("field 'user' must be a login name"), std::string::npos) << bad;
    }
    for (const std::string& bad : std::vector<std::string>{"/k/a\nb", std::string("/k/a\0b", 6)})
        EXPECT_NE(error_with("key", bad).find("field 'key' must be a path without control characters"),
                  std::string::npos);
    const std::string huge(100'000, 'a');
    EXPECT_NE(error_with("address", huge).find("field 'address' is longer than 253 bytes"), std::string::npos);
    EXPECT_NE(error_with("user", huge).find("field 'user' is longer than 64 bytes"), std::string::npos);
    EXPECT_NE(error_with("key", "/" + huge).find("field 'key' is longer than 4096 bytes"), std::string::npos);
    const auto unknown = error_with("x\ny", "1");
    EXPECT_NE(unknown.find("field 'x\xEF\xBF\xBDy' is unknown"), std::string::npos) << unknown;
    for (const char* good : {"10.0.0.1", "fe80::1%eth0", "db-1.example.com"})
        EXPECT_EQ(error_with("address", good), "");
    EXPECT_EQ(error_with("user", "deploy_user.1"), "");
}

TEST(HostsFileAdversarial, AFifoOrADirectoryIsRefusedBeforeItIsOpened) {
    const lockcheck::testing::ScratchDir dir("hosts-adversarial");
    const auto fifo = dir.path() / "hosts.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const auto& [path, words] : {std::pair{fifo, "is a FIFO, not a regular file"},
                                      std::pair{dir.path(), "is a directory, not a regular file"}}) {
        try {
            read_hosts_file(path);  // a FIFO without a writer would block here
            ADD_FAILURE() << path;
        } catch (const HostsFileError& e) {
            EXPECT_EQ(std::string(e.what()), "hosts file " + path.string() + ": " + words);
        }
    }
}

TEST(HostsFileAdversarial, TheDestinationFollowsDoubleDashInEverySshCommandLine) {
    RemoteHost host{"10.0.0.1", "root", "/k/id", false, 22};
    for (const auto& control : {std::filesystem::path{}, std::filesystem::path{"/run/c.sock"}}) {
        const auto argv = ssh_argv(host, "/run/d", control, "true");
        const auto dash = std::find(argv.begin(), argv.end(), "--");
        ASSERT_NE(dash, argv.end());
        ASSERT_EQ(argv.end() - dash, 3) << "--, the address, the command";
        EXPECT_EQ(*(dash + 1), "10.0.0.1");
        EXPECT_EQ(std::count(argv.begin(), argv.end(), "--"), 1);
    }
}
