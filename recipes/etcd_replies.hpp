// Replies of etcd's v3 HTTP/JSON gateway (grpc-gateway), read without I/O.
//
// The gateway speaks proto3 JSON: int64 fields are decimal strings
// ("revision":"42"), fields holding their default (0, false, empty) are
// left out, `bytes` are base64. An error is a non-200 status with
// {"error", "message", "code"} where code is the gRPC status code.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// The outcome of one request to the gateway.
struct EtcdResponse {
    enum class Kind {
        Reply,       ///< HTTP 200 with a JSON object: `body`
        ErrorReply,  ///< etcd answered with an error: `code`, `error`
        NotSent,     ///< no connection: the request certainly did not reach etcd
        Unknown,     ///< timeout or broken reply after sending: it may have taken effect
    };
    Kind kind = Kind::Unknown;
    nlohmann::json body;  ///< Reply: the reply object
    int code = 0;         ///< ErrorReply: the gRPC status code
    std::string error;    ///< ErrorReply: etcd's message; NotSent / Unknown: what happened
};

/// A reply that does not have the shape its request promises.
class EtcdReplyError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Classifies a complete HTTP exchange with `endpoint`: status 200 and a JSON
/// object -> Reply; another status and an object with an integer "code" ->
/// ErrorReply; anything else (not JSON, not an object, no code) -> Unknown,
/// "broken reply from ENDPOINT: ...", since the request was sent.
EtcdResponse etcd_response_from_http(long status, const std::string& body, std::string_view endpoint);

/// Whether an error reply with gRPC `code` certainly changed nothing:
/// InvalidArgument (3), NotFound (5), PermissionDenied (7), ResourceExhausted
/// (8), FailedPrecondition (9), Unauthenticated (16). Others (Unavailable
/// "leader changed", DeadlineExceeded "request timed out", ...) may have been
/// applied.
bool etcd_error_is_definite(int code);

/// int64 field `field` of a proto3 JSON object: a decimal string or an
/// integer; absent or null is 0. Throws EtcdReplyError naming the field otherwise.
std::int64_t etcd_int64(const nlohmann::json& object, std::string_view field);

struct LeaseGrant {
    std::int64_t id = 0;
    std::int64_t ttl_s = 0;  ///< the TTL etcd granted (it raises one below its minimum)
};
/// A /v3/lease/grant reply. Throws EtcdReplyError (no ID, TTL <= 0, a server "error" field).
LeaseGrant parse_lease_grant(const nlohmann::json& reply);

struct TxnOutcome {
    bool succeeded = false;
    std::int64_t revision = 0;          ///< header.revision: the store's revision after the txn
    std::optional<std::string> holder;  ///< value of the first key a range in the taken branch returned
};
/// A /v3/kv/txn reply. Throws EtcdReplyError (no header.revision, a
/// non-boolean "succeeded", a value that is not base64).
TxnOutcome parse_txn(const nlohmann::json& reply);

/// The TTL (s) of a /v3/lease/keepalive reply ({"result": {...}}); 0 or less
/// means the lease no longer exists. Throws EtcdReplyError without "result".
std::int64_t parse_keepalive_ttl(const nlohmann::json& reply);

/// The store's revision when the leader answered a keep-alive (its reply's
/// result.header.revision), or nullopt when the reply does not say.
std::optional<std::int64_t> keepalive_revision(const nlohmann::json& reply);

}  // namespace lockcheck
