#include "recipes/protocol.hpp"

#include <concepts>

#include "core/json_integer.hpp"
#include "core/json_text.hpp"
#include "core/json_writer.hpp"
#include "core/utf8_text.hpp"

namespace lockcheck {
namespace {

// Lines come from another process: the reasons quote them only through
// printable_excerpt, so a message (and the history record it ends up in) is
// valid UTF-8 whatever bytes the line held. An init is never quoted (it
// carries a password): `quote` false.
nlohmann::json parse_object(const std::string& line, bool quote = true) {
    const std::string shown = quote ? ": " + printable_excerpt(line) : "";
    nlohmann::json j;
    try {
        j = parse_json_bounded(line);
    } catch (const JsonInputError& e) {
        throw ProtocolError(std::string(e.what()) + shown);
    }
    if (!j.is_object()) throw ProtocolError("not a JSON object" + shown);
    return j;
}

std::int64_t id_of(const nlohmann::json& j) {
    auto it = j.find("id");
    const auto id = it == j.end() ? std::nullopt : json_integer<std::int64_t>(*it);
    if (!id) throw ProtocolError("missing integer 'id'");
    return *id;
}

template <typename T>
std::optional<T> optional_of(const nlohmann::json& j, const char* field) {
    auto it = j.find(field);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if constexpr (std::integral<T>) {
        const auto integer = json_integer<T>(*it);
        if (!integer) throw ProtocolError(std::string("field '") + field + "' must be an integer in range");
        return integer;
    }
    try {
        return it->get<T>();
    } catch (const nlohmann::json::exception&) {
        throw ProtocolError(std::string("field '") + field + "' has the wrong type");
    }
}

}  // namespace

// Requests and replies go one per op each way: they are written without a
// DOM (core/json_writer.hpp), the fields in name order as nlohmann's object
// keeps them, so the lines are the ones dump_json wrote before.
std::string encode(const WorkerRequest& request) {
    std::string line;
    JsonObjectAppender object(line);
    object.text("f", request.f);
    object.integer("id", request.id);
    object.text("key", request.key);
    if (request.owner) object.text("owner", *request.owner);
    if (request.ttl_ms) object.integer("ttl_ms", *request.ttl_ms);
    if (!request.value.is_null()) object.value("value", request.value);
    object.close();
    return line;
}

std::string encode(const WorkerReply& reply) {
    std::string line;
    JsonObjectAppender object(line);
    if (reply.error) object.text("error", *reply.error);
    object.integer("id", reply.id);
    if (reply.token) object.integer("token", *reply.token);
    object.text("type", to_string(reply.type));
    if (reply.valid_ms) object.integer("valid_ms", *reply.valid_ms);
    if (!reply.value.is_null()) object.value("value", reply.value);
    object.close();
    return line;
}

WorkerRequest decode_request(const std::string& line) {
    const auto j = parse_object(line);
    WorkerRequest r;
    r.id = id_of(j);
    r.f = optional_of<std::string>(j, "f").value_or("");
    if (r.f.empty()) throw ProtocolError("missing 'f'");
    r.key = optional_of<std::string>(j, "key").value_or("");
    r.owner = optional_of<std::string>(j, "owner");
    r.ttl_ms = optional_of<std::int64_t>(j, "ttl_ms");
    if (auto it = j.find("value"); it != j.end()) r.value = *it;
    return r;
}

WorkerReply decode_reply(const std::string& line) {
    const auto j = parse_object(line);
    WorkerReply r;
    r.id = id_of(j);
    const auto type = op_type_from_string(optional_of<std::string>(j, "type").value_or(""));
    if (!type || *type == OpType::Invoke) throw ProtocolError("'type' must be ok, fail or info");
    r.type = *type;
    r.token = optional_of<std::int64_t>(j, "token");
    r.error = optional_of<std::string>(j, "error");
    if (auto it = j.find("value"); it != j.end()) r.value = *it;
    r.valid_ms = optional_of<std::int64_t>(j, "valid_ms");
    if (r.valid_ms && (*r.valid_ms > kMaxLeaseMs || *r.valid_ms < -kMaxLeaseMs))
        throw ProtocolError("field 'valid_ms' must be from -3600000 to 3600000 (ms, 1 h)");
    return r;
}

namespace {

void expect_version(const nlohmann::json& j, const char* who) {
    const auto version = optional_of<int>(j, "protocol");
    if (version != kProtocolVersion)
        throw ProtocolError(std::string(who) + " speaks protocol " +
                            (version ? std::to_string(*version) : std::string("(none)")) + ", not " +
                            std::to_string(kProtocolVersion));
}

}  // namespace

std::string encode_init(const WorkerInit& init) {
    nlohmann::json j{{"id", 0},
                     {"f", "init"},
                     {"protocol", kProtocolVersion},
                     {"process", init.process},
                     {"recipe", init.recipe},
                     {"topology", init.topology},
                     {"nodes", init.nodes},
                     {"server_timeout_ms", init.server_timeout_ms},
                     {"run_id", init.run_id},
                     {"recipe_options", init.recipe_options}};
    if (init.auth) j["auth"] = {{"user", init.auth->user}, {"password", init.auth->password}};
    if (init.ttl_ms) j["ttl_ms"] = *init.ttl_ms;
    return dump_json(j);
}

WorkerInit decode_init(const std::string& line) {
    const auto j = parse_object(line, false);
    if (optional_of<std::string>(j, "f") != "init") throw ProtocolError("expected the init request first");
    expect_version(j, "controller");
    WorkerInit init;
    init.process = optional_of<int>(j, "process").value_or(0);
    init.recipe = optional_of<std::string>(j, "recipe").value_or("");
    init.topology = optional_of<std::string>(j, "topology").value_or("");
    init.nodes = optional_of<std::vector<std::string>>(j, "nodes").value_or(std::vector<std::string>{});
    init.server_timeout_ms = optional_of<std::int64_t>(j, "server_timeout_ms").value_or(1000);
    init.run_id = optional_of<std::string>(j, "run_id").value_or("");
    init.ttl_ms = optional_of<std::int64_t>(j, "ttl_ms");
    if (auto it = j.find("recipe_options"); it != j.end() && !it->is_null()) {
        if (!it->is_object()) throw ProtocolError("'recipe_options' must be an object");
        init.recipe_options = *it;
    }
    if (auto it = j.find("auth"); it != j.end() && !it->is_null()) {
        if (!it->is_object()) throw ProtocolError("'auth' must be an object");
        init.auth = ClientCredentials{optional_of<std::string>(*it, "user").value_or(""),
                                      optional_of<std::string>(*it, "password").value_or("")};
    }
    return init;
}

std::string encode_hello(const WorkerHello& hello) {
    return dump_json(nlohmann::json{{"id", 0},
                                    {"type", "ok"},
                                    {"protocol", kProtocolVersion},
                                    {"client", hello.client},
                                    {"supports", hello.supports}});
}

WorkerHello decode_hello(const std::string& line) {
    const auto j = parse_object(line);
    if (id_of(j) != 0) throw ProtocolError("expected the reply to init (id 0)");
    const auto type = optional_of<std::string>(j, "type").value_or("");
    if (type == "fail" || type == "info")
        throw ProtocolError("worker refused init: " + optional_of<std::string>(j, "error").value_or("(no reason)"));
    if (type != "ok") throw ProtocolError("reply to init has no type ok");
    expect_version(j, "worker");
    WorkerHello hello;
    hello.client = optional_of<std::string>(j, "client").value_or("");
    hello.supports = optional_of<std::vector<std::string>>(j, "supports").value_or(std::vector<std::string>{});
    return hello;
}

}  // namespace lockcheck
