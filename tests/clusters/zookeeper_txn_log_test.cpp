// ZooKeeper's transaction log read in C++ (clusters/servers/zookeeper_txn_log.hpp):
// logs built here byte by byte in FileTxnLog's format (checksums by zlib's
// adler32) must give their session, create (in a multi too) and delete txns;
// a torn tail, a checksum that does not match or a txn that does not decode
// ends the file with what came before it; bytes that are no log are refused;
// logs over the size bound are no record; across an ensemble's data
// directories only the txns more than half of the servers logged are kept.
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>

#include "clusters/servers/zookeeper_txn_log.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;

namespace {

/// jute's big-endian encoding.
class Jute {
public:
    Jute& int32(std::int32_t v) { return put(static_cast<std::uint64_t>(static_cast<std::uint32_t>(v)), 4); }
    Jute& int64(std::int64_t v) { return put(static_cast<std::uint64_t>(v), 8); }
    Jute& boolean(bool v) {
        bytes_ += static_cast<char>(v ? 1 : 0);
        return *this;
    }
    Jute& text(const std::string& s) {
        int32(static_cast<std::int32_t>(s.size()));
        bytes_ += s;
        return *this;
    }
    const std::string& bytes() const { return bytes_; }

private:
    std::string bytes_;
    Jute& put(std::uint64_t v, int n) {
        for (int i = n - 1; i >= 0; --i) bytes_ += static_cast<char>((v >> (8 * i)) & 0xff);
        return *this;
    }
};

std::string header_of(std::int64_t session, std::int32_t cxid, std::int64_t zxid, std::int32_t type) {
    return Jute().int64(session).int32(cxid).int64(zxid).int64(1795889808260).int32(type).bytes();
}

std::string create_record(const std::string& path, const std::string& data) {
    // path, data, one ACL (perms, scheme, id), ephemeral, parentCVersion
    return Jute().text(path).text(data).int32(1).int32(31).text("world").text("anyone").boolean(true).int32(2).bytes();
}

std::string create_txn(std::int64_t session, std::int64_t zxid, const std::string& path, const std::string& data) {
    return header_of(session, 1, zxid, 1) + create_record(path, data);
}

/// One entry of a log: checksum, length, txn, 'B'.
std::string entry(const std::string& txn, bool wrong_checksum = false) {
    const auto sum = adler32(1, reinterpret_cast<const Bytef*>(txn.data()), static_cast<uInt>(txn.size()));
    return Jute()
               .int64(static_cast<std::int64_t>(sum) + (wrong_checksum ? 1 : 0))
               .int32(static_cast<std::int32_t>(txn.size()))
               .bytes() +
           txn + "B";
}

std::string log_of(const std::string& entries) {
    return Jute().int32(0x5A4B4C47).int32(2).int64(0).bytes() + entries + std::string(64, '\0');
}

}  // namespace

TEST(ZooKeeperTxnLog, SessionsCreatesDeletesAndMultisAreRead) {
    const std::string multi = header_of(0x101, 4, 7, 14) + Jute()
                                                               .int32(2)
                                                               .int32(1)
                                                               .text(create_record("/lockcheck/a", "w2-1"))
                                                               .int32(2)
                                                               .text(Jute().text("/lockcheck/b").bytes())
                                                               .bytes();
    const std::string bytes =
        log_of(entry(header_of(0x100, 0, 1, -10) + Jute().int32(2000).bytes()) +
               entry(create_txn(0x100, 2, "/lockcheck/lock/lock-0000000000", "w1-1")) +
               entry(header_of(0x100, 3, 3, 2) + Jute().text("/lockcheck/lock/x").bytes()) +
               entry(header_of(0x100, 0, 4, -11) + Jute().int32(1).text("/lockcheck/l").bytes()) + entry(multi));
    std::string stopped = "not cleared";
    const auto txns = decode_zookeeper_txn_log(bytes, 256, stopped);
    EXPECT_EQ(stopped, "");
    ASSERT_EQ(txns.size(), 6u);
    EXPECT_EQ(txns[0]["type"], "createSession");
    EXPECT_EQ(txns[0]["timeout_ms"], 2000);
    EXPECT_EQ(txns[1]["type"], "create");
    EXPECT_EQ(txns[1]["path"], "/lockcheck/lock/lock-0000000000");
    EXPECT_EQ(txns[1]["owner"], "w1-1");
    EXPECT_EQ(txns[1]["ephemeral"], true);
    EXPECT_EQ(txns[1]["session"], 0x100);
    EXPECT_EQ(txns[1]["zxid"], 2);
    EXPECT_EQ(txns[1]["time_ms"], 1795889808260);
    EXPECT_EQ(txns[2]["type"], "delete");
    EXPECT_EQ(txns[2]["cxid"], 3);
    EXPECT_EQ(txns[3]["type"], "closeSession");
    EXPECT_EQ(txns[3]["cxid"], 0);
    EXPECT_EQ(txns[3]["paths"], nlohmann::json::array({"/lockcheck/l"}));
    EXPECT_EQ(txns[4]["path"], "/lockcheck/a");
    EXPECT_EQ(txns[4]["sub"], 0);
    EXPECT_EQ(txns[5]["type"], "delete");
    EXPECT_EQ(txns[5]["sub"], 1);
    EXPECT_EQ(txns[5]["zxid"], 7);
}

