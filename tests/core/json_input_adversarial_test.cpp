// Adversarial JSON input (issue 10, items 2 and 3): nesting deep enough to
// overflow the stack, and bytes that are not UTF-8, wherever JSON comes in -
// worker replies, history lines, specs - and wherever text from outside is
// stored again.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/history_io.hpp"
#include "core/json_text.hpp"
#include "core/utf8_text.hpp"
#include "spec/spec.hpp"
#include "tests/support/history_test_support.hpp"
#include "recipes/protocol.hpp"

using namespace lockcheck;
using lockcheck::testing::history_error_of;

namespace {

/// `depth` arrays nested in one another: "[[[...]]]".
std::string nested_arrays(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

/// A worker reply whose value nests 100,000 arrays deep (200 KB): the input that crashed the controller.
std::string deep_reply() { return R"({"id":5,"type":"ok","value":)" + nested_arrays(100'000) + "}"; }

const std::string kLatin1Cafe = "caf\xE9";               // "café" in Latin-1: not UTF-8
const std::string kReplacementCafe = "caf\xEF\xBF\xBD";  // the same with U+FFFD

}  // namespace

TEST(JsonText, DepthCountsBracketsOutsideStringsOnly) {
    EXPECT_EQ(json_nesting_depth(R"({"a":"[[[[{{","b":[[1],{"c":[]}]})"), 4u);
    EXPECT_EQ(json_nesting_depth(R"({"a":"\"[[["})"), 1u) << "an escaped quote does not end the string";
    EXPECT_EQ(json_nesting_depth(R"({"a":"\\","b":[[]]})"), 3u) << "an escaped backslash does";
    EXPECT_EQ(json_nesting_depth("42"), 0u);
    EXPECT_EQ(json_nesting_depth(nested_arrays(100'000), 64), 65u) << "the scan stops past the bound";
}

TEST(JsonText, DepthAtTheBoundParsesOneMoreIsRejected) {
    EXPECT_NO_THROW(parse_json_bounded(nested_arrays(kMaxJsonDepth)));
    try {
        parse_json_bounded(nested_arrays(kMaxJsonDepth + 1));
        FAIL() << "one level too deep was accepted";
    } catch (const JsonInputError& e) {
        EXPECT_TRUE(e.too_deep());
        EXPECT_STREQ(e.what(), "JSON nested deeper than 64 levels");
    }
}

TEST(JsonText, HundredThousandLevelsAreRejectedNotACrash) {
    try {
        parse_json_bounded(nested_arrays(100'000));
        FAIL();
    } catch (const JsonInputError& e) {
        EXPECT_TRUE(e.too_deep());
    }
}

TEST(JsonText, MalformedAndNonUtf8AreNotValidJson) {
    for (const std::string& text :
         {std::string("{oops"), "\"" + kLatin1Cafe + "\"", std::string("8658e9659623781719")}) {
        try {
            parse_json_bounded(text);
            FAIL() << text;
        } catch (const JsonInputError& e) {
            EXPECT_FALSE(e.too_deep());
            EXPECT_EQ(std::string(e.what()).rfind("not valid JSON (", 0), 0u) << e.what();
        }
    }
}

TEST(JsonText, DumpWritesInvalidUtf8AsReplacementCharacters) {
    const nlohmann::json j{{"error", kLatin1Cafe}};
    EXPECT_THROW((void)j.dump(), nlohmann::json::type_error) << "what used to stop a worker slot for good";
    EXPECT_EQ(dump_json(j), R"({"error":")" + kReplacementCafe + R"("})");
}

TEST(Utf8Text, ValidatesAsJsonDoes) {
    EXPECT_TRUE(is_valid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x94\x92"));
    EXPECT_FALSE(is_valid_utf8(kLatin1Cafe));
    EXPECT_FALSE(is_valid_utf8("\xC0\xAF")) << "overlong";
    EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80")) << "surrogate";
    EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80")) << "above U+10FFFF";
    EXPECT_FALSE(is_valid_utf8("\xE2\x82")) << "cut short";
    EXPECT_EQ(to_valid_utf8(kLatin1Cafe), kReplacementCafe);
    EXPECT_EQ(to_valid_utf8("ok"), "ok");
}

TEST(Utf8Text, ExcerptIsPrintableShortAndCutBetweenCharacters) {
    EXPECT_EQ(printable_excerpt("abc", 80), "abc");
    EXPECT_EQ(printable_excerpt("abcdef", 3), "abc...");
    EXPECT_EQ(printable_excerpt("\xC3\xA9\xC3\xA9", 3), "\xC3\xA9...") << "never half a character";
    EXPECT_EQ(printable_excerpt("a\x1b[31mb\n", 80), "a\xEF\xBF\xBD[31mb\xEF\xBF\xBD");
    EXPECT_EQ(printable_excerpt(kLatin1Cafe, 80), kReplacementCafe);
    EXPECT_TRUE(is_valid_utf8(printable_excerpt(deep_reply() + kLatin1Cafe, 80)));
}

// --- the worker protocol: such a reply is garbage (the controller replaces the worker)

TEST(ProtocolInput, DeepReplyIsGarbageWithAShortReason) {
    try {
        decode_reply(deep_reply());
        FAIL();
    } catch (const ProtocolError& e) {
        const std::string reason = e.what();
        EXPECT_EQ(reason.rfind("JSON nested deeper than 64 levels: {\"id\":5", 0), 0u) << reason;
        EXPECT_LT(reason.size(), 200u) << "the reason quotes an excerpt, not 200 KB";
    }
    EXPECT_THROW(
        decode_init(R"({"id":0,"f":"init","protocol":1,"recipe_options":{"a":)" + nested_arrays(100'000) + "}}"),
        ProtocolError);
}

// Issue 41, defect 8: the bytes after a NUL are part of the line, as they are without one.
TEST(ProtocolInput, AReplyFollowedByANulAndGarbageIsGarbage) {
    const std::string reply = R"({"id":3,"type":"ok"})";
    EXPECT_THROW(decode_reply(reply + "garbage"), ProtocolError);
    try {
        decode_reply(reply + std::string(1, '\0') + "garbage");
        FAIL() << "a reply followed by a NUL and garbage was accepted";
    } catch (const ProtocolError& e) {
        EXPECT_NE(std::string(e.what()).find("NUL byte at byte 21"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse_json_bounded(std::string_view("{}\0", 3)), JsonInputError);
    EXPECT_EQ(decode_reply(reply).id, 3);
}

TEST(ProtocolInput, NonUtf8ReplyIsGarbageAndItsReasonIsValidUtf8) {
    try {
        decode_reply(R"({"id":3,"type":"fail","error":")" + kLatin1Cafe + R"("})");
        FAIL();
    } catch (const ProtocolError& e) {
        const std::string reason = e.what();
        EXPECT_TRUE(is_valid_utf8(reason)) << reason;
        EXPECT_NE(reason.find(kReplacementCafe), std::string::npos) << reason;
        EXPECT_NO_THROW((void)nlohmann::json(reason).dump()) << "the reason goes into the history as the op's error";
    }
}

TEST(ProtocolInput, GarbageCutInsideACharacterStillGivesAValidReason) {
    std::string line = "not json " + std::string(70, 'x');
    while (line.size() < 100) line += "\xC3\xA9";  // é straddles the excerpt's 80-byte cut
    try {
        decode_reply(line);
        FAIL();
    } catch (const ProtocolError& e) {
        EXPECT_TRUE(is_valid_utf8(e.what())) << e.what();
    }
}

TEST(ProtocolInput, EncodingTextFromAServerNeverThrows) {
    // The C++ worker answers with errors its server sent; one bad byte must not kill it.
    WorkerReply reply{4, OpType::Fail, std::nullopt, kLatin1Cafe, nullptr};
    const auto line = encode(reply);
    EXPECT_EQ(decode_reply(line).error, kReplacementCafe);
}

// --- history files and specs: bad input (one line naming the place, exit 254)

TEST(HistoryInput, DeepLineIsNamedWithItsLine) {
    const std::string first = R"({"index":0,"time":1,"process":0,"type":"invoke","f":"acquire","key":"k"})";
    const std::string deep = R"({"index":1,"time":2,"process":0,"type":"ok","f":"acquire","key":"k","value":)" +
                             nested_arrays(100'000) + "}";
    EXPECT_EQ(history_error_of(first + "\n" + deep + "\n"), "h.jsonl:2: JSON nested deeper than 64 levels");
    EXPECT_EQ(history_error_of(first + "\n" + deep), "h.jsonl:2: JSON nested deeper than 64 levels")
        << "a writer never leaves such a line, so it is not taken for a torn last record";
}

TEST(HistoryInput, NonUtf8LineIsNamed) {
    const std::string line =
        R"({"index":0,"time":1,"process":0,"type":"invoke","f":"acquire","key":"k","owner":")" + kLatin1Cafe + "\"}\n";
    EXPECT_EQ(history_error_of(line).rfind("h.jsonl:1: not valid JSON (byte ", 0), 0u) << history_error_of(line);
}

TEST(HistoryInput, WriterStoresNonUtf8TextAsReplacementCharacters) {
    const auto path = std::filesystem::temp_directory_path() / "lockcheck-adversarial-utf8.jsonl";
    Op invoke;
    invoke.index = 0;
    invoke.time = 1;
    invoke.f = "acquire";
    invoke.key = "k";
    Op done = invoke;
    done.index = 1;
    done.time = 2;
    done.type = OpType::Fail;
    done.error = kLatin1Cafe;
    write_history(path, {invoke, done});
    const History back = read_history(path);
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[1].error, kReplacementCafe);
    std::filesystem::remove(path);
}

TEST(SpecInput, DeepRecipeOptionsAreBadInput) {
    const auto path = std::filesystem::temp_directory_path() / "lockcheck-adversarial-deep-spec.json";
    std::ofstream(path) << R"({"name":"deep","recipe_options":{"x":)" << nested_arrays(100'000) << "}}";
    try {
        read_spec(path);
        FAIL();
    } catch (const SpecError& e) {
        EXPECT_EQ(std::string(e.what()), "spec " + path.string() + ": JSON nested deeper than 64 levels");
    }
    std::filesystem::remove(path);
}
