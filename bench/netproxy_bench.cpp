// The fault proxy's cost on its no-fault path (docs/benchmarks.md, "Fault
// proxy"): round trips of a small message to a loopback echo server, direct
// and through the proxy in pass mode, alternating in batches so that both
// see the same machine load; then bulk throughput through the echo, direct
// and proxied. Bounded in count (the options) and in time (each phase stops
// at its time limit).
//
//   netproxy_bench [--round-trips N] [--batch N] [--message-bytes N] [--megabytes N]
#include <fcntl.h>
#include <sys/socket.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "netproxy/proxy_server.hpp"
#include "tests/netproxy/netproxy_test_support.hpp"

namespace {

using namespace lockcheck::netproxy;
using namespace std::chrono_literals;

constexpr auto kPhaseTimeLimit = 120s;

void make_blocking(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
        throw std::system_error(errno, std::generic_category(), "fcntl");
}

UniqueFd blocking_client(const Endpoint& server) {
    UniqueFd fd = testing::connect_to(server);
    make_blocking(fd.get());
    set_no_delay(fd.get());
    return fd;
}

void write_all(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t count = ::send(fd, data, size, MSG_NOSIGNAL);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) throw std::system_error(errno, std::generic_category(), "send");
        data += count;
        size -= static_cast<std::size_t>(count);
    }
}

void read_all(int fd, char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t count = ::recv(fd, data, size, 0);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) throw std::runtime_error("the echo connection ended early");
        data += count;
        size -= static_cast<std::size_t>(count);
    }
}

/// One round trip of `message` on a blocking socket, in nanoseconds.
double round_trip_ns(int fd, const std::string& message, std::string& echo) {
    const auto started = std::chrono::steady_clock::now();
    write_all(fd, message.data(), message.size());
    read_all(fd, echo.data(), echo.size());
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - started).count();
}

double percentile(std::vector<double> values, double fraction) {
    if (values.empty()) return 0;
    const auto index = static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index), values.end());
    return values[index];
}

/// Megabytes per second of `megabytes` sent and echoed back on one connection.
double echo_throughput(const Endpoint& server, std::size_t megabytes) {
    const auto fd = blocking_client(server);
    const std::size_t total = megabytes * 1024 * 1024;
    const std::string block(64 * 1024, 'x');
    const auto started = std::chrono::steady_clock::now();
    std::thread writer([&] {
        for (std::size_t sent = 0; sent < total; sent += block.size())
            write_all(fd.get(), block.data(), std::min(block.size(), total - sent));
        ::shutdown(fd.get(), SHUT_WR);
    });
    std::string buffer(block.size(), '\0');
    std::size_t received = 0;
    const auto deadline = started + kPhaseTimeLimit;
    while (received < total && std::chrono::steady_clock::now() < deadline) {
        const ssize_t count = ::recv(fd.get(), buffer.data(), buffer.size(), 0);
        if (count <= 0) break;
        received += static_cast<std::size_t>(count);
    }
    writer.join();
    if (received != total) throw std::runtime_error("the echo returned " + std::to_string(received) + " bytes");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return static_cast<double>(megabytes) / seconds;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Round-trip latency and throughput of the fault proxy's pass mode, next to a direct connection"};
    std::size_t round_trips = 20'000;
    std::size_t batch = 1'000;
    std::size_t message_bytes = 16;
    std::size_t megabytes = 256;
    app.add_option("--round-trips", round_trips, "round trips per path")->check(CLI::Range(1, 10'000'000));
    app.add_option("--batch", batch, "round trips per batch; the paths alternate by batch")
        ->check(CLI::Range(1, 1'000'000));
    app.add_option("--message-bytes", message_bytes, "bytes per round trip")->check(CLI::Range(1, 65'536));
    app.add_option("--megabytes", megabytes, "MiB echoed per throughput run (0: skip)")->check(CLI::Range(0, 4096));
    CLI11_PARSE(app, argc, argv);

    try {
        testing::TestServer echo(testing::serve_echo);
        ProxyServer proxy;
        const auto link = proxy.add_link({"127.0.0.1", 0}, echo.endpoint());
        const auto direct = blocking_client(echo.endpoint());
        const auto proxied = blocking_client(link.listen);
        const std::string message(message_bytes, 'p');
        std::string reply(message_bytes, '\0');

        for (int i = 0; i < 1000; ++i) {  // warm-up
            round_trip_ns(direct.get(), message, reply);
            round_trip_ns(proxied.get(), message, reply);
        }
        std::vector<double> direct_ns;
        std::vector<double> proxied_ns;
        const auto deadline = std::chrono::steady_clock::now() + kPhaseTimeLimit;
        while (direct_ns.size() < round_trips && std::chrono::steady_clock::now() < deadline) {
            const std::size_t count = std::min(batch, round_trips - direct_ns.size());
            for (std::size_t i = 0; i < count; ++i) direct_ns.push_back(round_trip_ns(direct.get(), message, reply));
            for (std::size_t i = 0; i < count; ++i) proxied_ns.push_back(round_trip_ns(proxied.get(), message, reply));
        }

        const double direct_median = percentile(direct_ns, 0.5) / 1000;
        const double proxied_median = percentile(proxied_ns, 0.5) / 1000;
        const double direct_p99 = percentile(direct_ns, 0.99) / 1000;
        const double proxied_p99 = percentile(proxied_ns, 0.99) / 1000;
        std::printf("round trips: %zu per path, %zu-byte messages, alternating batches of %zu\n\n", direct_ns.size(),
                    message_bytes, batch);
        std::printf("| path | median µs | p99 µs |\n|---|---|---|\n");
        std::printf("| direct | %.1f | %.1f |\n", direct_median, direct_p99);
        std::printf("| proxy, pass | %.1f | %.1f |\n", proxied_median, proxied_p99);
        std::printf("| added by the proxy | %.1f | %.1f |\n", proxied_median - direct_median, proxied_p99 - direct_p99);
        if (megabytes > 0) {
            const double direct_rate = echo_throughput(echo.endpoint(), megabytes);
            const double proxied_rate = echo_throughput(link.listen, megabytes);
            std::printf("\nthroughput, %zu MiB echoed (each way at once):\n\n", megabytes);
            std::printf("| path | MiB/s each way |\n|---|---|\n| direct | %.0f |\n| proxy, pass | %.0f |\n",
                        direct_rate, proxied_rate);
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "netproxy_bench: %s\n", error.what());
        return 255;
    }
    return 0;
}
