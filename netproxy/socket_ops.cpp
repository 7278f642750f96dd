#include "netproxy/socket_ops.hpp"

#include <linux/filter.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>
#include <system_error>

namespace lockcheck::netproxy {
namespace {

[[noreturn]] void throw_errno(const std::string& what) {
    throw std::system_error(errno, std::generic_category(), what);
}

UniqueFd tcp_socket() {
    UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd.valid()) throw_errno("socket");
    return fd;
}

void set_int_option(int fd, int level, int name, int value, const char* what) {
    if (::setsockopt(fd, level, name, &value, sizeof value) != 0) throw_errno(what);
}

}  // namespace

UniqueFd listen_on(const Endpoint& endpoint) {
    const sockaddr_in address = to_sockaddr(endpoint);
    UniqueFd fd = tcp_socket();
    set_int_option(fd.get(), SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
    if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
        throw_errno("bind " + to_string(endpoint));
    if (::listen(fd.get(), SOMAXCONN) != 0) throw_errno("listen " + to_string(endpoint));
    return fd;
}

Endpoint local_endpoint(int fd) {
    sockaddr_in address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) throw_errno("getsockname");
    return from_sockaddr(address);
}

Endpoint peer_endpoint(int fd) {
    sockaddr_in address{};
    socklen_t length = sizeof address;
    if (::getpeername(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) throw_errno("getpeername");
    return from_sockaddr(address);
}

ConnectStart start_connect(const Endpoint& endpoint) {
    const sockaddr_in address = to_sockaddr(endpoint);
    ConnectStart start{tcp_socket()};
    if (::connect(start.fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
        start.connected = true;
    } else if (errno != EINPROGRESS) {
        start.error = errno;
    }
    return start;
}

int pending_error(int fd) {
    int error = 0;
    socklen_t length = sizeof error;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0) return errno;
    return error;
}

void set_no_delay(int fd) { set_int_option(fd, IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY"); }

void close_with_reset(UniqueFd& fd) {
    if (!fd.valid()) return;
    const linger abort_on_close{1, 0};
    ::setsockopt(fd.get(), SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
    fd.reset();
}

void set_drop_all_filter(int fd, bool drop) {
    if (!drop) {
        // The kernel wants an int-sized option value, which it ignores.
        // ENOENT: no filter attached, which is what was asked for.
        const int ignored = 0;
        if (::setsockopt(fd, SOL_SOCKET, SO_DETACH_FILTER, &ignored, sizeof ignored) != 0 && errno != ENOENT)
            throw_errno("SO_DETACH_FILTER");
        return;
    }
    sock_filter drop_everything[] = {BPF_STMT(BPF_RET | BPF_K, 0)};
    const sock_fprog program{1, drop_everything};
    if (::setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &program, sizeof program) != 0) throw_errno("SO_ATTACH_FILTER");
}

}  // namespace lockcheck::netproxy
