// The blame classes against a brute-force reference: on small random pairs
// of overlapping sessions (integer ms, leases of tens of ms, replies held
// back by a recorded slow-reply or not), the reference enumerates every
// instant each grant may have happened at and both ends of each lease's
// expiry granularity, and names the first class (late-grant, within the
// lease, lease expired) that holds in every such world; "undecided"
// otherwise. classify_overlap must agree on every history: a class it gives
// is proved, and a class every world agrees on is given. (Single-term
// leases: renews are covered by overlap_blame_test.)
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include "checkers/mutual_exclusion.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

/// One holder's acquire: invoke and ok (ms), and how long the recorded
/// slow-reply held its replies back (0: no fault on it).
struct Acquire {
    int invoke = 0, ok = 0, held_back = 0;
    int grant_hi() const { return held_back > 0 ? std::max(invoke, ok - held_back) : ok; }
};

/// What holds in every world, in the checker's order of classes.
std::string reference_kind(const Acquire& first, const Acquire& second, int ttl) {
    bool always_second_late = true, always_first_late = true, always_within = true, always_expired = true;
    for (int g1 = first.invoke; g1 <= first.grant_hi(); ++g1)
        for (int g2 = second.invoke; g2 <= second.grant_hi(); ++g2)
            for (const int end1 : {g1 + ttl - 1, g1 + ttl + 1})
                for (const int end2 : {g2 + ttl - 1, g2 + ttl + 1}) {
                    always_second_late &= end2 <= second.ok;
                    always_first_late &= end1 <= first.ok;
                    always_within &= std::max(g1, g2) < std::min(end1, end2);
                    always_expired &= end1 <= g2;
                }
    if (always_second_late || always_first_late) return kLateGrant;
    if (always_within) return kOverlapWithinLease;
    if (always_expired) return kOverlapLeaseExpired;
    return kOverlapLeaseUncertain;
}

/// The history of the two sessions (worker 1 first, worker 2 second), its
/// ops in time order; worker 1 releases after worker 2's grant arrived.
History build(const Acquire& first, const Acquire& second, int ttl) {
    struct Event {
        int time;
        int order;
        std::function<void(HistoryBuilder&)> add;
    };
    std::vector<Event> events;
    int order = 0;
    const auto at = [&](int time, std::function<void(HistoryBuilder&)> add) {
        events.push_back({time, order++, std::move(add)});
    };
    for (const auto& [process, acquire] : {std::pair{1, first}, std::pair{2, second}}) {
        const int id = process;
        if (acquire.held_back > 0) at(acquire.invoke, [=](HistoryBuilder& b) { b.slow_reply(acquire.invoke, process, acquire.held_back, id); });
        at(acquire.invoke, [=](HistoryBuilder& b) { b.acquire_invoke(acquire.invoke, process, ttl); });
        at(acquire.ok, [=](HistoryBuilder& b) { b.acquire_done(acquire.ok, process, OpType::Ok); });
        if (acquire.held_back > 0) at(acquire.ok + 1, [=](HistoryBuilder& b) { b.stop_fault(acquire.ok + 1, id); });
    }
    const int release = second.ok + 3;
    at(release, [=](HistoryBuilder& b) {
        b.release_invoke(release, 1);
        b.release_done(release + 1, 1, OpType::Ok);
    });
    at(release + 5, [=](HistoryBuilder& b) {
        b.release_invoke(release + 5, 2);
        b.release_done(release + 6, 2, OpType::Ok);
    });
    std::sort(events.begin(), events.end(),
              [](const Event& a, const Event& b) { return std::pair(a.time, a.order) < std::pair(b.time, b.order); });
    HistoryBuilder b;
    for (const auto& e : events) e.add(b);
    return b.history();
}

}  // namespace

TEST(OverlapBlameDifferential, AgreesWithEveryWorldOnRandomPairs) {
    std::mt19937 random(20261127);
    std::map<std::string, int> seen;
    for (int round = 0; round < 3000; ++round) {
        const int ttl = std::uniform_int_distribution<int>(10, 60)(random);
        const auto latency = [&] { return std::uniform_int_distribution<int>(0, 70)(random); };
        Acquire first;
        first.invoke = std::uniform_int_distribution<int>(0, 40)(random);
        first.ok = first.invoke + latency();
        Acquire second;
        second.invoke = std::uniform_int_distribution<int>(0, 120)(random);
        second.ok = std::max(second.invoke + latency(), first.ok + 1);
        for (Acquire* a : {&first, &second})
            if (random() % 3 == 0 && a->ok > a->invoke)
                a->held_back = std::uniform_int_distribution<int>(1, a->ok - a->invoke)(random);
        const History history = build(first, second, ttl);
        const auto result = check_mutual_exclusion(history, pair_ops(history));
        ASSERT_EQ(result.violations.size(), 1u) << "round " << round;
        const std::string expected = reference_kind(first, second, ttl);
        ++seen[expected];
        ASSERT_EQ(result.violations[0].kind, expected)
            << "round " << round << ": ttl " << ttl << ", first " << first.invoke << ".." << first.ok << " held back "
            << first.held_back << ", second " << second.invoke << ".." << second.ok << " held back "
            << second.held_back << "\n"
            << result.violations[0].description;
    }
    // Every class occurs, so the agreement covers each of them.
    for (const char* kind : {kLateGrant, kOverlapWithinLease, kOverlapLeaseExpired, kOverlapLeaseUncertain})
        EXPECT_GE(seen[kind], 20) << kind;
}
