#include "host/fork_server_protocol.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <string_view>
#include <vector>

namespace lockcheck {
namespace {

constexpr std::string_view kRequest = "fork";
constexpr std::string_view kPidReply = "pid ";
constexpr std::string_view kErrorReply = "error ";
/// The longest message either side sends or reads; longer is garbage.
constexpr std::size_t kMaxMessageBytes = 4096;
/// Room for more fds than a request may carry, so that too many is seen as such.
constexpr std::size_t kMaxReceivedFds = 16;

/// Up to 60 bytes of `bytes`, printable, for an error message.
std::string quoted_excerpt(std::string_view bytes) {
    std::string out = "'";
    for (const char c : bytes.substr(0, 60)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    out += bytes.size() > 60 ? "...'" : "'";
    return out;
}

bool send_message(int socket, std::string_view text) {
    ssize_t sent = -1;
    do sent = ::send(socket, text.data(), text.size(), MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    return sent == static_cast<ssize_t>(text.size());
}

}  // namespace

void send_fork_request(int socket, const ForkRequest& request) {
    const int fds[4] = {request.stdio[0], request.stdio[1], request.stdio[2], request.cgroup_dir};
    send_with_fds(socket, kRequest, std::span<const int>(fds, request.cgroup_dir >= 0 ? 4 : 3));
}

void send_with_fds(int socket, std::string_view bytes, std::span<const int> fds) {
    if (fds.size() > kMaxReceivedFds)
        throw ForkProtocolError("cannot send more than " + std::to_string(kMaxReceivedFds) + " fds in one message");
    iovec iov{const_cast<char*>(bytes.data()), bytes.size()};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxReceivedFds)] = {};
    msghdr message{};
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(header), fds.data(), sizeof(int) * fds.size());
    ssize_t sent = -1;
    do sent = ::sendmsg(socket, &message, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    if (sent != static_cast<ssize_t>(bytes.size()))
        throw ForkProtocolError(std::string("cannot send a fork request: ") +
                                (sent < 0 ? std::strerror(errno) : "short write"));
}

std::optional<ForkRequest> receive_fork_request(int socket) {
    char payload[kMaxMessageBytes];
    iovec iov{payload, sizeof payload};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxReceivedFds)] = {};
    msghdr message{};
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    ssize_t received = -1;
    do received = ::recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    while (received < 0 && errno == EINTR);
    if (received < 0) throw ForkProtocolError(std::string("cannot read a fork request: ") + std::strerror(errno));

    std::vector<int> fds;
    for (cmsghdr* header = CMSG_FIRSTHDR(&message); header != nullptr; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        const std::size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (std::size_t i = 0; i < count; ++i) {
            int fd = -1;
            std::memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof fd);
            fds.push_back(fd);
        }
    }
    const std::string_view bytes(payload, static_cast<std::size_t>(received));
    if (received == 0 && fds.empty()) return std::nullopt;  // SOCK_SEQPACKET: 0 bytes and no fds is EOF
    const bool truncated = (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0;
    if (bytes == kRequest && (fds.size() == 3 || fds.size() == 4) && !truncated)
        return ForkRequest{{fds[0], fds[1], fds[2]}, fds.size() == 4 ? fds[3] : -1};
    for (const int fd : fds) ::close(fd);
    throw ForkProtocolError("malformed fork request: expected \"fork\" with 3 or 4 fds, got " + quoted_excerpt(bytes) +
                            " with " + std::to_string(fds.size()) + " fd(s)" +
                            (truncated ? " (truncated: too long or too many fds)" : ""));
}

bool send_fork_pid(int socket, pid_t pid) { return send_message(socket, std::string(kPidReply) + std::to_string(pid)); }

bool send_fork_error(int socket, const std::string& message) {
    return send_message(socket, std::string(kErrorReply) + message.substr(0, kMaxMessageBytes - kErrorReply.size()));
}

pid_t receive_fork_reply(int socket, std::chrono::milliseconds timeout) {
    pollfd ready{socket, POLLIN, 0};
    int polled = -1;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    do {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        polled = ::poll(&ready, 1, static_cast<int>(std::max<long long>(0, left.count())));
    } while (polled < 0 && errno == EINTR);
    if (polled < 0) throw ForkProtocolError(std::string("cannot wait for the fork server: ") + std::strerror(errno));
    if (polled == 0)
        throw ForkProtocolError("the fork server did not answer within " + std::to_string(timeout.count()) + " ms");
    char payload[kMaxMessageBytes];
    ssize_t received = -1;
    do received = ::recv(socket, payload, sizeof payload, 0);
    while (received < 0 && errno == EINTR);
    if (received < 0)
        throw ForkProtocolError(std::string("cannot read the fork server's reply: ") + std::strerror(errno));
    if (received == 0) throw ForkProtocolError("the fork server exited");
    const std::string_view bytes(payload, static_cast<std::size_t>(received));
    if (bytes.starts_with(kErrorReply)) throw ForkRefused(std::string(bytes.substr(kErrorReply.size())));
    if (bytes.starts_with(kPidReply)) {
        const auto digits = bytes.substr(kPidReply.size());
        pid_t pid = 0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
        if (error == std::errc() && end == digits.data() + digits.size() && pid > 0) return pid;
    }
    throw ForkProtocolError("malformed fork server reply " + quoted_excerpt(bytes) +
                            ": expected \"pid N\" or \"error TEXT\"");
}

}  // namespace lockcheck
