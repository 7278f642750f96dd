#include "bench/history_generator.hpp"

#include <queue>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace lockcheck::bench {
namespace {

constexpr std::int64_t kUs = 1'000;
constexpr std::int64_t kNemesisEvery = 20'000;

enum class Phase { Acquire, Read, Write, Release };

struct Client {
    Phase phase = Phase::Acquire;
    int key = 0;
    std::string owner;
    std::int64_t token = 0, read_value = 0;
    int owners = 0;
    bool info = false;  ///< the op in flight completes as info
    OpType outcome = OpType::Ok;
    std::optional<std::string> error;
};

enum class Step { Invoke, Effect, Complete };

struct Event {
    std::int64_t time;
    std::uint64_t seq;
    int client;
    Step step;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

class Generator {
public:
    explicit Generator(const GeneratorOptions& o)
        : o_(o),
          rng_(o.seed),
          clients_(static_cast<std::size_t>(o.clients)),
          holder_(static_cast<std::size_t>(o.keys), -1),
          tokens_(static_cast<std::size_t>(o.keys), 0),
          registers_(static_cast<std::size_t>(o.keys), 0) {
        h_.reserve(o.ops + 4 * static_cast<std::size_t>(o.clients) + 16);
    }

    History run() {
        for (int c = 0; c < o_.clients; ++c) queue_.push({uniform(0, 100 * kUs), seq_++, c, Step::Invoke});
        while (!queue_.empty()) {
            const Event e = queue_.top();
            queue_.pop();
            now_ = e.time;
            switch (e.step) {
                case Step::Invoke: invoke(e.client); break;
                case Step::Effect: effect(e.client); break;
                case Step::Complete: complete(e.client); break;
            }
        }
        return std::move(h_);
    }

private:
    GeneratorOptions o_;
    std::mt19937_64 rng_;
    std::vector<Client> clients_;
    std::vector<int> holder_;  ///< per key: client holding it, -1 free
    std::vector<std::int64_t> tokens_, registers_;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> queue_;
    History h_;
    std::uint64_t seq_ = 0;
    std::int64_t now_ = 0;
    bool planted_ = false;
    int nemesis_ids_ = 0;

