// Client-side socket calls for the fault proxy's tests: connects (blocking,
// non-blocking, from a chosen source address), reads and writes with a
// bounded wait, waiting for a condition, and the process's descriptor and
// thread counts. Loopback only.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "netproxy/endpoint.hpp"
#include "netproxy/unique_fd.hpp"

namespace lockcheck::netproxy::testing {

/// Throws std::system_error with errno and `what`.
[[noreturn]] void throw_errno(const std::string& what);
/// True when errno says a non-blocking call would block.
bool would_block();
/// Sets O_NONBLOCK; throws std::system_error when it cannot.
void set_non_blocking(int fd);

/// A blocking connect to `server`; the socket is then non-blocking.
UniqueFd connect_to(const Endpoint& server);
/// connect_to() from `source` (a local address, any port): what the proxy
/// reports as the connection's client address.
UniqueFd connect_from(const std::string& source, const Endpoint& server);
/// Starts a non-blocking connect (it may still be in progress).
UniqueFd start_connect_to(const Endpoint& server);
/// True when a non-blocking connect completes successfully within `wait`.
bool connect_completes(int fd, std::chrono::milliseconds wait);

struct Received {
    std::string bytes;
    bool eof = false;
    int error = 0;  ///< errno of a failed read, e.g. ECONNRESET
};
/// Reads from a non-blocking socket until `want` bytes came, EOF, an error,
/// or `wait` passed.
Received receive(int fd, std::size_t want, std::chrono::milliseconds wait);
/// Writes all of `bytes` to a non-blocking socket (waiting for room).
void send_all(int fd, std::string_view bytes);

/// Waits (checking every 5 ms) until `condition` holds or `wait` passed.
bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds wait);

/// Entries of /proc/self/fd and /proc/self/task.
std::size_t open_descriptor_count();
std::size_t thread_count();

}  // namespace lockcheck::netproxy::testing
