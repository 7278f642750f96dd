// Helpers for the fault proxy's tests: seeded random byte streams exchanged
// both ways and checked byte for byte, and loopback test servers on a thread
// of their own. Loopback only, ephemeral ports only. The client side's socket
// calls are in tests/netproxy/test_sockets.hpp (included here).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "netproxy/endpoint.hpp"
#include "netproxy/unique_fd.hpp"
#include "tests/netproxy/test_sockets.hpp"

namespace lockcheck::netproxy::testing {

/// A reproducible pseudo-random byte stream: the same seed gives the same bytes.
class RandomBytes {
public:
    explicit RandomBytes(std::uint64_t seed) : engine_(seed) {}
    /// The next out.size() bytes of the stream.
    void fill(std::span<std::byte> out);

private:
    std::mt19937_64 engine_;
    std::uint64_t word_ = 0;
    int bytes_left_in_word_ = 0;
};

/// What one end of an exchange sends and expects.
struct StreamPlan {
    std::uint64_t send_seed = 0;
    std::size_t send_size = 0;
    std::uint64_t expect_seed = 0;
    std::size_t expect_size = 0;
};

/// A connection a TestServer serves, or a client's side of an exchange:
/// steps without blocking when poll() says its socket is ready.
class PolledConnection {
public:
    virtual ~PolledConnection() = default;
    virtual int fd() const = 0;
    /// POLLIN / POLLOUT wanted now.
    virtual short poll_events() const = 0;
    virtual void step() = 0;
    virtual bool finished() const = 0;
    /// Bytes received so far.
    virtual std::size_t received() const = 0;
    /// How it ended, for the test's messages and checks.
    virtual std::string outcome() const = 0;
};

/// One end of a two-way random exchange on a non-blocking socket: sends its
/// stream then shuts down writing, reads and checks the expected stream up
/// to EOF. Finished once both are done, or on an error or a wrong byte.
class StreamExchange : public PolledConnection {
public:
    StreamExchange(UniqueFd fd, const StreamPlan& plan);
    int fd() const override { return fd_.get(); }
    short poll_events() const override;
    void step() override;
    bool finished() const override;
    std::size_t received() const override { return received_; }
    /// "ok" when everything was sent and exactly the expected bytes came,
    /// then EOF; otherwise what went wrong.
    std::string outcome() const override;
    bool ok() const { return outcome() == "ok"; }

private:
    void send_some();
    void receive_some();

    UniqueFd fd_;
    StreamPlan plan_;
    RandomBytes to_send_;
    RandomBytes expected_;
    std::vector<std::byte> out_;
    std::size_t out_offset_ = 0;
    std::size_t sent_ = 0;
    std::size_t received_ = 0;
    bool shut_ = false;
    bool eof_ = false;
    int error_ = 0;
    std::optional<std::size_t> mismatch_at_;
};

/// Polls `connections` until all have finished or `budget` has passed; true
/// when all finished.
bool run_until_finished(const std::vector<PolledConnection*>& connections, std::chrono::milliseconds budget);

/// A loopback server (`address`, 127.0.0.1 unless said, ephemeral port) on a
/// thread of its own: one poll loop over its listener and its connections,
/// each made by `serve`.
class TestServer {
public:
    using Serve = std::function<std::unique_ptr<PolledConnection>(UniqueFd)>;
    explicit TestServer(Serve serve, const std::string& address = "127.0.0.1");
    /// Stops the thread and closes every socket.
    ~TestServer();
    TestServer(const TestServer&) = delete;
    TestServer& operator=(const TestServer&) = delete;

    const Endpoint& endpoint() const { return endpoint_; }
    std::size_t open_connections() const { return open_.load(); }
    /// Bytes received by every connection, open and finished.
    std::size_t bytes_received() const { return received_.load(); }
    /// outcome() of every finished connection, in the order they finished.
    std::vector<std::string> outcomes() const;

private:
    void run();

    Serve serve_;
    UniqueFd listener_;
    Endpoint endpoint_;
    std::atomic<bool> stop_{false};
    std::atomic<std::size_t> open_{0};
    std::atomic<std::size_t> received_{0};
    mutable std::mutex mutex_;
    std::vector<std::string> outcomes_;
    std::thread thread_;
};

/// The server side of an exchange: reads the client's 16-byte header
/// (seed, size), then sends stream server_seed(seed) of the same size and
/// expects stream `seed`.
std::unique_ptr<PolledConnection> serve_stream(UniqueFd fd);
std::uint64_t server_seed(std::uint64_t client_seed);
/// The client side matching serve_stream(): sends the header, then its stream.
std::unique_ptr<StreamExchange> start_stream_client(const Endpoint& server, std::uint64_t seed, std::size_t size);

/// Echoes every byte back; on EOF shuts down after the echo. outcome():
/// "fin" or "reset" (how the peer ended), or "error N".
std::unique_ptr<PolledConnection> serve_echo(UniqueFd fd);
/// Accepts and never reads nor writes; outcome() "closed".
std::unique_ptr<PolledConnection> serve_silence(UniqueFd fd);

}  // namespace lockcheck::netproxy::testing
