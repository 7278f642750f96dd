// The hosts file of runtime ssh (clusters/runtimes/remote_host.hpp): defaults, keys
// relative to the file, and one line naming the host and field for each
// malformed field; shell_quote, by which every remote command is built.
#include <gtest/gtest.h>

#include "host/system_command.hpp"
#include "clusters/servers/config_quoting.hpp"
#include "clusters/runtimes/remote_host.hpp"

using namespace lockcheck;
using nlohmann::json;

namespace {

/// The message parse_hosts throws for `hosts`, or "" when it parses.
std::string error_of(const json& hosts) {
    try {
        parse_hosts(hosts, "/etc/lockcheck/hosts.json");
        return "";
    } catch (const HostsFileError& e) {
        return e.what();
    }
}

}  // namespace

TEST(HostsFile, ParsesEveryFieldAndTheDefaults) {
    const auto hosts = parse_hosts(json::parse(R"([{"address": "10.0.0.1", "user": "root", "key": "/k/id"},
        {"address": "10.0.0.2", "user": "admin", "key": "keys/id", "sudo": true, "port": 2222}])"),
                                   "/etc/lockcheck/hosts.json");
    ASSERT_EQ(hosts.size(), 2U);
    EXPECT_EQ(hosts[0].address, "10.0.0.1");
    EXPECT_EQ(hosts[0].key, "/k/id");
    EXPECT_FALSE(hosts[0].sudo);
    EXPECT_EQ(hosts[0].port, 22);
    EXPECT_EQ(hosts[1].user, "admin");
    EXPECT_EQ(hosts[1].key, "/etc/lockcheck/keys/id") << "a relative key is the file's directory's";
    EXPECT_TRUE(hosts[1].sudo);
    EXPECT_EQ(hosts[1].port, 2222);
    EXPECT_EQ(describe(hosts[1]), "admin@10.0.0.2 port 2222");
}

TEST(HostsFile, EveryMalformedFieldIsOneLineNamingIt) {
    const json good = {{"address", "10.0.0.1"}, {"user", "root"}, {"key", "/k"}};
    const auto with = [&](const char* field, const json& value) {
        json host = good;
        host[field] = value;
        return json::array({good, host});
    };
    const auto without = [&](const char* field) {
        json host = good;
        host.erase(field);
        return json::array({host});
    };
    const std::string file = "hosts file /etc/lockcheck/hosts.json: ";
    EXPECT_EQ(error_of(json::object()), file +
                                            "must be a JSON array of hosts ({\"address\", \"user\", \"key\", "
                                            "\"sudo\", \"port\"}), one per node");
    EXPECT_EQ(error_of(json::array()), error_of(json::object()));
    EXPECT_EQ(error_of(json::array({"10.0.0.1"})), file + "host 1: must be an object");
    EXPECT_EQ(error_of(without("address")), file + "host 1: field 'address' is missing");
    EXPECT_EQ(error_of(without("user")), file + "host 1: field 'user' is missing");
    EXPECT_EQ(error_of(without("key")), file + "host 1: field 'key' is missing");
    EXPECT_EQ(error_of(with("address", 10)), file + "host 2: field 'address' must be a string that is not empty");
    EXPECT_EQ(error_of(with("user", "")), file + "host 2: field 'user' must be a string that is not empty");
    EXPECT_EQ(error_of(with("sudo", "yes")), file + "host 2: field 'sudo' must be true or false");
    EXPECT_EQ(error_of(with("port", 0)), file + "host 2: field 'port' must be an integer from 1 to 65535");
    EXPECT_EQ(error_of(with("port", 65536)), file + "host 2: field 'port' must be an integer from 1 to 65535");
    EXPECT_EQ(error_of(with("port", "22")), file + "host 2: field 'port' must be an integer from 1 to 65535");
    EXPECT_EQ(error_of(with("password", "x")),
              file + "host 2: field 'password' is unknown (the fields are address, user, key, sudo, port)");
}

TEST(HostsFile, AFileThatIsNoJsonOrMissingIsOneLine) {
    EXPECT_THROW(
        {
            try {
                read_hosts_file("/nonexistent/lockcheck/hosts.json");
            } catch (const HostsFileError& e) {
                EXPECT_STREQ(e.what(), "hosts file /nonexistent/lockcheck/hosts.json: does not exist");
                throw;
            }
        },
        HostsFileError);
}

TEST(ShellQuote, AnyTextIsOneWordOfTheShell) {
    for (const std::string text : {"plain", "with space", "it's", "'", "$(touch /tmp/x) `id` \"q\" \\ ; | &", ""}) {
        const auto echoed = run_checked({"sh", "-c", "printf %s " + shell_quote(text)});
        EXPECT_EQ(echoed, text);
    }
}
