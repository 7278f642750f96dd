#include "tests/support/history_builder.hpp"

#include <map>

namespace lockcheck::testing {

std::int64_t HistoryBuilder::add(double time_ms, int process, OpType type, std::string f, std::string key) {
    Op op;
    op.index = static_cast<std::int64_t>(history_.size());
    op.time = static_cast<std::int64_t>(time_ms * 1e6);
    op.process = process;
    op.type = type;
    op.f = std::move(f);
    op.key = std::move(key);
    history_.push_back(std::move(op));
    return history_.back().index;
}

std::string HistoryBuilder::owner_of(int process) const {
    // The owner of the process's latest acquire.
    for (auto it = history_.rbegin(); it != history_.rend(); ++it)
        if (it->process == process && it->f == "acquire" && it->owner) return std::string(*it->owner);
    return "p" + std::to_string(process) + "-none";
}

std::int64_t HistoryBuilder::acquire_invoke(double t, int process, std::int64_t ttl_ms) {
    auto i = add(t, process, OpType::Invoke, "acquire");
    history_.back().ttl_ms = ttl_ms;
    history_.back().owner = "p" + std::to_string(process) + "-" + std::to_string(++acquires_);
    return i;
}

std::int64_t HistoryBuilder::acquire_done(double t, int process, OpType type, std::optional<std::int64_t> token) {
    auto owner = owner_of(process);
    auto i = add(t, process, type, "acquire");
    history_.back().owner = owner;
    history_.back().token = token;
    if (type == OpType::Fail) history_.back().error = "held";
    return i;
}

std::int64_t HistoryBuilder::release_invoke(double t, int process) {
    auto owner = owner_of(process);
    auto i = add(t, process, OpType::Invoke, "release");
    history_.back().owner = owner;
    return i;
}

std::int64_t HistoryBuilder::release_done(double t, int process, OpType type) {
    auto owner = owner_of(process);
    auto i = add(t, process, type, "release");
    history_.back().owner = owner;
    return i;
}

std::int64_t HistoryBuilder::read(double t_invoke, double t_done, int process, std::int64_t value,
                                  std::optional<std::int64_t> token, OpType type) {
    add(t_invoke, process, OpType::Invoke, "read");
    history_.back().token = token;
    auto i = add(t_done, process, type, "read");
    if (type == OpType::Ok) history_.back().value = value;
    if (type == OpType::Fail) history_.back().error = "fenced";
    return i;
}

std::int64_t HistoryBuilder::write(double t_invoke, double t_done, int process, std::int64_t value,
                                   std::optional<std::int64_t> token, OpType type) {
    add(t_invoke, process, OpType::Invoke, "write");
    history_.back().token = token;
    history_.back().value = value;
    auto i = add(t_done, process, type, "write");
    history_.back().value = value;
    if (type == OpType::Fail) history_.back().error = "fenced";
    return i;
}

void HistoryBuilder::session(int process, double t0, double t1, double t2, double t3, std::int64_t ttl_ms) {
    acquire_invoke(t0, process, ttl_ms);
    acquire_done(t1, process, OpType::Ok);
    release_invoke(t2, process);
    release_done(t3, process, OpType::Ok);
}

void HistoryBuilder::kill_holder(double t, int process) {
    add(t, kNemesisProcess, OpType::Invoke, std::string(fn::kStartFault), "");
    add(t, kNemesisProcess, OpType::Info, std::string(fn::kStartFault), "");
    history_.back().value = {{"fault", "kill-holder"}, {"id", 1}, {"targets", {"worker " + std::to_string(process)}}};
}

void HistoryBuilder::release(double t0, double t1, int process, OpType type) {
    release_invoke(t0, process);
    release_done(t1, process, type);
}

void HistoryBuilder::renew(double t0, double t1, int process, OpType type, std::int64_t ttl_ms) {
    renew_invoke(t0, process, ttl_ms);
    if (type != OpType::Invoke) renew_done(t1, process, type);
}

void HistoryBuilder::renew_invoke(double t, int process, std::int64_t ttl_ms) {
    add(t, process, OpType::Invoke, std::string(fn::kRenew));
    history_.back().owner = owner_of(process);
    history_.back().ttl_ms = ttl_ms;
}

void HistoryBuilder::renew_done(double t, int process, OpType type) {
    add(t, process, type, std::string(fn::kRenew));
    history_.back().owner = owner_of(process);
    if (type == OpType::Fail) history_.back().error = "not-owner";
}

void HistoryBuilder::pause(double t, int process, int id, const std::string& fault) {
    add(t, kNemesisProcess, OpType::Invoke, std::string(fn::kStartFault), "");
    history_.back().value = {{"fault", fault}, {"id", id}};
    add(t, kNemesisProcess, OpType::Info, std::string(fn::kStartFault), "");
    history_.back().value = {{"fault", fault}, {"id", id}, {"targets", {"worker " + std::to_string(process)}}};
}

void HistoryBuilder::slow_reply(double t, int process, std::int64_t delay_ms, int id) {
    add(t, kNemesisProcess, OpType::Invoke, std::string(fn::kStartFault), "");
    history_.back().value = {{"fault", "slow-reply"}, {"id", id}};
    add(t, kNemesisProcess, OpType::Info, std::string(fn::kStartFault), "");
    history_.back().value = {{"fault", "slow-reply"},
                             {"id", id},
                             {"targets", {"worker " + std::to_string(process)}},
                             {"reply_delay_ms", delay_ms}};
}

void HistoryBuilder::stop_fault(double t, int id) {
    for (const OpType type : {OpType::Invoke, OpType::Info}) {
        add(t, kNemesisProcess, type, std::string(fn::kStopFault), "");
        history_.back().value = {{"fault", "slow-reply"}, {"id", id}};
    }
}

}  // namespace lockcheck::testing
