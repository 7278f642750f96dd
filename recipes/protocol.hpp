// The worker protocol, version 1: JSON lines between the controller and a lock
// client process (docs/protocol.md is the public contract). The controller
// writes requests to the worker's stdin; the worker writes one reply per
// request to stdout, echoing its id.
//
//   handshake: {"id":0,"f":"init","protocol":1,"process":3,"recipe":"redis-set-nx-px",
//               "topology":"redis-single","nodes":["10.77.5.1:6379"],"server_timeout_ms":1000,"run_id":"...",
//               "auth":{"user":"default","password":"..."},"ttl_ms":1000}
//          ->  {"id":0,"type":"ok","protocol":1,"client":"...","supports":["fencing"]}
//   request:  {"id":7,"f":"acquire","key":"lock","owner":"w3-17","ttl_ms":1000}
//             {"id":8,"f":"read","key":"lock"}            resource access checkpoint
//             {"id":9,"f":"write","key":"lock","value":6} resource access checkpoint
//             {"id":10,"f":"release","key":"lock","owner":"w3-17"}
//   reply:    {"id":7,"type":"ok","token":42}      optional "valid_ms": 950, the lease left at the grant
//             {"id":10,"type":"fail","error":"not-owner"}
//             {"id":11,"type":"info","error":"timeout"}
// `fail` means the op certainly did not take effect; `info` that it may have.
// An acquire `fail` with error "held" is a definite "someone else holds it".
// read/write are checkpoints of the critical section: the worker answers as
// soon as it processes them (a paused worker answers late), and the
// controller applies the access to the protected resource at that moment.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "clusters/servers/server_credentials.hpp"
#include "core/op.hpp"

namespace lockcheck {

inline constexpr int kProtocolVersion = 1;

struct WorkerRequest {
    std::int64_t id = 0;
    std::string f;
    std::string key;
    std::optional<std::string> owner;
    std::optional<std::int64_t> ttl_ms;
    nlohmann::json value;
};

struct WorkerReply {
    std::int64_t id = 0;
    OpType type = OpType::Info;
    std::optional<std::int64_t> token;
    std::optional<std::string> error;
    nlohmann::json value;  ///< evidence the recipe reports (null when none), e.g. {"removed_owner": "w2-9"}
    /// Optional, on an acquire's or renew's ok: the validity the client had
    /// left when it received the grant (negative: already expired), in ms
    /// within ±1 h. Recorded on the op as valid_ms.
    std::optional<std::int64_t> valid_ms = std::nullopt;
};

class ProtocolError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::string encode(const WorkerRequest& request);
std::string encode(const WorkerReply& reply);
/// Throw ProtocolError naming what is wrong with the line.
WorkerRequest decode_request(const std::string& line);
WorkerReply decode_reply(const std::string& line);

/// The controller's first request: what the worker needs to know to connect.
struct WorkerInit {
    int process = 0;
    std::string recipe;
    std::string topology;
    std::vector<std::string> nodes;  ///< "host:port" of every node, in node order
    std::int64_t server_timeout_ms = 1000;
    std::string run_id;
    /// Settings of the recipe (spec field recipe_options), an object; {} when none.
    nlohmann::json recipe_options = nlohmann::json::object();
    /// How to log in to the servers (the run's fresh password); absent for
    /// topologies without a login (ZooKeeper, etcd). Never logged.
    std::optional<ClientCredentials> auth;
    /// The run's lease (spec ttl_ms), the one every acquire asks for: a
    /// session-based client (ZooKeeper, etcd) can open its session with it at
    /// init. Absent when the controller does not send it.
    std::optional<std::int64_t> ttl_ms = std::nullopt;
};

/// The worker's answer to init.
struct WorkerHello {
    std::string client;                 ///< free text naming the client
    std::vector<std::string> supports;  ///< e.g. "fencing" (acquire returns tokens), "renew"
};

std::string encode_init(const WorkerInit& init);
/// Throws ProtocolError unless `line` is an init of protocol version 1. The
/// error never quotes the line: it may hold a password.
WorkerInit decode_init(const std::string& line);
std::string encode_hello(const WorkerHello& hello);
/// Throws ProtocolError unless `line` is an ok reply to init speaking version 1;
/// a fail reply becomes "worker refused init: <its error>".
WorkerHello decode_hello(const std::string& line);

}  // namespace lockcheck
