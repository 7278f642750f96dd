// renew-after-loss against a brute-force reference that enumerates when each
// grant and the renew took effect. On small random histories (integer ms,
// leases of tens of ms): worker 1 acquires, sends one renew answered ok and
// later releases (sometimes before worker 2's grant was answered); worker 2
// acquires in between and releases. A world is an
// instant for worker 1's grant, for the renew's effect, for worker 2's grant,
// and an end of each lease within its 1 ms granularity. The server kept its
// promise in a world when worker 2's grant came at or after the end of worker
// 1's hold at that instant: its lease's end (the renewed lease when the renew
// took effect before the grant: an ok renew always took effect), or its
// release, whichever came first. The reference flags the
// renew when some world has a server that kept its promise, and in every such
// world the renew took effect after worker 2's grant: a revival.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <vector>

#include "checkers/renew_after_loss.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

struct Shape {
    int ttl = 0;
    int a_invoke = 0, a_ok = 0;  // worker 1's acquire
    int r_invoke = 0, r_ok = 0;  // its renew
    int b_invoke = 0, b_ok = 0;  // worker 2's acquire
    int release = 0;             // worker 1's release invoke (after its renew's ok)
};

bool reference_flags(const Shape& s) {
    bool correct_before = false, correct_after = false;
    for (int g1 = s.a_invoke; g1 <= s.a_ok; ++g1)
        for (const int end1 : {g1 + s.ttl - 1, g1 + s.ttl + 1})
            for (int e = s.r_invoke; e <= s.r_ok; ++e)
                for (const int renewed_end : {e + s.ttl - 1, e + s.ttl + 1})
                    for (int g2 = s.b_invoke; g2 <= s.b_ok; ++g2) {
                        if (e < g2 && g2 >= std::min(renewed_end, s.release)) correct_before = true;
                        if (e > g2 && g2 >= end1) correct_after = true;
                    }
    return !correct_before && correct_after;
}

History build(const Shape& s) {
    struct Event {
        int time;
        int order;
        std::function<void(HistoryBuilder&)> add;
    };
    std::vector<Event> events;
    const auto at = [&](int time, std::function<void(HistoryBuilder&)> add) {
        events.push_back({time, static_cast<int>(events.size()), std::move(add)});
    };
    at(s.a_invoke, [=](HistoryBuilder& b) { b.acquire_invoke(s.a_invoke, 1, s.ttl); });
    at(s.a_ok, [=](HistoryBuilder& b) { b.acquire_done(s.a_ok, 1, OpType::Ok); });
    at(s.r_invoke, [=](HistoryBuilder& b) { b.renew_invoke(s.r_invoke, 1, s.ttl); });
    at(s.r_ok, [=](HistoryBuilder& b) { b.renew_done(s.r_ok, 1, OpType::Ok); });
    at(s.b_invoke, [=](HistoryBuilder& b) { b.acquire_invoke(s.b_invoke, 2, s.ttl); });
    at(s.b_ok, [=](HistoryBuilder& b) { b.acquire_done(s.b_ok, 2, OpType::Ok); });
    at(s.b_ok + 2, [=](HistoryBuilder& b) { b.release(s.b_ok + 2, s.b_ok + 3, 2); });
    at(s.release, [=](HistoryBuilder& b) { b.release(s.release, s.release + 1, 1); });
    std::sort(events.begin(), events.end(),
              [](const Event& a, const Event& b) { return std::pair(a.time, a.order) < std::pair(b.time, b.order); });
    HistoryBuilder b;
    for (const auto& e : events) e.add(b);
    return b.history();
}

Shape random_shape(std::mt19937& random) {
    const auto between = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
    Shape s;
    s.ttl = between(10, 60);
    s.a_invoke = between(0, 20);
    s.a_ok = s.a_invoke + between(0, 10);
    s.r_invoke = s.a_ok + between(0, 2 * s.ttl);
    s.r_ok = s.r_invoke + between(0, 3 * s.ttl);
    s.b_invoke = s.a_ok + between(0, 3 * s.ttl);
    s.b_ok = s.b_invoke + between(0, 15);
    // Mostly after everything, sometimes before worker 2's grant was answered.
    s.release = random() % 4 == 0 ? s.r_ok + between(1, 3 * s.ttl) : std::max(s.r_ok, s.b_ok + 3) + 5;
    return s;
}

}  // namespace

