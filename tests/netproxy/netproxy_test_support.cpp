#include "tests/netproxy/netproxy_test_support.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "netproxy/socket_ops.hpp"
#include "tests/netproxy/test_sockets.hpp"

namespace lockcheck::netproxy::testing {

namespace {

constexpr std::size_t kChunk = 16 * 1024;
constexpr std::size_t kHeaderBytes = 16;
constexpr std::uint64_t kServerSeedSalt = 0x5bd1e9955bd1e995ULL;
constexpr std::size_t kEchoBufferLimit = 1024 * 1024;

/// Serves an exchange after reading the client's header (seed, size).
class ServedStream : public PolledConnection {
public:
    explicit ServedStream(UniqueFd fd) : fd_(std::move(fd)) {}
    int fd() const override { return exchange_ ? exchange_->fd() : fd_.get(); }
    short poll_events() const override { return exchange_ ? exchange_->poll_events() : POLLIN; }
    void step() override {
        if (!exchange_) read_header();
        if (exchange_) exchange_->step();
    }
    bool finished() const override { return exchange_ ? exchange_->finished() : error_.has_value(); }
    std::size_t received() const override { return header_size_ + (exchange_ ? exchange_->received() : 0); }
    std::string outcome() const override { return exchange_ ? exchange_->outcome() : *error_; }

private:
    void read_header() {
        while (header_size_ < kHeaderBytes) {
            const ssize_t count = ::recv(fd_.get(), header_ + header_size_, kHeaderBytes - header_size_, 0);
            if (count > 0) {
                header_size_ += static_cast<std::size_t>(count);
            } else if (count == 0) {
                error_ = "EOF before the header";
                return;
            } else if (would_block()) {
                return;
            } else if (errno != EINTR) {
                error_ = std::string("header: ") + std::strerror(errno);
                return;
            }
        }
        std::uint64_t seed = 0;
        std::uint64_t size = 0;
        std::memcpy(&seed, header_, sizeof seed);
        std::memcpy(&size, header_ + sizeof seed, sizeof size);
        exchange_ = std::make_unique<StreamExchange>(
            std::move(fd_),
            StreamPlan{server_seed(seed), static_cast<std::size_t>(size), seed, static_cast<std::size_t>(size)});
    }

    UniqueFd fd_;
    unsigned char header_[kHeaderBytes] = {};
    std::size_t header_size_ = 0;
    std::optional<std::string> error_;
    std::unique_ptr<StreamExchange> exchange_;
};

class ServedEcho : public PolledConnection {
public:
    explicit ServedEcho(UniqueFd fd) : fd_(std::move(fd)) {}
    int fd() const override { return fd_.get(); }
    short poll_events() const override {
        short events = 0;
        if (!eof_ && pending_.size() < kEchoBufferLimit) events |= POLLIN;
        if (!pending_.empty()) events |= POLLOUT;
        return events;
    }
    void step() override {
        read_some();
        write_some();
        if (eof_ && pending_.empty() && !shut_ && error_ == 0) {
            ::shutdown(fd_.get(), SHUT_WR);
            shut_ = true;
        }
    }
    bool finished() const override { return error_ != 0 || (eof_ && shut_); }
    std::size_t received() const override { return received_; }
    std::string outcome() const override {
        if (error_ == ECONNRESET) return "reset";
        if (error_ != 0) return "error " + std::to_string(error_);
        return "fin";
    }

private:
    void read_some() {
        char buffer[kChunk];
        while (!eof_ && error_ == 0 && pending_.size() < kEchoBufferLimit) {
            const ssize_t count = ::recv(fd_.get(), buffer, sizeof buffer, 0);
            if (count > 0) {
                pending_.append(buffer, static_cast<std::size_t>(count));
                received_ += static_cast<std::size_t>(count);
            } else if (count == 0) {
                eof_ = true;
            } else if (would_block()) {
                return;
            } else if (errno != EINTR) {
                error_ = errno;
            }
        }
    }
    void write_some() {
        while (!pending_.empty() && error_ == 0) {
            const ssize_t count = ::send(fd_.get(), pending_.data(), pending_.size(), MSG_NOSIGNAL);
            if (count > 0) {
                pending_.erase(0, static_cast<std::size_t>(count));
            } else if (would_block()) {
                return;
            } else if (errno != EINTR) {
                error_ = errno;
            }
        }
    }

