#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "reports/edn_export.hpp"

using namespace lockcheck;

namespace {
Op make(std::int64_t index, int process, OpType type, std::string f, std::string key = "lock") {
    Op op;
    op.index = index;
    op.time = index * 1000;
    op.process = process;
    op.type = type;
    op.f = std::move(f);
    op.key = std::move(key);
    return op;
}
}  // namespace

TEST(EdnExport, LockOpsCarryAnIndependentKeyOwnerTuple) {
    Op a = make(0, 3, OpType::Invoke, "acquire");
    a.owner = "w3-1";
    a.ttl_ms = 1000;
    EXPECT_EQ(op_to_edn(a),
              "{:index 0, :time 0, :type :invoke, :process 3, :f :acquire, :value [\"lock\" \"w3-1\"], "
              ":ttl-ms 1000, :owner \"w3-1\"}");
    Op f = make(1, 3, OpType::Fail, "acquire");
    f.error = "held";
    EXPECT_EQ(op_to_edn(f),
              "{:index 1, :time 1000, :type :fail, :process 3, :f :acquire, :value [\"lock\" nil], "
              ":error :held}");
}

TEST(EdnExport, NemesisAndResourceValuesConvertFromJson) {
    Op n = make(2, kNemesisProcess, OpType::Info, "start-fault", "");
    n.value = {{"fault", "pause-holder"}, {"id", 4}, {"targets", {"worker 3"}}};
    EXPECT_EQ(op_to_edn(n),
              "{:index 2, :time 2000, :type :info, :process :nemesis, :f :start-fault, "
              ":value {:fault \"pause-holder\", :id 4, :targets [\"worker 3\"]}}");
    Op r = make(3, 1, OpType::Ok, "read");
    r.value = 41;
    r.token = 7;
    r.error = "timed out \"really\"";
    EXPECT_EQ(op_to_edn(r),
              "{:index 3, :time 3000, :type :ok, :process 1, :f :read, :value [\"lock\" 41], "
              ":token 7, :error \"timed out \\\"really\\\"\"}");
}

TEST(EdnExport, WritesOneMapPerLine) {
    History h{make(0, 1, OpType::Invoke, "release"), make(1, 1, OpType::Ok, "release")};
    std::ostringstream out;
    write_edn(h, out);
    const std::string text = out.str();
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
    EXPECT_EQ(text.rfind("{:index 0, :time 0, :type :invoke, :process 1, :f :release", 0), 0u) << text;
    EXPECT_NE(text.find("\n{:index 1, :time 1000, :type :ok"), std::string::npos);
}
