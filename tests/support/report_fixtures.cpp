#include "tests/support/report_fixtures.hpp"

#include <optional>
#include <string>

#include "tests/support/history_builder.hpp"

namespace lockcheck::testing {

namespace {

void fault(HistoryBuilder& b, double t, std::string_view f, bool invoke) {
    b.add(t, kNemesisProcess, invoke ? OpType::Invoke : OpType::Info, std::string(f), "");
    b.history().back().value = {{"fault", "pause-holder"}, {"id", 1}, {"targets", {"worker 0"}}};
}

/// Worker 1 is refused at 200 and 500 ms, then granted the lock (token 2) at 1201 ms.
void worker_1_waits_then_takes_over(HistoryBuilder& b) {
    b.acquire_invoke(200, 1);
    b.acquire_done(201, 1, OpType::Fail);
    b.acquire_invoke(500, 1);
    b.acquire_done(501, 1, OpType::Fail);
    b.acquire_invoke(1200, 1);
    b.acquire_done(1201, 1, OpType::Ok, 2);
}

/// A nemesis op of fault `id` of `kind`; `targets` null: none recorded (a start-fault invoke).
void nemesis_op(HistoryBuilder& b, double t, std::string_view f, OpType type, const char* kind, int id,
                const nlohmann::json& targets = nullptr, std::optional<std::string> error = {}) {
    b.add(t, kNemesisProcess, type, std::string(f), "");
    b.history().back().value = {{"fault", kind}, {"id", id}};
    if (!targets.is_null()) b.history().back().value["targets"] = targets;
    b.history().back().error = std::move(error);
}

/// Worker 2's quick acquire attempts in [from, to): refused, every 10th failed outright.
void quick_attempts(HistoryBuilder& b, double from, double to) {
    int n = 0;
    for (double t = from; t < to; t += 4) {
        b.acquire_invoke(t, 2);
        b.acquire_done(t + 1, 2, OpType::Fail);
        if (++n % 10 == 0) b.history().back().error = "unavailable";
    }
}

}  // namespace

History paused_holder_history() {
    HistoryBuilder b;
    b.acquire_invoke(0, 0);
    b.acquire_done(1, 0, OpType::Ok, 1);
    fault(b, 100, fn::kStartFault, true);
    fault(b, 101, fn::kStartFault, false);
    worker_1_waits_then_takes_over(b);
    b.release_invoke(1400, 1);
    b.release_done(1401, 1, OpType::Ok);
    fault(b, 2600, fn::kStopFault, true);
    fault(b, 2601, fn::kStopFault, false);
    b.release_invoke(2700, 0);
    b.release_done(2701, 0, OpType::Fail);
    b.history().back().error = "not-owner";
    return b.history();
}

History showcase_history() {
    HistoryBuilder b;
    b.acquire_invoke(0, 0);
    b.acquire_done(1, 0, OpType::Ok, 1);
    b.read(2, 3, 0, 0, 1);
    b.add(90, 0, OpType::Invoke, std::string(fn::kWrite));  // completes at 2610 ms, after the pause
    b.history().back().token = 1;
    b.history().back().value = 1;
    fault(b, 100, fn::kStartFault, true);
    fault(b, 101, fn::kStartFault, false);
    worker_1_waits_then_takes_over(b);
    b.read(1210, 1211, 1, 0, 2);
    b.write(1220, 1221, 1, 1, 2);
    b.release_invoke(1400, 1);
    b.release_done(1401, 1, OpType::Ok);
    fault(b, 2600, fn::kStopFault, true);
    fault(b, 2601, fn::kStopFault, false);
    b.add(2610, 0, OpType::Ok, std::string(fn::kWrite));
    b.history().back().value = 1;
    b.release_invoke(2700, 0);
    b.release_done(2701, 0, OpType::Fail);
    b.history().back().error = "not-owner";
    nemesis_op(b, 3000, fn::kStartFault, OpType::Invoke, "failover", 2);
    quick_attempts(b, 3001, 5000);
    nemesis_op(b, 5000, fn::kStartFault, OpType::Info, "failover", 2, {"n1"});
    quick_attempts(b, 5001, 6000);
    nemesis_op(b, 6000, fn::kStopFault, OpType::Invoke, "failover", 2, {"n1"});
    nemesis_op(b, 6001, fn::kStopFault, OpType::Info, "failover", 2, {"n1"});
    nemesis_op(b, 6100, fn::kStartFault, OpType::Invoke, "failover", 3);
    quick_attempts(b, 6101, 6200);
    nemesis_op(b, 6200, fn::kStartFault, OpType::Info, "failover", 3, nullptr, "no target");
    quick_attempts(b, 6201, 7000);
    b.session(2, 7000, 7001, 7500, 7501);
    quick_attempts(b, 7502, 8000);
    return b.history();
}

nlohmann::json showcase_schedule() {
    return nlohmann::json::array({{{"id", 1}, {"kind", "pause-holder"}, {"at_ms", 100}, {"duration_ms", 2500}},
                                  {{"id", 2}, {"kind", "failover"}, {"at_ms", 3000}, {"duration_ms", 1000}},
                                  {{"id", 3}, {"kind", "failover"}, {"at_ms", 6100}, {"duration_ms", 1000}},
                                  {{"id", 4}, {"kind", "failover"}, {"at_ms", 7200}, {"duration_ms", 500}}});
}

History many_faults_history(int faults) {
    HistoryBuilder b;
    b.acquire_invoke(0, 0);
    b.acquire_done(1, 0, OpType::Ok, 1);
    bool second_acquired = false;
    const auto second_acquires = [&] {
        b.acquire_invoke(2010, 1);
        b.acquire_done(2011, 1, OpType::Ok, 2);
        second_acquired = true;
    };
    for (int i = 0; i < faults; ++i) {
        const double t = 1000 + 150.0 * i;
        if (!second_acquired && t > 2010) second_acquires();
        const nlohmann::json node = {"n" + std::to_string(i % 5 + 1)};
        nemesis_op(b, t, fn::kStartFault, OpType::Invoke, "kill-restart", i + 1);
        nemesis_op(b, t + 1, fn::kStartFault, OpType::Info, "kill-restart", i + 1, node);
        nemesis_op(b, t + 100, fn::kStopFault, OpType::Invoke, "kill-restart", i + 1, node);
        nemesis_op(b, t + 101, fn::kStopFault, OpType::Info, "kill-restart", i + 1, node);
    }
    if (!second_acquired) second_acquires();
    b.release_invoke(8100, 1);
    b.release_done(8101, 1, OpType::Ok);
    b.release_invoke(9000, 0);
    b.release_done(9001, 0, OpType::Fail);
    b.history().back().error = "not-owner";
    return b.history();
}

History crowded_history(int workers) {
    HistoryBuilder b;
    for (int i = 0; i < workers; ++i) b.session(i, i * 10.0, i * 10.0 + 1, i * 10.0 + 8, i * 10.0 + 9);
    const std::size_t spare_from = b.history().size();
    const double spare_start = workers * 10.0;
    for (int i = 0; i < workers; ++i) {
        const double t = spare_start + i * 10.0;
        b.session(i, t, t + 1, t + 8, t + 9);
    }
    for (std::size_t i = spare_from; i < b.history().size(); ++i) b.history()[i].key = "spare";
    const double t = 2 * spare_start;
    b.acquire_invoke(t, 3);
    b.acquire_done(t + 1, 3, OpType::Ok);
    b.acquire_invoke(t + 2, 4);
    b.acquire_done(t + 3, 4, OpType::Ok);
    b.release_invoke(t + 4, 4);
    b.release_done(t + 5, 4, OpType::Ok);
    b.release_invoke(t + 6, 3);
    b.release_done(t + 7, 3, OpType::Ok);
    return b.history();
}

History long_valid_history(int sessions) {
    HistoryBuilder b;
    for (int i = 0; i < sessions; ++i) {
        const double t = i * 10.0;
        const int holder = i % 3, other = (i + 1) % 3;
        b.acquire_invoke(t, other);
        b.acquire_done(t + 0.5, other, OpType::Fail);
        b.session(holder, t + 1, t + 2, t + 8, t + 9);
    }
    return b.history();
}

}  // namespace lockcheck::testing
