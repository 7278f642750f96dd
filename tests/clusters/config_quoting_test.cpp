// Hostile strings in server configs: a space, a quote or a newline in a path
// (the scenario name, the store) must stay one argument of one line.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "clusters/servers/config_quoting.hpp"
#include "clusters/servers/redis_node.hpp"

using namespace lockcheck;

namespace {

/// The lines of `text`.
std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::string line;
    for (const char c : text) {
        if (c == '\n') {
            lines.push_back(line);
            line.clear();
        } else {
            line += c;
        }
    }
    if (!line.empty()) lines.push_back(line);
    return lines;
}

int hex_value(char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

/// The arguments of one config line as redis-server reads them (its
/// sdssplitargs: double quotes with \xHH, \n, \r, \t, \b, \a and \<c>
/// escapes, single quotes with \' only, a closing quote followed by a space
/// or the end). Throws std::invalid_argument where redis-server would refuse
/// the line.
std::vector<std::string> redis_split_args(const std::string& line) {
    std::vector<std::string> args;
    std::size_t p = 0;
    const auto at = [&](std::size_t i) { return i < line.size() ? line[i] : '\0'; };
    const auto is_hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    for (;;) {
        while (p < line.size() && std::isspace(static_cast<unsigned char>(line[p]))) ++p;
        if (p >= line.size()) return args;
        std::string current;
        bool in_double = false, in_single = false, done = false;
        while (!done) {
            const char c = at(p);
            if (in_double) {
                if (c == '\0') throw std::invalid_argument("unbalanced quotes");
                if (c == '\\' && at(p + 1) == 'x' && is_hex(at(p + 2)) && is_hex(at(p + 3))) {
                    current += static_cast<char>(hex_value(at(p + 2)) * 16 + hex_value(at(p + 3)));
                    p += 3;
                } else if (c == '\\' && at(p + 1) != '\0') {
                    ++p;
                    const char e = at(p);
                    current += e == 'n'   ? '\n'
                               : e == 'r' ? '\r'
                               : e == 't' ? '\t'
                               : e == 'b' ? '\b'
                               : e == 'a' ? '\a'
                                          : e;
                } else if (c == '"') {
                    if (at(p + 1) != '\0' && !std::isspace(static_cast<unsigned char>(at(p + 1))))
                        throw std::invalid_argument("closing quote must be followed by a space");
                    done = true;
                } else {
                    current += c;
                }
            } else if (in_single) {
                if (c == '\0') throw std::invalid_argument("unbalanced quotes");
                if (c == '\\' && at(p + 1) == '\'') {
                    ++p;
                    current += '\'';
                } else if (c == '\'') {
                    if (at(p + 1) != '\0' && !std::isspace(static_cast<unsigned char>(at(p + 1))))
                        throw std::invalid_argument("closing quote must be followed by a space");
                    done = true;
                } else {
                    current += c;
                }
            } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\0') {
                done = true;
            } else if (c == '"') {
                in_double = true;
            } else if (c == '\'') {
                in_single = true;
            } else {
                current += c;
            }
            if (p < line.size()) ++p;
        }
        args.push_back(current);
    }
}

const std::vector<std::string> kHostile = {
    "plain",
    "with space",
    "quote\"inside",
    "single'quote",
    "back\\slash\\",
    "line\nrequirepass pwned",
    "carriage\rreturn\ttab",
    "/tmp/a b/\"c\"/d\\e\n#f",
    std::string("nul\0byte", 8),
    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x92",
    "\xff\xfe not utf-8",
    "",
};

}  // namespace

TEST(RedisConfigQuote, EveryHostileStringIsOneArgumentOfOneLine) {
    for (const auto& text : kHostile) {
        const std::string line = redis_config_line("dir", {text});
        EXPECT_EQ(line.find('\n'), std::string::npos) << line;
        EXPECT_EQ(line.find('\r'), std::string::npos) << line;
        const auto args = redis_split_args(line);
        ASSERT_EQ(args.size(), 2u) << line;
        EXPECT_EQ(args[0], "dir");
        EXPECT_EQ(args[1], text) << "redis-server reads back what was written: " << line;
    }
}