TEST(RenewAfterLossDifferential, AgreesWithEveryWorldOnRandomHistories) {
    std::mt19937 random(20261128);
    std::map<bool, int> seen;
    for (int round = 0; round < 3000; ++round) {
        const Shape s = random_shape(random);
        // One op at a time per worker: worker 1's renew follows its acquire.
        if (s.r_invoke < s.a_ok) continue;
        const History history = build(s);
        const auto result = check_renew_after_loss(history, pair_ops(history));
        const bool expected = reference_flags(s);
        ++seen[expected];
        ASSERT_EQ(!result.violations.empty(), expected)
            << "round " << round << ": ttl " << s.ttl << ", acquire " << s.a_invoke << ".." << s.a_ok << ", renew "
            << s.r_invoke << ".." << s.r_ok << ", other grant " << s.b_invoke << ".." << s.b_ok
            << (result.violations.empty() ? "" : "\n" + result.violations[0].description);
    }
    // Both answers occur often, so the agreement covers each.
    EXPECT_GE(seen[true], 100);
    EXPECT_GE(seen[false], 100);
}

// A queued acquire (etcd's mutex, a ZooKeeper sequential node) is answered
// after the holder ahead of it released: worker 2 invokes at 1 ms and is
// granted at 4342 ms; worker 3, ahead of it, held 2689-3879. Worker 2's
// renew at 5013 ms revived nothing: worker 3 may have held wholly before
// worker 2's grant. (Taken from a run of examples/python/etcd_mutex_safe.py.)
TEST(RenewAfterLoss, AQueuedHolderGrantedAfterTheOneAheadReleasedLostNothing) {
    HistoryBuilder h;
    h.acquire_invoke(1, 2, 2000);
    h.acquire_invoke(1.1, 3, 2000);
    h.acquire_done(2689.8, 3, OpType::Ok);
    h.renew(3356.1, 3360.5, 3, OpType::Ok, 2000);
    h.release(3879.4, 3905.4, 3);
    h.acquire_done(4342.2, 2, OpType::Ok);
    h.renew(5012.9, 5016.4, 2, OpType::Ok, 2000);
    h.release(5560.2, 5655.0, 2);
    const History history = h.history();
    const auto found = check_renew_after_loss(history, pair_ops(history));
    EXPECT_TRUE(found.violations.empty()) << found.violations.front().description;
}

// The queue rule hides nothing else: worker 1, granted at 0-5 with a 1000 ms
// lease, lost it; worker 2 held 1210-1500, released after worker 1's grant
// was answered; worker 1's renew at 1400 answered ok revived the lost lock.
TEST(RenewAfterLoss, ATakerReleasingAfterTheHoldersGrantStillCounts) {
    HistoryBuilder h;
    h.acquire_invoke(0, 1, 1000);
    h.acquire_done(5, 1, OpType::Ok);
    h.acquire_invoke(1200, 2, 1000);
    h.acquire_done(1210, 2, OpType::Ok);
    h.renew(1400, 1410, 1, OpType::Ok, 1000);
    h.release(1500, 1510, 2);
    h.release(1600, 1610, 1);
    const History history = h.history();
    EXPECT_EQ(check_renew_after_loss(history, pair_ops(history)).violations.size(), 1u);
}

TEST(RenewAfterLoss, AHolderWhoseOwnGrantMayHaveComeAfterTheOtherOwnersLostNothing) {
    // Worker 1's acquire is sent at 0 and stopped in flight until 2400 (a
    // waiter pause); worker 2 is granted at 1500 and releases at 1800; worker
    // 1's grant is answered at 2410 and its renew at 2700 is ok. The record
    // allows worker 1's grant at 0 (lease over at 1000, worker 2's grant then
    // a loss) but also at 1900, after worker 2 let go: no loss, no revival.
    HistoryBuilder b;
    b.acquire_invoke(0, 1);
    b.acquire_invoke(1500, 2);
    b.acquire_done(1501, 2, OpType::Ok);
    b.release(1800, 1801, 2);
    b.acquire_done(2410, 1, OpType::Ok);
    b.renew(2700, 2701, 1, OpType::Ok);
    b.release(2800, 2801, 1);
    EXPECT_TRUE(check_renew_after_loss(b.history(), pair_ops(b.history())).violations.empty());
    // Worker 2's acquire sent after worker 1's grant was answered: the loss is certain.
    HistoryBuilder c;
    c.acquire_invoke(0, 1);
    c.acquire_done(10, 1, OpType::Ok);
    c.acquire_invoke(1500, 2);
    c.acquire_done(1501, 2, OpType::Ok);
    c.release(1800, 1801, 2);
    c.renew(2700, 2701, 1, OpType::Ok);
    c.release(2800, 2801, 1);
    EXPECT_EQ(check_renew_after_loss(c.history(), pair_ops(c.history())).violations.size(), 1u);
}
