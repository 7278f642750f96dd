#include "nemesis/nemesis.hpp"

#include <algorithm>

#include "core/interruptible_sleep.hpp"
#include "nemesis/fresh_grant.hpp"

namespace lockcheck {
Nemesis::Nemesis(std::vector<FaultEvent> schedule, std::map<std::string, std::unique_ptr<Fault>> faults,
                 Recorder record, std::chrono::steady_clock::time_point run_start, const WorkerControl* workers)
    : schedule_(std::move(schedule)),
      faults_(std::move(faults)),
      record_(std::move(record)),
      run_start_(run_start),
      workers_(workers) {}

void Nemesis::record(OpType type, std::string_view f, const FaultEvent& event, const std::vector<std::string>* targets,
                     std::optional<std::string> error, std::optional<std::int64_t> reply_delay_ms,
                     std::optional<std::int64_t> struck_ns, const std::vector<NodeRestart>& restarts) {
    Op op;
    op.process = kNemesisProcess;
    op.type = type;
    op.f = std::string(f);
    op.value = {{"fault", event.kind}, {"id", event.id}};
    if (targets) op.value["targets"] = *targets;
    if (reply_delay_ms) op.value["reply_delay_ms"] = *reply_delay_ms;
    if (struck_ns) op.value["struck_ns"] = *struck_ns;
    for (const auto& r : restarts) {
        if (r.ready_ms) op.value["restart_ms"][r.node] = *r.ready_ms;
        else op.value["not_restarted"].push_back(r.failure);
    }
    op.error = std::move(error);
    record_(std::move(op));
}

std::optional<std::int64_t> Nemesis::struck_ns(const Fault& fault) const {
    const auto struck = fault.struck_at();
    if (!struck) return std::nullopt;
    return std::chrono::duration_cast<std::chrono::nanoseconds>(*struck - run_start_).count();
}

void Nemesis::run(const std::stop_token& stop) {
    // How far the schedule runs late: a start or heal that took longer than
    // planned (a power loss restarting a ZooKeeper node) moves every later
    // fault by its overrun, so each keeps its quiet gap before it.
    std::chrono::steady_clock::duration lag{0};
    const auto catch_up = [&](std::chrono::steady_clock::time_point planned_end) {
        lag += std::max(std::chrono::steady_clock::duration{0}, std::chrono::steady_clock::now() - planned_end);
    };
    for (const auto& event : schedule_) {
        const auto planned_start = run_start_ + std::chrono::milliseconds(event.at_ms) + lag;
        if (!interruptible_sleep_until(stop, planned_start)) break;
        auto it = faults_.find(fault_instance_key(event));
        if (it == faults_.end()) continue;
        Fault& fault = *it->second;
        const auto planned_end = planned_start + std::chrono::milliseconds(fault.duration_ms(event));
        record(OpType::Invoke, fn::kStartFault, event, nullptr);
        std::optional<int> fresh_holder;
        if (event.after_grant_ms) {
            if (workers_) fresh_holder = await_fresh_grant(*workers_, event.pick, *event.after_grant_ms, stop);
            if (!fresh_holder) {
                record(OpType::Info, fn::kStartFault, event, nullptr, "no fresh grant");
                catch_up(planned_end);
                continue;
            }
        }
        std::optional<std::vector<std::string>> targets;
        try {
            targets = fault.start(event, stop);
            if (targets && fresh_holder)
                targets->push_back(std::to_string(*event.after_grant_ms) + " ms after the grant to worker " +
                                   std::to_string(*fresh_holder));
        } catch (const std::exception& e) {  // e.g. iptables failed: undo what was done, record why, go on
            fault.heal();
            record(OpType::Info, fn::kStartFault, event, nullptr, std::string("fault failed: ") + e.what());
            catch_up(planned_end);
            continue;
        }
        if (!targets) {
            record(OpType::Info, fn::kStartFault, event, nullptr, "no target");
            catch_up(planned_end);
            continue;
        }
        {
            std::lock_guard lock(mutex_);
            active_ = &fault;
            active_event_ = event;
            active_targets_ = *targets;
            current_ = event.kind;
            for (const auto& t : *targets) current_ += " " + t;
        }
        ++started_;
        record(OpType::Info, fn::kStartFault, event, &*targets, std::nullopt, fault.reply_delay_ms(),
               struck_ns(fault));
        interruptible_sleep_for(stop, std::chrono::milliseconds(fault.duration_ms(event)));
        heal();
        catch_up(planned_end);
    }
    heal();
}

void Nemesis::heal() noexcept {
    // One healer at a time; the state lock is not held while healing, so the
    // progress line (current()) never waits on a slow heal such as a failover.
    std::lock_guard healing(heal_mutex_);
    Fault* fault = nullptr;
    FaultEvent event;
    std::vector<std::string> targets;
    {
        std::lock_guard lock(mutex_);
        if (!active_) return;
        fault = active_;
        event = active_event_;
        targets = active_targets_;
        current_ += " (healing)";
    }
    try {
        record(OpType::Invoke, fn::kStopFault, event, &targets);
        fault->heal();
        record(OpType::Info, fn::kStopFault, event, &targets, std::nullopt, std::nullopt, std::nullopt, fault->restarts());
    } catch (...) {
        fault->heal();
    }
    std::lock_guard lock(mutex_);
    active_ = nullptr;
    current_.clear();
}

std::string Nemesis::current() const {
    std::lock_guard lock(mutex_);
    return current_;
}

}  // namespace lockcheck
