#include "tests/report_fixtures.hpp"

#include "tests/history_builder.hpp"

namespace lockcheck::testing {

namespace {

void fault(HistoryBuilder& b, double t, std::string_view f, bool invoke) {
    b.add(t, kNemesisProcess, invoke ? OpType::Invoke : OpType::Info, std::string(f), "");
    b.history().back().value = {{"fault", "pause-holder"}, {"id", 1}, {"targets", {"worker 0"}}};
}

}  // namespace

History paused_holder_history() {
    HistoryBuilder b;
    b.acquire_invoke(0, 0);
    b.acquire_done(1, 0, OpType::Ok, 1);
    fault(b, 100, fn::kStartFault, true);
    fault(b, 101, fn::kStartFault, false);
    b.acquire_invoke(200, 1);
    b.acquire_done(201, 1, OpType::Fail);
    b.acquire_invoke(500, 1);
    b.acquire_done(501, 1, OpType::Fail);
    b.acquire_invoke(1200, 1);
    b.acquire_done(1201, 1, OpType::Ok, 2);
    b.release_invoke(1400, 1);
    b.release_done(1401, 1, OpType::Ok);
    fault(b, 2600, fn::kStopFault, true);
    fault(b, 2601, fn::kStopFault, false);
    b.release_invoke(2700, 0);
    b.release_done(2701, 0, OpType::Fail);
    b.history().back().error = "not-owner";
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
