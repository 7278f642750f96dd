#include "tests/netproxy/test_sockets.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "netproxy/socket_ops.hpp"

namespace lockcheck::netproxy::testing {

namespace {

constexpr std::size_t kReceiveChunk = 16 * 1024;

std::size_t directory_entries(const char* path) {
    std::size_t count = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(path)) ++count;
    return count;
}

}  // namespace

void throw_errno(const std::string& what) { throw std::system_error(errno, std::generic_category(), what); }

bool would_block() { return errno == EAGAIN || errno == EWOULDBLOCK; }

void set_non_blocking(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) throw_errno("fcntl O_NONBLOCK");
}

UniqueFd connect_to(const Endpoint& server) { return connect_from("", server); }

UniqueFd connect_from(const std::string& source, const Endpoint& server) {
    const sockaddr_in address = to_sockaddr(server);
    UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd.valid()) throw_errno("socket");
    if (!source.empty()) {
        const sockaddr_in local = to_sockaddr({source, 0});
        if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&local), sizeof local) != 0)
            throw_errno("bind " + source);
    }
    if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
        throw_errno("connect " + to_string(server));
    set_non_blocking(fd.get());
    return fd;
}

UniqueFd start_connect_to(const Endpoint& server) { return std::move(start_connect(server).fd); }

bool connect_completes(int fd, std::chrono::milliseconds wait) {
    pollfd polled{fd, POLLOUT, 0};
    if (::poll(&polled, 1, static_cast<int>(wait.count())) <= 0) return false;
    return pending_error(fd) == 0;
}

Received receive(int fd, std::size_t want, std::chrono::milliseconds wait) {
    Received result;
    const auto deadline = std::chrono::steady_clock::now() + wait;
    char buffer[kReceiveChunk];
    while (result.bytes.size() < want && !result.eof && result.error == 0) {
        const ssize_t count = ::recv(fd, buffer, std::min(sizeof buffer, want - result.bytes.size()), 0);
        if (count > 0) {
            result.bytes.append(buffer, static_cast<std::size_t>(count));
            continue;
        }
        if (count == 0) {
            result.eof = true;
            break;
        }
        if (errno == EINTR) continue;
        if (!would_block()) {
            result.error = errno;
            break;
        }
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) break;
        pollfd polled{fd, POLLIN, 0};
        ::poll(&polled, 1, static_cast<int>(left.count()));
    }
    return result;
}

void send_all(int fd, std::string_view bytes) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!bytes.empty()) {
        const ssize_t count = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (count > 0) {
            bytes.remove_prefix(static_cast<std::size_t>(count));
        } else if (would_block()) {
            if (std::chrono::steady_clock::now() > deadline) throw std::runtime_error("send_all: no room for 10 s");
            pollfd polled{fd, POLLOUT, 0};
            ::poll(&polled, 1, 100);
        } else if (errno != EINTR) {
            throw_errno("send");
        }
    }
}

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds wait) {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (!condition()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

std::size_t open_descriptor_count() { return directory_entries("/proc/self/fd"); }
std::size_t thread_count() { return directory_entries("/proc/self/task"); }

}  // namespace lockcheck::netproxy::testing
