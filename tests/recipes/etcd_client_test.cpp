// The pure parts of the etcd client: base64, the gateway's replies (built
// here as JSON, garbage included) and the lease length a ttl_ms asks for.
#include <gtest/gtest.h>

#include "core/base64.hpp"
#include "recipes/etcd_lease_lock.hpp"
#include "recipes/etcd_replies.hpp"

using namespace lockcheck;
using nlohmann::json;
using Kind = EtcdResponse::Kind;

TEST(Base64, EncodesTheRfc4648Vectors) {
    EXPECT_EQ(base64_encode(""), "");
    EXPECT_EQ(base64_encode("f"), "Zg==");
    EXPECT_EQ(base64_encode("fo"), "Zm8=");
    EXPECT_EQ(base64_encode("foo"), "Zm9v");
    EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
    EXPECT_EQ(base64_encode("lock"), "bG9jaw==") << "what etcd itself returned for the key 'lock'";
}

TEST(Base64, RoundTripsEveryByte) {
    std::string all;
    for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
    for (std::size_t n = 0; n < all.size(); n += 37)
        EXPECT_EQ(base64_decode(base64_encode(all.substr(0, n))), all.substr(0, n));
}

TEST(Base64, RejectsWhatIsNotPaddedStandardBase64) {
    EXPECT_EQ(base64_decode("dzEtMQ=="), "w1-1");
    EXPECT_FALSE(base64_decode("Zg="));       // length not a multiple of 4
    EXPECT_FALSE(base64_decode("Zm9v!A=="));  // foreign character
    EXPECT_FALSE(base64_decode("Zg==Zm9v"));  // padding before the end
    EXPECT_FALSE(base64_decode("Z==="));      // too much padding
    EXPECT_FALSE(base64_decode("Zm=v"));      // data after padding
    EXPECT_FALSE(base64_decode("Zm9v-_=="));  // URL-safe alphabet is not etcd's
}

TEST(EtcdReplies, ClassifiesHttpExchanges) {
    const auto ok = etcd_response_from_http(200, R"({"header":{"revision":"3"}})", "10.0.0.1:2379");
    EXPECT_EQ(ok.kind, Kind::Reply);
    EXPECT_EQ(ok.body["header"]["revision"], "3");

    const auto error = etcd_response_from_http(
        404,
        R"({"error":"etcdserver: requested lease not found","message":"etcdserver: requested lease not found","code":5})",
        "e");
    EXPECT_EQ(error.kind, Kind::ErrorReply);
    EXPECT_EQ(error.code, 5);
    EXPECT_EQ(error.error, "etcdserver: requested lease not found");

    const auto garbage = etcd_response_from_http(200, "<html>proxy error</html>", "10.0.0.1:2379");
    EXPECT_EQ(garbage.kind, Kind::Unknown) << "sent, and the answer cannot be read: it may have taken effect";
    EXPECT_EQ(garbage.error, "broken reply from 10.0.0.1:2379 (HTTP 200): <html>proxy error</html>");
    EXPECT_EQ(etcd_response_from_http(503, "", "e").kind, Kind::Unknown);
    EXPECT_EQ(etcd_response_from_http(500, R"({"code":"x"})", "e").kind, Kind::Unknown) << "a code must be an integer";
    EXPECT_EQ(etcd_response_from_http(200, "[1,2]", "e").kind, Kind::Unknown);
    EXPECT_EQ(etcd_response_from_http(200, R"({"a":)", "e").kind, Kind::Unknown) << "a reply cut short";
}

TEST(EtcdReplies, DefiniteErrorsAreThoseThatChangedNothing) {
    EXPECT_TRUE(etcd_error_is_definite(3));    // InvalidArgument
    EXPECT_TRUE(etcd_error_is_definite(5));    // NotFound
    EXPECT_FALSE(etcd_error_is_definite(14));  // Unavailable: "leader changed" may have been applied
    EXPECT_FALSE(etcd_error_is_definite(4));   // DeadlineExceeded: "request timed out"
}

TEST(EtcdReplies, Int64FieldsAreStringsNumbersOrAbsent) {
    const json o = {{"s", "42"},
                    {"n", 7},
                    {"neg", "-3"},
                    {"bad", "4x"},
                    {"empty", ""},
                    {"f", 1.5},
                    {"big", "99999999999999999999"}};
    EXPECT_EQ(etcd_int64(o, "s"), 42);
    EXPECT_EQ(etcd_int64(o, "n"), 7);
    EXPECT_EQ(etcd_int64(o, "neg"), -3);
    EXPECT_EQ(etcd_int64(o, "absent"), 0) << "proto3 JSON leaves defaults out";
    EXPECT_THROW(etcd_int64(o, "bad"), EtcdReplyError);
    EXPECT_THROW(etcd_int64(o, "empty"), EtcdReplyError);
    EXPECT_THROW(etcd_int64(o, "f"), EtcdReplyError);
    EXPECT_THROW(etcd_int64(o, "big"), EtcdReplyError);
}

