#include "recipes/etcd_replies.hpp"

#include <charconv>

#include "core/base64.hpp"
#include "core/json_integer.hpp"
#include "core/json_text.hpp"
#include "core/utf8_text.hpp"

namespace lockcheck {
namespace {

using nlohmann::json;

std::string excerpt(const std::string& text) { return printable_excerpt(text, 120); }

const json& object_field(const json& object, std::string_view field, std::string_view what) {
    const auto it = object.find(field);
    if (it == object.end() || !it->is_object())
        throw EtcdReplyError(std::string(what) + " reply has no object '" + std::string(field) +
                             "': " + excerpt(object.dump()));
    return *it;
}

}  // namespace

EtcdResponse etcd_response_from_http(long status, const std::string& body, std::string_view endpoint) {
    EtcdResponse r;
    json parsed;
    try {
        parsed = parse_json_bounded(body);
    } catch (const JsonInputError&) {  // stays null: a broken reply
    }
    const auto code = parsed.is_object() && parsed.contains("code") ? json_integer<int>(parsed["code"]) : std::nullopt;
    if (status == 200 && parsed.is_object()) {
        r.kind = EtcdResponse::Kind::Reply;
        r.body = parsed;
    } else if (status != 200 && code) {
        r.kind = EtcdResponse::Kind::ErrorReply;
        r.code = *code;
        const auto message = parsed.find("message");
        r.error = message != parsed.end() && message->is_string() ? message->get<std::string>() : "(no message)";
    } else {
        r.kind = EtcdResponse::Kind::Unknown;
        r.error = "broken reply from " + std::string(endpoint) + " (HTTP " + std::to_string(status) +
                  "): " + (body.empty() ? std::string("(empty)") : excerpt(body));
    }
    return r;
}

bool etcd_error_is_definite(int code) {
    return code == 3 || code == 5 || code == 7 || code == 8 || code == 9 || code == 16;
}

std::int64_t etcd_int64(const json& object, std::string_view field) {
    const auto it = object.find(field);
    if (it == object.end() || it->is_null()) return 0;
    if (auto exact = json_integer<std::int64_t>(*it)) return *exact;
    if (it->is_string()) {
        const auto& text = it->get_ref<const std::string&>();
        std::int64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec == std::errc() && end == text.data() + text.size() && !text.empty()) return value;
    }
    throw EtcdReplyError("field '" + std::string(field) + "' is not an int64: " + excerpt(it->dump()));
}

LeaseGrant parse_lease_grant(const json& reply) {
    if (const auto error = reply.find("error"); error != reply.end() && error->is_string() && !error->empty())
        throw EtcdReplyError("lease grant refused: " + error->get<std::string>());
    LeaseGrant grant{etcd_int64(reply, "ID"), etcd_int64(reply, "TTL")};
    if (grant.id == 0) throw EtcdReplyError("lease grant reply has no ID: " + excerpt(reply.dump()));
    if (grant.ttl_s <= 0) throw EtcdReplyError("lease grant reply has no positive TTL: " + excerpt(reply.dump()));
    return grant;
}

TxnOutcome parse_txn(const json& reply) {
    TxnOutcome out;
    out.revision = etcd_int64(object_field(reply, "header", "txn"), "revision");
    if (out.revision <= 0) throw EtcdReplyError("txn reply has no header.revision: " + excerpt(reply.dump()));
    if (const auto s = reply.find("succeeded"); s != reply.end()) {
        if (!s->is_boolean()) throw EtcdReplyError("txn reply's 'succeeded' is not a boolean: " + excerpt(s->dump()));
        out.succeeded = s->get<bool>();
    }
    const auto responses = reply.find("responses");
    if (responses == reply.end() || !responses->is_array()) return out;
    for (const auto& response : *responses) {
        const auto range = response.find("response_range");
        if (range == response.end() || !range->contains("kvs")) continue;
        const auto& kvs = (*range)["kvs"];
        if (!kvs.is_array() || kvs.empty() || !kvs[0].is_object()) continue;
        const auto value = kvs[0].find("value");
        if (value == kvs[0].end()) {
            out.holder = "";
            break;
        }
        const auto decoded = value->is_string() ? base64_decode(value->get<std::string>()) : std::nullopt;
        if (!decoded) throw EtcdReplyError("txn reply holds a value that is not base64: " + excerpt(value->dump()));
        out.holder = *decoded;
        break;
    }
    return out;
}

std::int64_t parse_keepalive_ttl(const json& reply) {
    // A streaming endpoint reports an error inside a 200 reply: {"error": {"message": ...}}.
    if (const auto error = reply.find("error"); error != reply.end() && error->is_object())
        throw EtcdReplyError("keepalive failed: " + error->value("message", excerpt(error->dump())));
    return etcd_int64(object_field(reply, "result", "keepalive"), "TTL");
}

std::optional<std::int64_t> keepalive_revision(const json& reply) {
    const auto result = reply.find("result");
    if (result == reply.end() || !result->is_object()) return std::nullopt;
    const auto header = result->find("header");
    if (header == result->end() || !header->is_object()) return std::nullopt;
    try {
        const std::int64_t revision = etcd_int64(*header, "revision");
        return revision > 0 ? std::optional(revision) : std::nullopt;
    } catch (const EtcdReplyError&) {
        return std::nullopt;
    }
}

}  // namespace lockcheck
