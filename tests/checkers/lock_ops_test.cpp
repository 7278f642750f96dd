// The lock model's extraction (checkers/lock_ops.hpp): what it keeps of a
// history, and that it borrows the owners' names instead of copying them
// (checkers/owner_names.hpp) and sizes its lists once.
#include <gtest/gtest.h>

#include <string>

#include "checkers/lock_ops.hpp"
#include "tests/support/history_builder.hpp"

using namespace lockcheck;
using lockcheck::testing::HistoryBuilder;

namespace {

std::vector<KeyLockOps> collect(HistoryBuilder& b) { return collect_lock_ops(b.history(), pair_ops(b.history())); }

}  // namespace

TEST(LockOps, AnOpIsAtMost16Bytes) {
    // A 10M-op history has some 5M of them (docs/benchmarks.md).
    EXPECT_LE(sizeof(LockOp), 16u);
}

TEST(LockOps, OwnersAreViewsIntoTheOpsThatNamedThemFirst) {
    HistoryBuilder b;
    b.session(1, 0, 5, 10, 15);
    const auto heap_owner = b.acquire_invoke(20, 2);  // an owner too long to be kept inside the op
    b.history().back().owner = "a-uuid-from-another-client-library-0123456789";
    b.acquire_done(25, 2, OpType::Ok);
    b.release_invoke(30, 2);
    b.release_done(35, 2, OpType::Ok);
    const auto keys = collect(b);
    ASSERT_EQ(keys.size(), 1u);
    ASSERT_EQ(keys[0].owners.size(), 2u);
    ASSERT_EQ(keys[0].ops.size(), 4u);
    EXPECT_EQ(keys[0].owners[0], "p1-1");
    EXPECT_EQ(keys[0].owners[0].data(), (*b.history()[0].owner).data());
    EXPECT_EQ(keys[0].owners[1], "a-uuid-from-another-client-library-0123456789");
    EXPECT_EQ(keys[0].owners[1].data(), (*b.history()[static_cast<std::size_t>(heap_owner)].owner).data());
    EXPECT_EQ(keys[0].ops[3].owner, 1) << "the release by the same owner has the same id";
}

TEST(LockOps, AnOpWithoutOwnerIsOwnedByItsProcess) {
    HistoryBuilder b;
    b.acquire_invoke(0, 7);
    b.history().back().owner.reset();
    b.acquire_done(5, 7, OpType::Ok);
    b.history().back().owner.reset();
    const auto keys = collect(b);
    ASSERT_EQ(keys.size(), 1u);
    EXPECT_TRUE(keys[0].synthetic_owners);
    ASSERT_EQ(keys[0].owners.size(), 1u);
    EXPECT_EQ(keys[0].owners[0], "process 7");
}

TEST(LockOps, AnOwnerNamedOnlyByTheCompletionIsReadFromIt) {
    HistoryBuilder b;
    b.acquire_invoke(0, 7);
    b.history().back().owner.reset();
    const auto done = b.acquire_done(5, 7, OpType::Ok);
    b.history().back().owner = "an-owner-the-server-chose-0123456789";
    const auto keys = collect(b);
    ASSERT_EQ(keys.size(), 1u);
    EXPECT_FALSE(keys[0].synthetic_owners);
    ASSERT_EQ(keys[0].owners.size(), 1u);
    EXPECT_EQ(keys[0].owners[0], "an-owner-the-server-chose-0123456789");
    EXPECT_EQ(keys[0].owners[0].data(), (*b.history()[static_cast<std::size_t>(done)].owner).data());
}

TEST(LockOps, ASubsetOfOwnersKeepsTheirNamesInItsOrder) {
    HistoryBuilder b;
    for (int w = 1; w <= 3; ++w) b.session(w, 10.0 * w, 10.0 * w + 1, 10.0 * w + 2, 10.0 * w + 3);
    const auto keys = collect(b);
    ASSERT_EQ(keys.size(), 1u);
    ASSERT_EQ(keys[0].owners.size(), 3u);
    const OwnerNames sub = keys[0].owners.subset({2, 0});
    ASSERT_EQ(sub.size(), 2u);
    EXPECT_EQ(sub[0], keys[0].owners[2]);
    EXPECT_EQ(sub[1], keys[0].owners[0]);
    EXPECT_EQ(sub[0].data(), keys[0].owners[2].data()) << "read from the same op of the history";
}

TEST(LockOps, KeysComeInOrderOfTheirFirstOpThatCounts) {
    HistoryBuilder b;
    b.add(0, 1, OpType::Invoke, "acquire", "ignored");  // fails without saying the lock was held:
    b.add(1, 1, OpType::Fail, "acquire", "ignored");    // nothing for the model
    b.history().back().error = "connection-refused";
    b.add(2, 2, OpType::Invoke, "acquire", "second");
    b.add(3, 3, OpType::Invoke, "acquire", "first");
    b.add(4, 3, OpType::Ok, "acquire", "first");
    b.add(5, 2, OpType::Ok, "acquire", "second");
    const auto keys = collect(b);
    ASSERT_EQ(keys.size(), 2u);
    EXPECT_EQ(keys[0].key, "second");
    EXPECT_EQ(keys[1].key, "first");
}

TEST(LockOps, EachKeysListsAreAllocatedOnceAtTheirCountedBound) {
    // The bound: the key's acquire and release invokes, plus one per kill.
    HistoryBuilder b;
    constexpr int kSessions = 300;
    for (int i = 0; i < kSessions; ++i) b.session(1 + i % 5, 10.0 * i, 10.0 * i + 1, 10.0 * i + 2, 10.0 * i + 3);
    b.acquire_invoke(5000, 9);
    b.acquire_done(5001, 9, OpType::Ok);
    b.kill_holder(5002, 9);
    const auto keys = collect(b);
    ASSERT_EQ(keys.size(), 1u);
    const std::size_t bound = 2 * kSessions + 1 + 1;
    EXPECT_EQ(keys[0].ops.size(), bound) << "every op kept, and the kill's release";
    EXPECT_EQ(keys[0].ops.capacity(), bound);
    EXPECT_EQ(keys[0].owners.size(), static_cast<std::size_t>(kSessions + 1));
    EXPECT_EQ(keys[0].owners.capacity(), bound);
    const LockOp& killed = keys[0].ops.back();
    EXPECT_EQ(killed.kind, LockOpKind::Release);
    EXPECT_EQ(killed.outcome, LockOutcome::Unknown);
    EXPECT_EQ(keys[0].owners[static_cast<std::size_t>(killed.owner)], "p9-301");
}