TEST(EtcdReplies, LeaseGrantGivesIdAndTheGrantedTtl) {
    const auto grant = parse_lease_grant(json::parse(
        R"({"header":{"cluster_id":"1","member_id":"2","revision":"1","raft_term":"2"},"ID":"2344020261926383365","TTL":"2"})"));
    EXPECT_EQ(grant.id, 2344020261926383365);
    EXPECT_EQ(grant.ttl_s, 2) << "asked for 1 s, etcd raised it to its minimum";
    EXPECT_THROW(parse_lease_grant(json::parse(R"({"TTL":"2"})")), EtcdReplyError);
    EXPECT_THROW(parse_lease_grant(json::parse(R"({"ID":"5"})")), EtcdReplyError);
    try {
        parse_lease_grant(json::parse(R"({"ID":"5","TTL":"1","error":"too many leases"})"));
        FAIL() << "an error field must not pass";
    } catch (const EtcdReplyError& e) {
        EXPECT_STREQ(e.what(), "lease grant refused: too many leases");
    }
}

TEST(EtcdReplies, TxnSuccessGivesTheRevisionAsToken) {
    const auto taken = parse_txn(json::parse(
        R"({"header":{"revision":"2"},"succeeded":true,"responses":[{"response_put":{"header":{"revision":"2"}}}]})"));
    EXPECT_TRUE(taken.succeeded);
    EXPECT_EQ(taken.revision, 2);
    EXPECT_FALSE(taken.holder);
}

TEST(EtcdReplies, TxnFailureIsLeftOutAndNamesTheHolder) {
    const auto busy = parse_txn(json::parse(R"({"header":{"revision":"2"},"responses":[{"response_range":{"header":
        {"revision":"2"},"kvs":[{"key":"bG9jaw==","create_revision":"2","value":"dzEtMQ==","lease":"7"}],"count":"1"}}]})"));
    EXPECT_FALSE(busy.succeeded) << "proto3 JSON leaves out succeeded: false";
    EXPECT_EQ(busy.holder, "w1-1");
    const auto gone =
        parse_txn(json::parse(R"({"header":{"revision":"9"},"responses":[{"response_range":{"header":{}}}]})"));
    EXPECT_FALSE(gone.holder) << "the key vanished between compare and read: no holder to report";
}

TEST(EtcdReplies, BrokenTxnRepliesAreClearErrors) {
    EXPECT_THROW(parse_txn(json::parse(R"({"succeeded":true})")), EtcdReplyError);
    EXPECT_THROW(parse_txn(json::parse(R"({"header":{},"succeeded":true})")), EtcdReplyError);
    EXPECT_THROW(parse_txn(json::parse(R"({"header":{"revision":"2"},"succeeded":"yes"})")), EtcdReplyError);
    EXPECT_THROW(
        parse_txn(json::parse(
            R"({"header":{"revision":"2"},"responses":[{"response_range":{"kvs":[{"value":"not base64!"}]}}]})")),
        EtcdReplyError);
    try {
        parse_txn(json::parse(R"({"header":"x"})"));
        FAIL();
    } catch (const EtcdReplyError& e) {
        EXPECT_STREQ(e.what(), R"(txn reply has no object 'header': {"header":"x"})");
    }
}

TEST(EtcdReplies, KeepaliveTtlZeroMeansTheLeaseIsGone) {
    EXPECT_EQ(parse_keepalive_ttl(json::parse(R"({"result":{"header":{"revision":"3"},"ID":"7","TTL":"2"}})")), 2);
    EXPECT_EQ(parse_keepalive_ttl(json::parse(R"({"result":{"header":{"revision":"3"},"ID":"7"}})")), 0)
        << "what etcd 3.4 answered for an expired lease";
    EXPECT_THROW(parse_keepalive_ttl(json::parse(R"({"header":{}})")), EtcdReplyError);
    try {
        parse_keepalive_ttl(json::parse(R"({"error":{"grpc_code":14,"message":"etcdserver: no leader"}})"));
        FAIL();
    } catch (const EtcdReplyError& e) {
        EXPECT_STREQ(e.what(), "keepalive failed: etcdserver: no leader");
    }
}

TEST(EtcdLeaseLock, LeasesAreWholeSecondsNeverShorterThanAsked) {
    EXPECT_EQ(etcd_lease_seconds(1), 1);
    EXPECT_EQ(etcd_lease_seconds(1000), 1);
    EXPECT_EQ(etcd_lease_seconds(1001), 2);
    EXPECT_EQ(etcd_lease_seconds(2000), 2);
    EXPECT_EQ(etcd_lease_seconds(2500), 3);
}