TEST(ZooKeeperTxnLog, ALongOwnerIsCut) {
    std::string stopped;
    const auto txns =
        decode_zookeeper_txn_log(log_of(entry(create_txn(1, 2, "/a", std::string(1000, 'x')))), 16, stopped);
    ASSERT_EQ(txns.size(), 1u);
    EXPECT_EQ(txns[0]["owner"].get<std::string>().size(), 16u);
}

TEST(ZooKeeperTxnLog, ATornEntryEndsTheFileWithWhatCameBefore) {
    const std::string whole = entry(create_txn(1, 2, "/a", "w1-1"));
    const std::string torn = entry(create_txn(1, 3, "/b", "w1-2"));
    std::string bytes = Jute().int32(0x5A4B4C47).int32(2).int64(0).bytes() + whole + torn.substr(0, torn.size() - 5);
    std::string stopped;
    const auto txns = decode_zookeeper_txn_log(bytes, 256, stopped);
    ASSERT_EQ(txns.size(), 1u);
    EXPECT_EQ(txns[0]["path"], "/a");
    EXPECT_NE(stopped.find("torn entry"), std::string::npos) << stopped;
}

TEST(ZooKeeperTxnLog, AChecksumThatDoesNotMatchEndsTheFile) {
    std::string stopped;
    const auto txns = decode_zookeeper_txn_log(
        log_of(entry(create_txn(1, 2, "/a", "w1-1")) + entry(create_txn(1, 3, "/b", "w1-2"), true) +
               entry(create_txn(1, 4, "/c", "w1-3"))),
        256, stopped);
    ASSERT_EQ(txns.size(), 1u);
    EXPECT_NE(stopped.find("checksum"), std::string::npos) << stopped;
}

TEST(ZooKeeperTxnLog, ATxnThatDoesNotDecodeEndsTheFile) {
    // A whole entry with a good checksum whose create names a path longer than the txn.
    const std::string cut = header_of(1, 1, 3, 1) + Jute().int32(100).bytes() + "/b";
    std::string stopped;
    const auto txns =
        decode_zookeeper_txn_log(log_of(entry(create_txn(1, 2, "/a", "w1-1")) + entry(cut)), 256, stopped);
    ASSERT_EQ(txns.size(), 1u);
    EXPECT_NE(stopped.find("does not decode"), std::string::npos) << stopped;
}

TEST(ZooKeeperTxnLog, BytesThatAreNoLogAreRefused) {
    std::string stopped;
    EXPECT_THROW(decode_zookeeper_txn_log("not a log at all, just text", 256, stopped), std::invalid_argument);
}

TEST(ZooKeeperTxnLog, OnlyTxnsAMajorityOfTheServersLoggedAreKept) {
    lockcheck::testing::ScratchDir dir("zk-txn-log");
    const auto write_log = [&](const std::string& server, const std::string& name, const std::string& entries) {
        std::filesystem::create_directories(dir.path() / server / "version-2");
        std::ofstream(dir.path() / server / "version-2" / name, std::ios::binary) << log_of(entries);
    };
    const std::string committed = entry(create_txn(1, 2, "/lockcheck/a", "w1-1"));
    const std::string later = entry(create_txn(1, 0x100000001, "/lockcheck/c", "w1-3"));
    write_log("n1", "log.1", committed + entry(create_txn(1, 3, "/lockcheck/only-n1", "w1-2")));
    write_log("n1", "log.100000001", later);
    write_log("n2", "log.1", committed);
    write_log("n2", "log.100000001", later + entry(create_txn(1, 0x100000002, "/elsewhere", "x")));
    write_log("n3", "log.100000001", entry(create_txn(1, 0x100000002, "/elsewhere", "x")));
    const auto record =
        read_zookeeper_txn_logs({dir.path() / "n1", dir.path() / "n2", dir.path() / "n3"}, "/lockcheck/");
    ASSERT_TRUE(record.read) << record.why;
    EXPECT_EQ(record.servers, 3u);
    ASSERT_EQ(record.txns.size(), 2u) << "only-n1 was logged by one server of three; /elsewhere is not the prefix's";
    EXPECT_EQ(record.txns[0]["path"], "/lockcheck/a");
    EXPECT_EQ(record.txns[1]["path"], "/lockcheck/c");
    EXPECT_EQ(record.zxid, 0x100000001);
}

TEST(ZooKeeperTxnLog, LogsLargerThanTheBoundAreNoRecord) {
    lockcheck::testing::ScratchDir dir("zk-txn-log");
    std::filesystem::create_directories(dir.path() / "n1" / "version-2");
    std::ofstream(dir.path() / "n1" / "version-2" / "log.1", std::ios::binary)
        << log_of(entry(create_txn(1, 2, "/lockcheck/a", "w1-1")));
    ZooKeeperTxnLogLimits limits;
    limits.max_bytes = 16;
    const auto record = read_zookeeper_txn_logs({dir.path() / "n1"}, "/", limits);
    EXPECT_FALSE(record.read);
    EXPECT_NE(record.why.find("larger than 16 bytes"), std::string::npos) << record.why;
}

TEST(ZooKeeperTxnLog, DataDirectoriesWithoutALogAreNoRecord) {
    lockcheck::testing::ScratchDir dir("zk-txn-log");
    const auto record = read_zookeeper_txn_logs({dir.path() / "n1", dir.path() / "n2"}, "/");
    EXPECT_FALSE(record.read);
    EXPECT_NE(record.why.find("no transaction log"), std::string::npos) << record.why;
}
