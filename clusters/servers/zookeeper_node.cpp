#include "clusters/servers/zookeeper_node.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

#include "clusters/servers/server_data_files.hpp"
#include "clusters/servers/config_quoting.hpp"
#include "host/private_file.hpp"

namespace lockcheck {
namespace {

/// log4j 1.2 (the binding Debian's zookeeper.jar uses): everything to stdout,
/// which the node appends to its server.log.
constexpr const char* kLog4j =
    "# written by lockcheck\n"
    "log4j.rootLogger=INFO, CONSOLE\n"
    "log4j.appender.CONSOLE=org.apache.log4j.ConsoleAppender\n"
    "log4j.appender.CONSOLE.Target=System.out\n"
    "log4j.appender.CONSOLE.layout=org.apache.log4j.PatternLayout\n"
    "log4j.appender.CONSOLE.layout.ConversionPattern=%d{ISO8601} [myid:%X{myid}] - %-5p [%t:%C{1}@%L] - %m%n\n";

/// Milliseconds left until `deadline`, at least 0.
int remaining_ms(std::chrono::steady_clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

/// Waits for `events` on `fd` until `deadline`; true when they came.
bool wait_for(int fd, short events, std::chrono::steady_clock::time_point deadline) {
    pollfd p{fd, events, 0};
    for (;;) {
        const int rc = ::poll(&p, 1, remaining_ms(deadline));
        if (rc > 0) return true;
        if (rc == 0 || errno != EINTR) return false;
    }
}

/// A socket that closes itself.
struct Socket {
    int fd;
    ~Socket() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

NodeProgram zookeeper_server_program(const std::filesystem::path& node_dir, int myid,
                                     const std::vector<ZooKeeperServerLine>& ensemble, bool force_sync) {
    // Absolute (a relative --store gives relative ones): log4j would read the first word of a relative
    // file: URL as its host and fall back to its defaults, and ZooKeeper warns of every relative path.
    const auto dir = std::filesystem::absolute(node_dir);
    const auto data = dir / "data";
    const auto conf = dir / "conf";
    std::filesystem::create_directories(data);
    std::filesystem::create_directories(conf);
    write_private_file(data / "myid", std::to_string(myid) + "\n");
    write_private_file(conf / "log4j.properties", kLog4j);
    const std::string& address = ensemble.at(static_cast<std::size_t>(myid - 1)).address;
    std::string cfg =
        "# written by lockcheck\n"
        "tickTime=" +
        std::to_string(kZooKeeperTickMs) +
        "\n"
        "initLimit=20\n"
        "syncLimit=5\n"
        "dataDir=" +
        zookeeper_config_value(data.string()) +
        "\n"
        "clientPort=" +
        std::to_string(kZooKeeperClientPort) +
        "\n"
        "clientPortAddress=" +
        zookeeper_config_value(address) +
        "\n"
        "minSessionTimeout=" +
        std::to_string(kZooKeeperMinSessionMs) +
        "\n"
        "maxSessionTimeout=" +
        std::to_string(kZooKeeperMaxSessionMs) +
        "\n"
        "4lw.commands.whitelist=" +
        std::string(kZooKeeperFourLetterWords) +
        "\n"
        "admin.enableServer=false\n"
        "preAllocSize=4096\n"
        "autopurge.purgeInterval=0\n"
        "forceSync=" +
        std::string(force_sync ? "yes" : "no") + "\n";
    for (std::size_t i = 0; i < ensemble.size(); ++i) {
        const auto& server = ensemble[i];
        cfg += "server." + std::to_string(i + 1) + "=" +
               zookeeper_config_value(server.address + ":" + std::to_string(server.quorum_port) + ":" +
                                      std::to_string(server.election_port)) +
               "\n";
    }
    write_private_file(dir / "zoo.cfg", cfg);
    return NodeProgram{{"java", "-Xms64m", "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                        "-XX:-UsePerfData",  // no /tmp/hsperfdata_* file per JVM
                        "-Djava.net.preferIPv4Stack=true", "-Dzookeeper.log.dir=" + dir.string(),
                        // A URL, not a classpath entry: a ':' in the run directory's path would split the classpath.
                        "-Dlog4j.configuration=" + file_url((conf / "log4j.properties").string()), "-cp",
                        "/usr/share/java/zookeeper.jar:/usr/share/java/slf4j-log4j12.jar:/usr/share/java/log4j-1.2.jar",
                        "org.apache.zookeeper.server.quorum.QuorumPeerMain", (dir / "zoo.cfg").string()},
                       [](const std::string& a) { return zookeeper_four_letter(a, "ruok").value_or("") == "imok"; },
                       data,
                       "any-fsync",
                       std::nullopt,
                       zookeeper_data_files()};
}

std::optional<std::string> zookeeper_four_letter(const std::string& address, const std::string& word,
                                                 std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    sockaddr_in peer{};
    peer.sin_family = AF_INET;
    peer.sin_port = htons(static_cast<std::uint16_t>(kZooKeeperClientPort));
    if (::inet_pton(AF_INET, address.c_str(), &peer.sin_addr) != 1) return std::nullopt;
    Socket s{::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)};
    if (s.fd < 0) return std::nullopt;
    if (::connect(s.fd, reinterpret_cast<const sockaddr*>(&peer), sizeof peer) != 0) {
        if (errno != EINPROGRESS || !wait_for(s.fd, POLLOUT, deadline)) return std::nullopt;
        int error = 0;
        socklen_t length = sizeof error;
        if (::getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0) return std::nullopt;
    }
    if (::send(s.fd, word.data(), word.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(word.size())) return std::nullopt;
    std::string answer;
    char buffer[4096];
    for (int reads = 0; reads < 1024; ++reads) {  // bounded: the server closes after answering
        if (!wait_for(s.fd, POLLIN, deadline)) return std::nullopt;
        const ssize_t n = ::recv(s.fd, buffer, sizeof buffer, 0);
        if (n == 0) return answer;
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return std::nullopt;
        }
        answer.append(buffer, static_cast<std::size_t>(n));
    }
    return std::nullopt;
}

std::optional<std::string> zookeeper_mode(const std::string& address, std::chrono::milliseconds timeout) {
    const auto answer = zookeeper_four_letter(address, "srvr", timeout);
    if (!answer) return std::nullopt;
    const std::string tag = "Mode: ";
    const auto at = answer->find(tag);
    if (at == std::string::npos) return std::nullopt;
    const auto end = answer->find('\n', at);
    return answer->substr(at + tag.size(), end == std::string::npos ? std::string::npos : end - at - tag.size());
}

}  // namespace lockcheck
