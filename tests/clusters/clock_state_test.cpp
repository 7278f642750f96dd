// The clock state that the harness writes and the clock library reads
// (clusters/clockshift/clock_record.h, clusters/clock_offset.hpp), and the
// changes the clock faults make to it (nemesis/clock_change.hpp), and the
// strobe of nemesis/clock_action.hpp.
#include <gtest/gtest.h>

#include "clusters/clock_offset.hpp"
#include "nemesis/clock_action.hpp"
#include "nemesis/clock_change.hpp"

namespace lockcheck {
namespace {

constexpr std::int64_t kS = 1'000'000'000;
constexpr std::int64_t kNow = 1'800'000'000 * kS;  // a wall-clock time, ns

ClockChange change(ClockMode mode, bool realtime, bool monotonic) {
    ClockChange c;
    c.mode = mode;
    c.realtime = realtime;
    c.monotonic = monotonic;
    c.jump_ms = 2000;
    c.rate_ppb = 1'500'000'000;
    c.strobe_ms = 250;
    return c;
}

TEST(ClockState, TheRecordRoundTripsAtAFixedWidth) {
    ClockState state = lc_clock_identity();
    state.realtime = {-86'400 * kS, 500'000'000, kNow};
    state.monotonic = {7 * kS, 10 * kS, kNow - 1};
    const std::string text = clock_state_text(state);
    EXPECT_EQ(text.size(), std::size_t{LC_CLOCK_RECORD_SIZE});
    EXPECT_EQ(clock_state_text(lc_clock_identity()).size(), text.size())
        << "one write always replaces the whole record";
    const auto back = clock_state_of(text);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->realtime.offset_ns, -86'400 * kS);
    EXPECT_EQ(back->realtime.rate_ppb, 500'000'000);
    EXPECT_EQ(back->monotonic.anchor_ns, kNow - 1);
}

TEST(ClockState, ATornOrForeignRecordIsRefused) {
    ClockState before = lc_clock_identity(), after = lc_clock_identity();
    after.realtime.offset_ns = 2 * kS;
    const std::string old_text = clock_state_text(before), new_text = clock_state_text(after);
    const std::string torn = new_text.substr(0, 30) + old_text.substr(30);  // a read racing the one write
    EXPECT_FALSE(clock_state_of(torn));
    EXPECT_FALSE(clock_state_of("0                       ")) << "the old offset-only format";
    EXPECT_FALSE(clock_state_of(""));
    EXPECT_FALSE(clock_state_of(std::string(LC_CLOCK_RECORD_SIZE, '\0'))) << "a file not written yet";
}

TEST(ClockState, ShiftAddsTheOffsetAndTheDriftSinceTheAnchor) {
    const ClockLine jumped{3 * kS, LC_RATE_ONE, 0};
    EXPECT_EQ(lc_clock_shift(&jumped, 100, kNow), 100 + 3 * kS);
    const ClockLine fast{0, 1'500'000'000, kNow};
    EXPECT_EQ(lc_clock_shift(&fast, kNow + 10 * kS, kNow + 10 * kS), kNow + 15 * kS) << "1.5: 50% fast";
    const ClockLine slow{0, 500'000'000, kNow};
    EXPECT_EQ(lc_clock_shift(&slow, 42, kNow + 4 * kS), 42 - 2 * kS) << "monotonic reading, drift by the wall clock";
    const ClockLine fastest{0, 10 * kS, kNow};
    EXPECT_EQ(lc_clock_shift(&fastest, 0, kNow + 86'400 * kS + 1), 9 * (86'400 * kS + 1)) << "no overflow at 10x";
}

TEST(ClockChange, ARateChangeKeepsTheReadingAndOnlyChangesTheSpeed) {
    const ClockLine fast = clock_with_rate(lc_clock_identity().monotonic, 2 * LC_RATE_ONE, kNow);
    const ClockLine later = clock_with_rate(fast, 500'000'000, kNow + 4 * kS);  // 4 s at 2x: +4 s so far
    EXPECT_EQ(later.offset_ns, 4 * kS);
    EXPECT_EQ(lc_clock_shift(&later, 0, kNow + 4 * kS), lc_clock_shift(&fast, 0, kNow + 4 * kS)) << "continuous";
    EXPECT_EQ(lc_clock_shift(&later, 0, kNow + 6 * kS), 4 * kS - kS) << "then half speed";
}

TEST(ClockChange, TheDefaultJumpMovesTheWallClockAndHealsBack) {
    const ClockChange jump = change(ClockMode::jump, true, false);
    const ClockState struck = clock_struck(lc_clock_identity(), jump, kNow);
    EXPECT_EQ(struck.realtime.offset_ns, 2 * kS);
    EXPECT_FALSE(lc_clock_line_moves(&struck.monotonic));
    const ClockState healed = clock_healed(struck, jump, kNow + kS);
    EXPECT_FALSE(lc_clock_line_moves(&healed.realtime));
}

TEST(ClockChange, AMonotonicClockKeepsWhatItGainedAtTheHeal) {
    const ClockChange jump = change(ClockMode::jump, false, true);
    const ClockState twice =
        clock_struck(clock_healed(clock_struck(lc_clock_identity(), jump, kNow), jump, kNow), jump, kNow);
    EXPECT_EQ(twice.monotonic.offset_ns, 4 * kS) << "faults accumulate: it never goes back";
    EXPECT_FALSE(lc_clock_line_moves(&twice.realtime));

    const ClockChange drift = change(ClockMode::drift, false, true);
    const ClockState drifting = clock_struck(lc_clock_identity(), drift, kNow);
    EXPECT_EQ(drifting.monotonic.rate_ppb, 1'500'000'000);
    const ClockState healed = clock_healed(drifting, drift, kNow + 2 * kS);
    EXPECT_EQ(healed.monotonic.rate_ppb, LC_RATE_ONE);
    EXPECT_EQ(healed.monotonic.offset_ns, kS) << "2 s at 1.5x gained 1 s, kept";
}

TEST(ClockChange, DriftOfBothAndStrobeOfTheWallClock) {
    const ClockState both = clock_struck(lc_clock_identity(), change(ClockMode::drift, true, true), kNow);
    EXPECT_EQ(both.realtime.rate_ppb, 1'500'000'000);
    EXPECT_EQ(both.monotonic.rate_ppb, 1'500'000'000);
    const ClockChange strobe = change(ClockMode::strobe, true, false);
    EXPECT_EQ(clock_strobed(lc_clock_identity(), strobe, true).realtime.offset_ns, 2 * kS);
    EXPECT_EQ(clock_strobed(lc_clock_identity(), strobe, false).realtime.offset_ns, 0);
    EXPECT_EQ(clock_change_summary(strobe), "realtime clock strobes +2000 ms / 0 every 250 ms");
}

TEST(ClockAction, StrobeFlipsTheWallClockOfEveryStruckTargetAndHealsItBack) {
    ClockChange strobe = change(ClockMode::strobe, true, false);
    strobe.strobe_ms = 86'400'000;  // the strobe's own thread never flips during the test: flip() does
    ClockAction action(strobe);
    std::vector<std::int64_t> offsets_ms;
    action.strike("n1", [&](const std::string& text) {
        offsets_ms.push_back(clock_state_of(text).value().realtime.offset_ns / 1'000'000);
    });
    action.flip();
    action.flip();
    action.heal();
    action.flip();  // healed: nothing struck, nothing written
    EXPECT_EQ(offsets_ms, (std::vector<std::int64_t>{2000, 0, 2000, 0}));
}

TEST(ClockAction, AJumpIsNotFlipped) {
    ClockAction action(change(ClockMode::jump, true, false));
    int writes = 0;
    action.strike("n1", [&](const std::string&) { ++writes; });
    action.flip();
    EXPECT_EQ(writes, 1);
    action.heal();
    EXPECT_EQ(writes, 2);
}

}  // namespace
}  // namespace lockcheck
