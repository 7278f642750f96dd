#include "core/op.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "core/json_integer.hpp"

namespace lockcheck {
namespace {

constexpr std::array<std::string_view, 12> kKnownFs{fn::kAcquire,   fn::kRelease,    fn::kRenew,      fn::kRead,
                                                    fn::kWrite,     fn::kHold,       fn::kStartFault, fn::kStopFault,
                                                    fn::kStockInit, fn::kDecrement,  fn::kStockRead,  fn::kGenerateId};

constexpr std::array<std::pair<OpType, std::string_view>, 4> kTypeNames{{
    {OpType::Invoke, "invoke"},
    {OpType::Ok, "ok"},
    {OpType::Fail, "fail"},
    {OpType::Info, "info"},
}};

const nlohmann::json& required(const nlohmann::json& object, const char* field) {
    auto it = object.find(field);
    if (it == object.end()) throw OpFormatError(std::string("missing field '") + field + "'");
    return *it;
}

std::int64_t integer_field(const nlohmann::json& value, const char* field) {
    const auto integer = json_integer<std::int64_t>(value);
    if (!integer) throw OpFormatError(std::string("field '") + field + "' must be a 64-bit integer");
    return *integer;
}

/// An integer that may be absent in an Op (token, ttl_ms): any but the one
/// value that marks "absent" there.
std::int64_t optional_integer_field(const nlohmann::json& value, const char* field) {
    const std::int64_t integer = integer_field(value, field);
    if (integer == OptionalInt64::kAbsent) throw OpFormatError(std::string("field '") + field + "' is out of range");
    return integer;
}

std::string string_field(const nlohmann::json& value, const char* field) {
    if (!value.is_string()) throw OpFormatError(std::string("field '") + field + "' must be a string");
    return value.get<std::string>();
}

template <typename Field, typename Parse>
void optional_field(const nlohmann::json& object, const char* field, Field& out, Parse parse) {
    auto it = object.find(field);
    if (it != object.end() && !it->is_null()) out = parse(*it, field);
}

// The rules of the op contract beyond the fields' types, one at a time, in
// the order op_from_json applies them.

void check_index(std::int64_t index) {
    if (index < 0) throw OpFormatError("field 'index' must not be negative");
}

void check_time(std::int64_t time) {
    if (time < 0) throw OpFormatError("field 'time' must not be negative (ns since the run started)");
}

void check_f(const Op& op) {
    if (!is_known_f(op.f)) throw OpFormatError("field 'f' names no known op: '" + op.f + "'");
    const bool fault = op.f == fn::kStartFault || op.f == fn::kStopFault;
    if (op.is_nemesis() && !fault)
        throw OpFormatError("the nemesis records only start-fault and stop-fault, not " + op.f);
    if (!op.is_nemesis() && fault) throw OpFormatError(op.f + " is recorded by process \"nemesis\" only");
}

/// A lease in ms: ttl_ms from 1, valid_ms from -kMaxLeaseMs, both up to kMaxLeaseMs.
std::int64_t check_lease_ms(std::int64_t ms, const char* field) {
    const bool ttl = std::string_view(field) == "ttl_ms";
    if (ms > kMaxLeaseMs || ms < (ttl ? 1 : -kMaxLeaseMs))
        throw OpFormatError(std::string("field '") + field + "' must be " + (ttl ? "from 1" : "from -3600000") +
                            " to 3600000 ms (1 h), not " + std::to_string(ms));
    return ms;
}

std::int64_t lease_ms_field(const nlohmann::json& value, const char* field) {
    return check_lease_ms(integer_field(value, field), field);
}

void check_leases(const Op& op) {
    if (op.ttl_ms) check_lease_ms(*op.ttl_ms, "ttl_ms");
    if (op.valid_ms) check_lease_ms(*op.valid_ms, "valid_ms");
}

constexpr const char* kProcessRule = "field 'process' must be a non-negative integer or \"nemesis\"";

}  // namespace

bool is_known_f(std::string_view f) { return std::find(kKnownFs.begin(), kKnownFs.end(), f) != kKnownFs.end(); }

std::string_view to_string(OpType type) {
    for (const auto& [t, name] : kTypeNames)
        if (t == type) return name;
    return "?";
}

std::optional<OpType> op_type_from_string(std::string_view text) {
    for (const auto& [t, name] : kTypeNames)
        if (name == text) return t;
    return std::nullopt;
}

nlohmann::json op_to_json(const Op& op) {
    nlohmann::json j;
    j["index"] = op.index;
    j["time"] = op.time;
    if (op.is_nemesis())
        j["process"] = "nemesis";
    else
        j["process"] = op.process;
    j["type"] = to_string(op.type);
    j["f"] = op.f;
    if (!op.key.empty()) j["key"] = op.key;
    if (!op.value.is_null()) j["value"] = op.value;
    if (op.token) j["token"] = *op.token;
    if (op.error) j["error"] = *op.error;
    if (op.node) j["node"] = *op.node;
    if (op.ttl_ms) j["ttl_ms"] = *op.ttl_ms;
    if (op.valid_ms) j["valid_ms"] = *op.valid_ms;
    if (op.owner) j["owner"] = *op.owner;
    if (op.resource) j["resource"] = *op.resource;
    return j;
}

Op op_from_json(const nlohmann::json& object) {
    if (!object.is_object()) throw OpFormatError("record is not a JSON object");
    Op op;
    op.index = integer_field(required(object, "index"), "index");
    check_index(op.index);
    op.time = integer_field(required(object, "time"), "time");
    check_time(op.time);
    const auto& process = required(object, "process");
    if (process.is_string() && process.get<std::string>() == "nemesis")
        op.process = kNemesisProcess;
    else if (const auto number = json_integer<int>(process); number && *number >= 0)
        op.process = *number;
    else
        throw OpFormatError(kProcessRule);
    auto type = op_type_from_string(string_field(required(object, "type"), "type"));
    if (!type) throw OpFormatError("field 'type' must be one of invoke, ok, fail, info");
    op.type = *type;
    op.f = string_field(required(object, "f"), "f");
    check_f(op);
    if (auto it = object.find("key"); it != object.end() && !it->is_null()) op.key = string_field(*it, "key");
    if (auto it = object.find("value"); it != object.end()) op.value = *it;
    optional_field(object, "token", op.token, optional_integer_field);
    optional_field(object, "error", op.error, string_field);
    optional_field(object, "node", op.node, string_field);
    optional_field(object, "ttl_ms", op.ttl_ms, lease_ms_field);
    optional_field(object, "valid_ms", op.valid_ms, lease_ms_field);
    optional_field(object, "owner", op.owner, string_field);
    optional_field(object, "resource", op.resource, string_field);
    return op;
}

void check_op_contract(const Op& op) {
    check_index(op.index);
    check_time(op.time);
    if (op.process < 0 && !op.is_nemesis()) throw OpFormatError(kProcessRule);
    check_f(op);
    check_leases(op);
}

}  // namespace lockcheck
