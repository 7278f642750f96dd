#include "tests/support/random_lock_history.hpp"

#include <map>
#include <string>
#include <vector>

namespace lockcheck::testing {
namespace {

struct InFlight {
    int process = 0;
    std::size_t invoke = 0;  ///< position of the invoke in the history
    bool acquire = false;
    std::string key, owner;
    bool effected = false, completed = false, will_apply = true;
    OpType outcome = OpType::Ok;
    std::optional<std::string> error;
};

class Simulation {
public:
    Simulation(std::mt19937_64& rng, const RandomHistoryOptions& o) : rng_(rng), o_(o) {}

    History run() {
        int invoked = 0;
        while (invoked < o_.lock_ops || !flights_.empty()) {
            std::vector<int> idle;
            for (int p = 0; p < o_.processes; ++p)
                if (!busy_[p]) idle.push_back(p);
            if (invoked < o_.lock_ops && !idle.empty() && (flights_.empty() || chance(0.45))) {
                invoke(idle[pick(idle.size())]);
                ++invoked;
            } else if (!flights_.empty()) {
                advance(pick(flights_.size()));
            } else {
                break;
            }
            if (ends_after_acquire()) break;
            if (o_.noise && chance(0.04)) noise();
            if (invoked >= o_.lock_ops && chance(0.1)) break;  // the run ends with ops still open
        }
        for (int m = 0; m < o_.mutations; ++m) mutate();
        return std::move(h_);
    }

private:
    std::mt19937_64& rng_;
    const RandomHistoryOptions& o_;
    History h_;
    std::vector<InFlight> flights_;
    std::map<int, bool> busy_;
    std::map<int, std::string> owner_;           // process -> current owner
    std::map<int, bool> believes_;               // process -> thinks it holds
    std::map<std::string, std::string> holder_;  // key -> owner ("" free)
    int owners_ = 0;

    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

    bool ends_after_acquire() {
        return o_.end_after_acquire > 0 && !h_.empty() && h_.back().f == "acquire" && !h_.back().is_invoke() &&
               chance(o_.end_after_acquire);
    }
    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

    Op& add(int process, OpType type, const std::string& f, const std::string& key) {
        Op op;
        op.index = static_cast<std::int64_t>(h_.size());
        op.time = op.index * 1'000'000;
        op.process = process;
        op.type = type;
        op.f = f;
        op.key = key;
        h_.push_back(std::move(op));
        return h_.back();
    }

    void invoke(int p) {
        InFlight f;
        f.process = p;
        f.key = "k" + std::to_string(pick(static_cast<std::size_t>(o_.keys)));
        f.acquire = !believes_[p] || chance(0.2);
        if (f.acquire && (owner_[p].empty() || !chance(o_.reuse_owner))) owner_[p] = "o" + std::to_string(++owners_);
        if (owner_[p].empty()) owner_[p] = "o" + std::to_string(++owners_);
        f.owner = owner_[p];
        f.invoke = h_.size();
        Op& op = add(p, OpType::Invoke, f.acquire ? "acquire" : "release", f.key);
        op.owner = f.owner;
        if (f.acquire) op.ttl_ms = 1000;
        busy_[p] = true;
        flights_.push_back(std::move(f));
    }

    void effect(InFlight& f) {
        f.effected = true;
        if (!f.will_apply) return;
        std::string& holder = holder_[f.key];
        if (f.acquire && chance(o_.no_effect_fail)) {
            f.outcome = OpType::Fail;
            f.error = "connection-refused";
        } else if (f.acquire && holder.empty()) {
            holder = f.owner;
        } else if (f.acquire) {
            f.outcome = OpType::Fail;
            f.error = "held";
        } else if (holder == f.owner) {
            holder.clear();
        } else {
            f.outcome = OpType::Fail;
            f.error = "not-owner";
        }
    }

    void complete(InFlight& f) {
        f.completed = true;
        busy_[f.process] = false;
        const bool info = chance(o_.info);
        if (info && !f.effected) f.will_apply = chance(0.5);  // its effect may land later, or never
        if (!f.effected && !info) effect(f);
        Op& op = add(f.process, info ? OpType::Info : f.outcome, f.acquire ? "acquire" : "release", f.key);
        op.owner = f.owner;
        if (info)
            op.error = "timeout";
        else if (f.error)
            op.error = f.error;
        if (f.acquire && !info && f.outcome == OpType::Ok) op.token = static_cast<std::int64_t>(f.invoke);
        if (f.acquire)
            believes_[f.process] = !info && f.outcome == OpType::Ok;
        else if (!info)
            believes_[f.process] = false;
        if (info) owner_[f.process].clear();  // never reuse an owner after info (unless told to)
    }

    void advance(std::size_t i) {
        InFlight& f = flights_[i];
        if (!f.effected && !f.completed && chance(0.5))
            effect(f);
        else if (!f.completed)
            complete(f);
        else if (!f.effected)
            effect(f);  // a late effect of an info op
        if (f.completed && (f.effected || chance(0.3)))
            flights_.erase(flights_.begin() + static_cast<std::ptrdiff_t>(i));
    }

    void noise() {
        if (chance(0.5)) {
            Op& read = add(100, OpType::Invoke, "read", "k0");
            read.token = 1;
            add(100, OpType::Ok, "read", "k0").value = 3;
            return;
        }
        Op& start = add(kNemesisProcess, OpType::Invoke, chance(0.5) ? "start-fault" : "stop-fault", "");
        start.value = {{"fault", "pause"}, {"id", 1}};
        Op& end = add(kNemesisProcess, OpType::Info, start.f, "");
        end.value = {{"fault", "pause"}, {"id", 1}};
    }

    void mutate() {
        std::vector<std::size_t> completions;
        for (std::size_t p = 0; p < h_.size(); ++p)
            if (!h_[p].is_invoke() && !h_[p].is_nemesis()) completions.push_back(p);
        if (completions.empty()) return;
        Op& op = h_[completions[pick(completions.size())]];
        switch (pick(4)) {
            case 0:
                op.type = OpType::Ok;
                op.error.reset();
                break;
            case 1:
                op.type = OpType::Fail;
                op.error = "held";
                break;
            case 2:
                op.type = OpType::Info;
                op.error = "timeout";
                break;
            default:
                op.type = OpType::Fail;
                op.error = "not-owner";
                break;
        }
    }
};

}  // namespace

History random_lock_history(std::mt19937_64& rng, const RandomHistoryOptions& options) {
    return Simulation(rng, options).run();
}

}  // namespace lockcheck::testing