    std::int64_t uniform(std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_);
    }
    bool chance(double p) { return p > 0 && std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
    std::size_t k(const Client& c) const { return static_cast<std::size_t>(c.key); }

    Op& record(int process, OpType type, const char* f, std::int64_t time, const std::string& key) {
        if (h_.size() % kNemesisEvery == kNemesisEvery - 2) nemesis(time);
        Op& op = h_.emplace_back();
        op.index = static_cast<std::int64_t>(h_.size() - 1);
        op.time = time;
        op.process = process;
        op.type = type;
        op.f = f;
        op.key = key;
        return op;
    }

    void nemesis(std::int64_t time) {
        const bool start = nemesis_ids_ % 2 == 0;
        const char* f = start ? "start-fault" : "stop-fault";
        const int id = nemesis_ids_++ / 2;
        for (OpType type : {OpType::Invoke, OpType::Info}) {
            Op& op = h_.emplace_back();
            op.index = static_cast<std::int64_t>(h_.size() - 1);
            op.time = time;
            op.process = kNemesisProcess;
            op.type = type;
            op.f = f;
            // A fault that struck (a target named), as a real pause-holder records it: a run whose
            // faults all missed would be unknown (checkers/exercise.hpp).
            op.value = {{"fault", "pause-holder"}, {"id", id}, {"targets", {"worker 0"}}};
        }
    }

    static const char* f_of(Phase p) {
        switch (p) {
            case Phase::Acquire: return "acquire";
            case Phase::Read: return "read";
            case Phase::Write: return "write";
            case Phase::Release: return "release";
        }
        return "?";
    }

    void invoke(int ci) {
        Client& c = clients_[static_cast<std::size_t>(ci)];
        if (h_.size() >= o_.ops && c.phase == Phase::Acquire) return;  // enough: let the others finish
        if (c.phase == Phase::Acquire) {
            c.key = static_cast<int>(uniform(0, o_.keys - 1));
            c.owner = "c" + std::to_string(ci) + "-" + std::to_string(++c.owners);
        }
        Op& op = record(ci, OpType::Invoke, f_of(c.phase), now_, "lock-" + std::to_string(c.key));
        if (c.phase == Phase::Acquire || c.phase == Phase::Release) op.owner = c.owner;
        if (c.phase == Phase::Acquire) op.ttl_ms = 30'000;
        if (c.phase == Phase::Read || c.phase == Phase::Write) op.token = c.token;
        if (c.phase == Phase::Write) op.value = c.read_value + 1;
        c.info = (c.phase == Phase::Acquire || c.phase == Phase::Release) && chance(o_.info);
        c.outcome = OpType::Ok;
        c.error.reset();
        queue_.push({now_ + uniform(50 * kUs, 500 * kUs), seq_++, ci, Step::Effect});
    }

    void effect(int ci) {
        Client& c = clients_[static_cast<std::size_t>(ci)];
        int& holder = holder_[k(c)];
        switch (c.phase) {
            case Phase::Acquire: {
                if (c.info) break;  // the request never reached the service
                const bool plant = o_.plant_violation && !planted_ && h_.size() >= o_.ops / 2 && holder >= 0 &&
                                   (clients_[static_cast<std::size_t>(holder)].phase == Phase::Read ||
                                    clients_[static_cast<std::size_t>(holder)].phase == Phase::Write);
                if (holder < 0 || plant) {
                    planted_ = planted_ || plant;
                    holder = ci;
                    c.token = ++tokens_[k(c)];
                } else {
                    c.outcome = OpType::Fail;
                    c.error = "held";
                }
                // A planted grant answers at once, so both holders overlap.
                queue_.push({plant ? now_ + 1 : now_ + uniform(50 * kUs, 500 * kUs), seq_++, ci, Step::Complete});
                return;
            }
            case Phase::Read: c.read_value = registers_[k(c)]; break;
            case Phase::Write: registers_[k(c)] = c.read_value + 1; break;
            case Phase::Release:
                if (holder == ci) {
                    holder = -1;
                } else {
                    c.outcome = OpType::Fail;
                    c.error = "not-owner";
                }
                break;
        }
        queue_.push({now_ + uniform(50 * kUs, 500 * kUs), seq_++, ci, Step::Complete});
    }

    void complete(int ci) {
        Client& c = clients_[static_cast<std::size_t>(ci)];
        Op& op = record(ci, c.info ? OpType::Info : c.outcome, f_of(c.phase), now_, "lock-" + std::to_string(c.key));
        if (c.info)
            op.error = "timeout";
        else if (c.error)
            op.error = c.error;
        if (c.phase == Phase::Acquire && op.type == OpType::Ok) op.token = c.token;
        if (c.phase == Phase::Read) op.value = c.read_value;
        if (c.phase == Phase::Write) op.value = c.read_value + 1;
        std::int64_t pause = uniform(20 * kUs, 200 * kUs);
        switch (c.phase) {
            case Phase::Acquire:
                if (op.type == OpType::Ok)
                    c.phase = Phase::Read;
                else
                    pause = uniform(100 * kUs, 1000 * kUs);  // back off, retry with a fresh owner
                break;
            case Phase::Read: c.phase = Phase::Write; break;
            case Phase::Write: c.phase = Phase::Release; break;
            case Phase::Release: c.phase = Phase::Acquire; break;
        }
        queue_.push({now_ + pause, seq_++, ci, Step::Invoke});
    }
};

}  // namespace

History generate_history(const GeneratorOptions& options) { return Generator(options).run(); }

namespace {

/// Appends one op of key "lock" to `h` (owner "wPROCESS-1"), at `time_us`.
Op& record_lock_op(History& h, std::int64_t time_us, int process, OpType type, std::string_view f) {
    Op op;
    op.index = static_cast<std::int64_t>(h.size());
    op.time = time_us * kUs;
    op.process = process;
    op.type = type;
    op.f = std::string(f);
    op.key = "lock";
    op.owner = "w" + std::to_string(process) + "-1";
    h.push_back(std::move(op));
    return h.back();
}

}  // namespace

History generate_overlapping_holders(int holders) {
    History h;
    for (int p = 0; p < holders; ++p) {
        record_lock_op(h, 100 * p, p, OpType::Invoke, fn::kAcquire).ttl_ms = 1000;
        record_lock_op(h, 100 * p + 50, p, OpType::Ok, fn::kAcquire).token = p + 1;
    }
    const std::int64_t released = 100 * std::int64_t{holders} + 1000;
    for (int p = 0; p < holders; ++p) {
        record_lock_op(h, released + 100 * p, p, OpType::Invoke, fn::kRelease);
        record_lock_op(h, released + 100 * p + 50, p, OpType::Ok, fn::kRelease);
    }
    return h;
}

History generate_open_locks(int open, int closed) {
    History h;
    for (int p = 0; p < open + closed; ++p) {
        const std::int64_t at = 200 * std::int64_t{p};
        record_lock_op(h, at, p, OpType::Invoke, fn::kAcquire).ttl_ms = 1000;
        record_lock_op(h, at + 50, p, OpType::Ok, fn::kAcquire).token = p + 1;
        if (p < open) continue;
        record_lock_op(h, at + 100, p, OpType::Invoke, fn::kRelease);
        record_lock_op(h, at + 150, p, OpType::Ok, fn::kRelease);
    }
    return h;
}

}  // namespace lockcheck::bench