TEST(RedisConfigQuote, AnInjectedDirectiveStaysInsideTheArgument) {
    const std::string conf = redis_config_line("dir", {"/store/x\nrequirepass pwned"}) + "\n" +
                             redis_config_line("sentinel monitor", {"lockcheck", "10.0.0.1", "6379", "2"}) + "\n";
    const auto lines = lines_of(conf);
    ASSERT_EQ(lines.size(), 2u) << conf;
    EXPECT_EQ(lines[0], "dir \"/store/x\\x0arequirepass pwned\"");
    EXPECT_EQ(lines[1], "sentinel monitor \"lockcheck\" \"10.0.0.1\" \"6379\" \"2\"");
}

TEST(RedisConfigQuote, ExactEscapes) {
    EXPECT_EQ(redis_config_quote("a b"), "\"a b\"");
    EXPECT_EQ(redis_config_quote("q\"b\\"), "\"q\\\"b\\\\\"");
    EXPECT_EQ(redis_config_quote("x\ny"), "\"x\\x0ay\"");
    EXPECT_EQ(redis_config_quote("\xc3\xa9"), "\"\\xc3\\xa9\"");
    EXPECT_EQ(redis_config_quote(""), "\"\"");
}

TEST(ZooKeeperConfigValue, EscapesWhatJavaPropertiesWouldReadOtherwise) {
    EXPECT_EQ(zookeeper_config_value("/tmp/store/run/n1/data"), "/tmp/store/run/n1/data");
    EXPECT_EQ(zookeeper_config_value("10.77.5.1:2888:3888"), "10.77.5.1\\:2888\\:3888");
    EXPECT_EQ(zookeeper_config_value("/a b=c#d!e\\f"), "/a b\\=c\\#d\\!e\\\\f");
    EXPECT_EQ(zookeeper_config_value("/x\nserver.9=evil:1:2"), "/x\\nserver.9\\=evil\\:1\\:2")
        << "a newline cannot start a property of its own";
    EXPECT_EQ(zookeeper_config_value("/r\rt\tf\fz"), "/r\\rt\\tf\\fz");
    EXPECT_EQ(zookeeper_config_value(std::string("/nul\0x", 6)), "/nul\\u0000x");
    EXPECT_EQ(zookeeper_config_value("/caf\xc3\xa9"), "/caf\\u00e9") << "Properties files are ISO-8859-1: \\uXXXX";
    EXPECT_EQ(zookeeper_config_value("/\xf0\x9f\x94\x92"), "/\\ud83d\\udd12") << "outside the BMP: a surrogate pair";
    for (const auto& text : kHostile) {
        if (text.empty() || text.find_first_of("\n\r\t ") == 0 || text.find("\xff") != std::string::npos) continue;
        const auto value = zookeeper_config_value(text);
        EXPECT_EQ(value.find('\n'), std::string::npos) << value;
        EXPECT_EQ(value.find('\r'), std::string::npos) << value;
        for (const char c : value) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << "only printable ASCII: " << value;
    }
}

TEST(ZooKeeperConfigValue, RefusesWhatZooKeeperCannotReadBack) {
    EXPECT_THROW(zookeeper_config_value("\xff\xfe not utf-8"), std::invalid_argument);
    EXPECT_THROW(zookeeper_config_value("\xc0\xaf"), std::invalid_argument) << "an overlong '/'";
    EXPECT_THROW(zookeeper_config_value("\xed\xa0\x80"), std::invalid_argument) << "a lone surrogate";
    EXPECT_THROW(zookeeper_config_value("/x "), std::invalid_argument) << "ZooKeeper trims values";
    EXPECT_THROW(zookeeper_config_value(" /x"), std::invalid_argument);
}

TEST(MysqlQuote, HostileStringsStayOneLiteral) {
    EXPECT_EQ(mysql_quote("p'); DROP USER root; --"), "'p\\'); DROP USER root; --'");
    EXPECT_EQ(mysql_quote("a\\'b"), "'a\\\\\\'b'");
    EXPECT_EQ(mysql_quote(std::string("n\0\n\r\x1a", 5)), "'n\\0\\n\\r\\Z'");
}

TEST(FileUrl, PercentEncodesEverythingButPlainPathCharacters) {
    EXPECT_EQ(file_url("/tmp/store/n1/conf/log4j.properties"), "file:///tmp/store/n1/conf/log4j.properties");
    EXPECT_EQ(file_url("/a b:c%d\n\xc3\xa9"), "file:///a%20b%3Ac%25d%0A%C3%A9");
}