    UniqueFd fd_;
    std::string pending_;
    std::size_t received_ = 0;
    bool eof_ = false;
    bool shut_ = false;
    int error_ = 0;
};

class ServedSilence : public PolledConnection {
public:
    explicit ServedSilence(UniqueFd fd) : fd_(std::move(fd)) {}
    int fd() const override { return fd_.get(); }
    short poll_events() const override { return 0; }
    void step() override { closed_ = true; }  // poll reported POLLHUP or POLLERR
    bool finished() const override { return closed_; }
    std::size_t received() const override { return 0; }
    std::string outcome() const override { return "closed"; }

private:
    UniqueFd fd_;
    bool closed_ = false;
};

}  // namespace

void RandomBytes::fill(std::span<std::byte> out) {
    for (auto& byte : out) {
        if (bytes_left_in_word_ == 0) {
            word_ = engine_();
            bytes_left_in_word_ = 8;
        }
        byte = static_cast<std::byte>(word_ & 0xff);
        word_ >>= 8;
        --bytes_left_in_word_;
    }
}

StreamExchange::StreamExchange(UniqueFd fd, const StreamPlan& plan)
    : fd_(std::move(fd)), plan_(plan), to_send_(plan.send_seed), expected_(plan.expect_seed) {
    set_non_blocking(fd_.get());
}

short StreamExchange::poll_events() const {
    short events = 0;
    if (!eof_) events |= POLLIN;
    if (sent_ < plan_.send_size) events |= POLLOUT;
    return events;
}

void StreamExchange::step() {
    if (finished()) return;
    send_some();
    if (error_ == 0) receive_some();
}

void StreamExchange::send_some() {
    while (sent_ < plan_.send_size) {
        if (out_offset_ == out_.size()) {
            out_.resize(std::min(kChunk, plan_.send_size - sent_));
            to_send_.fill(out_);
            out_offset_ = 0;
        }
        const ssize_t count = ::send(fd_.get(), out_.data() + out_offset_, out_.size() - out_offset_, MSG_NOSIGNAL);
        if (count > 0) {
            out_offset_ += static_cast<std::size_t>(count);
            sent_ += static_cast<std::size_t>(count);
        } else if (would_block()) {
            return;
        } else if (errno != EINTR) {
            error_ = errno;
            return;
        }
    }
    if (!shut_) {
        ::shutdown(fd_.get(), SHUT_WR);
        shut_ = true;
    }
}

void StreamExchange::receive_some() {
    std::byte buffer[kChunk];
    std::byte expected[kChunk];
    while (!eof_ && !mismatch_at_) {
        const ssize_t count = ::recv(fd_.get(), buffer, sizeof buffer, 0);
        if (count == 0) {
            eof_ = true;
        } else if (count < 0) {
            if (would_block()) return;
            if (errno == EINTR) continue;
            error_ = errno;
            return;
        } else {
            const auto size = static_cast<std::size_t>(count);
            const std::size_t in_plan = std::min(size, plan_.expect_size - std::min(received_, plan_.expect_size));
            expected_.fill(std::span(expected, in_plan));
            const auto differs = std::mismatch(buffer, buffer + in_plan, expected).first;
            if (differs != buffer + in_plan || in_plan < size)
                mismatch_at_ = received_ + static_cast<std::size_t>(differs - buffer);
            received_ += size;
        }
    }
}

bool StreamExchange::finished() const { return error_ != 0 || mismatch_at_.has_value() || (eof_ && shut_); }

std::string StreamExchange::outcome() const {
    if (error_ != 0)
        return std::string("error: ") + std::strerror(error_) + " after " + std::to_string(sent_) + " bytes sent, " +
               std::to_string(received_) + " received";
    if (mismatch_at_) return "wrong byte at offset " + std::to_string(*mismatch_at_);
    if (sent_ != plan_.send_size || !shut_)
        return "sent " + std::to_string(sent_) + " of " + std::to_string(plan_.send_size);
    if (!eof_) return "no EOF after " + std::to_string(received_) + " bytes";
    if (received_ != plan_.expect_size)
        return "received " + std::to_string(received_) + " of " + std::to_string(plan_.expect_size) + " bytes";
    return "ok";
}

bool run_until_finished(const std::vector<PolledConnection*>& connections, std::chrono::milliseconds budget) {
    const auto deadline = std::chrono::steady_clock::now() + budget;
    std::vector<pollfd> polled;
    std::vector<PolledConnection*> active;
    while (std::chrono::steady_clock::now() < deadline) {
        polled.clear();
        active.clear();
        for (auto* connection : connections) {
            if (connection->finished()) continue;
            active.push_back(connection);
            polled.push_back(pollfd{connection->fd(), connection->poll_events(), 0});
        }
        if (active.empty()) return true;
        if (::poll(polled.data(), polled.size(), 20) < 0 && errno != EINTR) throw_errno("poll");
        for (std::size_t i = 0; i < active.size(); ++i) {
            if (polled[i].revents != 0) active[i]->step();
        }
    }
    return std::all_of(connections.begin(), connections.end(), [](auto* c) { return c->finished(); });
}

TestServer::TestServer(Serve serve, const std::string& address)
    : serve_(std::move(serve)), listener_(listen_on({address, 0})) {
    endpoint_ = local_endpoint(listener_.get());
    thread_ = std::thread([this] { run(); });
}

TestServer::~TestServer() {
    stop_ = true;
    thread_.join();
}

std::vector<std::string> TestServer::outcomes() const {
    std::lock_guard lock(mutex_);
    return outcomes_;
}

void TestServer::run() {
    std::vector<std::unique_ptr<PolledConnection>> connections;
    std::size_t finished_received = 0;
    std::vector<pollfd> polled;
    while (!stop_) {
        polled.assign(1, pollfd{listener_.get(), POLLIN, 0});
        for (const auto& connection : connections)
            polled.push_back(pollfd{connection->fd(), connection->poll_events(), 0});
        if (::poll(polled.data(), polled.size(), 20) < 0 && errno != EINTR) return;
        for (std::size_t i = 1; i < polled.size(); ++i) {
            if (polled[i].revents != 0) connections[i - 1]->step();
        }
        if (polled[0].revents & POLLIN) {
            for (int fd; (fd = ::accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0;)
                connections.push_back(serve_(UniqueFd(fd)));
        }
        std::size_t open_received = 0;
        std::erase_if(connections, [&](const std::unique_ptr<PolledConnection>& connection) {
            if (!connection->finished()) {
                open_received += connection->received();
                return false;
            }
            finished_received += connection->received();
            std::lock_guard lock(mutex_);
            outcomes_.push_back(connection->outcome());
            return true;
        });
        received_ = finished_received + open_received;
        open_ = connections.size();
    }
}

std::uint64_t server_seed(std::uint64_t client_seed) { return client_seed ^ kServerSeedSalt; }

std::unique_ptr<PolledConnection> serve_stream(UniqueFd fd) { return std::make_unique<ServedStream>(std::move(fd)); }
std::unique_ptr<PolledConnection> serve_echo(UniqueFd fd) { return std::make_unique<ServedEcho>(std::move(fd)); }
std::unique_ptr<PolledConnection> serve_silence(UniqueFd fd) { return std::make_unique<ServedSilence>(std::move(fd)); }

std::unique_ptr<StreamExchange> start_stream_client(const Endpoint& server, std::uint64_t seed, std::size_t size) {
    UniqueFd fd = connect_to(server);
    const std::uint64_t size64 = size;
    std::string header(kHeaderBytes, '\0');
    std::memcpy(header.data(), &seed, sizeof seed);
    std::memcpy(header.data() + sizeof seed, &size64, sizeof size64);
    send_all(fd.get(), header);
    return std::make_unique<StreamExchange>(std::move(fd), StreamPlan{seed, size, server_seed(seed), size});
}

}  // namespace lockcheck::netproxy::testing
