#include <gtest/gtest.h>

#include "recipes/protected_resource.hpp"

using namespace lockcheck;

TEST(ProtectedResource, WithoutFencingEveryAccessIsAccepted) {
    ProtectedResource r(false);
    EXPECT_TRUE(r.read("k", 5).accepted);
    EXPECT_TRUE(r.write("k", 1, 3).accepted);  // stale token, still accepted
    EXPECT_EQ(r.read("k", 1).value, 1);
}

TEST(ProtectedResource, FencingRejectsTokensLowerThanSeen) {
    ProtectedResource r(true);
    EXPECT_TRUE(r.read("k", 1).accepted);
    EXPECT_TRUE(r.read("k", 2).accepted);  // a newer holder reads
    auto stale = r.write("k", 1, 1);       // the older holder writes after it
    EXPECT_FALSE(stale.accepted);
    EXPECT_EQ(stale.value, 0);
    EXPECT_TRUE(r.write("k", 1, 2).accepted);
    EXPECT_EQ(r.read("k", 2).value, 1);
    EXPECT_TRUE(r.write("other", 9, 1).accepted) << "keys are fenced independently";
}
