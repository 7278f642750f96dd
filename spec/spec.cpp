#include "spec/spec.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>

#include "checkers/violation_kinds.hpp"
#include "core/json_integer.hpp"
#include "core/json_text.hpp"
#include "core/regular_file.hpp"
#include "nemesis/schedule_json.hpp"

namespace lockcheck {
namespace {

/// Reads fields of one JSON object, naming the source and field in errors.
class FieldReader {
public:
    FieldReader(const nlohmann::json& object, std::string source) : object_(object), source_(std::move(source)) {
        if (!object_.is_object()) fail("", "must be a JSON object");
    }

    [[noreturn]] void fail(const std::string& field, const std::string& reason) const {
        throw SpecError("spec " + source_ + (field.empty() ? "" : ": field '" + field + "'") + " " + reason);
    }

    const nlohmann::json* find(const char* field) {
        seen_.insert(field);
        auto it = object_.find(field);
        return it == object_.end() ? nullptr : &*it;
    }

    void string(const char* field, std::string& out) {
        if (auto* v = find(field)) {
            if (!v->is_string()) fail(field, "must be a string");
            out = v->get<std::string>();
        }
    }

    template <typename Int>
    void integer(const char* field, Int& out, std::int64_t min) {
        if (auto* v = find(field)) {
            const auto integer = json_integer<Int>(*v);
            if (!integer || *integer < min) fail(field, "must be an integer >= " + std::to_string(min));
            out = *integer;
        }
    }

    void number(const char* field, double& out) {
        if (auto* v = find(field)) {
            if (!v->is_number() || !(v->get<double>() > 0) || !std::isfinite(v->get<double>()))
                fail(field, "must be a positive number");
            out = v->get<double>();
        }
    }

    void boolean(const char* field, bool& out) {
        if (auto* v = find(field)) {
            if (!v->is_boolean()) fail(field, "must be true or false");
            out = v->get<bool>();
        }
    }

    void strings(const char* field, std::vector<std::string>& out) {
        if (auto* v = find(field)) {
            if (!v->is_array() || !std::all_of(v->begin(), v->end(), [](auto& e) { return e.is_string(); }))
                fail(field, "must be a list of strings");
            out = v->get<std::vector<std::string>>();
        }
    }

    void range(const char* field, Range& out) {
        if (auto* v = find(field)) {
            std::optional<std::int64_t> low, high;
            if (v->is_array() && v->size() == 2) {
                low = json_integer<std::int64_t>((*v)[0]);
                high = json_integer<std::int64_t>((*v)[1]);
            }
            if (!low || !high || *low < 0 || *low > *high) fail(field, "must be [min, max] with 0 <= min <= max");
            out = {*low, *high};
        }
    }

    /// Fails on the first field nobody asked for.
    void reject_unknown() const {
        for (const auto& [key, value] : object_.items())
            if (!seen_.count(key)) fail(key, "is not a known field");
    }

private:
    const nlohmann::json& object_;
    std::string source_;
    std::set<std::string> seen_;
};

/// Reads the fields of every registered fault's options into `fault_options`.
void read_fault_options(FieldReader& r, nlohmann::json& fault_options) {
    for (const auto& fault : fault_descriptors())
        for (const auto& option : fault.options)
            if (auto* v = r.find(option.name.c_str())) {
                const auto stored = option.read(*v);
                if (!stored) r.fail(option.name, option.form);
                fault_options[option.name] = *stored;
            }
}

/// Fails on the first of `kinds` that no checker reports (a typo would otherwise never match, and a
/// `lacks` with it would always be met), naming the field, the word and the known kinds.
void refuse_unknown_kinds(const FieldReader& r, const char* field, const std::vector<std::string>& kinds) {
    for (const auto& kind : kinds) {
        if (is_violation_kind(kind)) continue;
        std::string known;
        for (const auto k : violation_kinds()) known += (known.empty() ? "" : ", ") + std::string(k);
        r.fail(field, "holds " + nlohmann::json(kind).dump() + ", which is no violation kind (known: " + known + ")");
    }
}

Expectation expectation_from_json(const nlohmann::json& object, const std::string& source) {
    FieldReader r(object, source + " expect");
    Expectation e;
    if (auto* v = r.find("valid")) {
        if (v->is_boolean())
            e.valid = v->get<bool>() ? "valid" : "invalid";
        else if (v->is_string() && v->get<std::string>() == "unknown")
            e.valid = "unknown";
        else
            r.fail("valid", "must be true, false or \"unknown\"");
    }
    r.strings("has", e.has);
    r.strings("lacks", e.lacks);
    refuse_unknown_kinds(r, "has", e.has);
    refuse_unknown_kinds(r, "lacks", e.lacks);
    r.reject_unknown();
    return e;
}

}  // namespace

Range Spec::fault_duration() const {
    if (fault_duration_ms) return *fault_duration_ms;
    return {ttl_ms * 3 / 2, ttl_ms * 5 / 2};
}

Spec spec_from_json(const nlohmann::json& object, const std::string& source) {
    FieldReader r(object, source);
    Spec s;
    r.string("name", s.name);
    r.string("description", s.description);
    r.strings("labels", s.labels);
    r.string("recipe", s.recipe);
    r.string("topology", s.topology);
    r.string("persistence", s.persistence);
    r.boolean("zookeeper_force_sync", s.durability.zookeeper_force_sync);
    r.integer("mariadb_flush_log_at_trx_commit", s.durability.mariadb_flush_log_at_trx_commit, 0);
    r.integer("mariadb_sync_binlog", s.durability.mariadb_sync_binlog, 0);
    r.boolean("mariadb_doublewrite", s.durability.mariadb_doublewrite);
    r.boolean("etcd_fsync", s.durability.etcd_fsync);
    r.boolean("redis_aof_load_truncated", s.durability.redis_aof_load_truncated);
    r.string("network", s.network);
    r.string("runtime", s.runtime);
    r.string("image", s.image);
    r.string("hosts", s.hosts);
    r.integer("workers", s.workers, 1);
    r.integer("keys", s.keys, 1);
    r.integer("ttl_ms", s.ttl_ms, 1);
    r.range("hold_ms", s.hold_ms);
    r.range("think_ms", s.think_ms);
    r.string("hold_timed_by", s.hold_timed_by);
    r.number("time_limit_s", s.time_limit_s);
    r.integer("max_ops", s.max_ops, 1);
    if (auto* v = r.find("seed"); v && !v->is_null()) {
        const auto seed = json_integer<std::uint64_t>(*v);
        if (!seed) r.fail("seed", "must be a non-negative integer");
        s.seed = *seed;
    }
    r.strings("nemesis", s.nemesis);
    r.range("nemesis_gap_ms", s.nemesis_gap_ms);
    if (auto* v = r.find("fault_duration_ms"); v && !v->is_null()) {
        Range d;
        r.range("fault_duration_ms", d);
        s.fault_duration_ms = d;
    }
    r.boolean("fencing", s.fencing);
    r.integer("op_timeout_ms", s.op_timeout_ms, 1);
    r.integer("server_timeout_ms", s.server_timeout_ms, 1);
    if (auto* v = r.find("expect"); v && !v->is_null()) s.expect = expectation_from_json(*v, source);
    if (auto* v = r.find("recipe_options"); v && !v->is_null()) {
        if (!v->is_object()) r.fail("recipe_options", "must be an object");
        s.recipe_options = *v;
    }
    if (auto* v = r.find("client_cmd"); v && !v->is_null()) {
        if (!v->is_string() || v->get<std::string>().empty()) r.fail("client_cmd", "must be a non-empty string");
        s.client_cmd = v->get<std::string>();
    }
    r.integer("nodes", s.nodes, 0);
    read_fault_options(r, s.fault_options);
    if (auto* v = r.find("schedule"); v && !v->is_null()) {
        try {
            s.schedule = schedule_from_json(*v);
        } catch (const ScheduleFormError& e) {
            r.fail("schedule", e.what());
        }
        if (!object.contains("nemesis")) s.nemesis = schedule_kinds(*s.schedule);
    }
    r.string("shrunk_from", s.shrunk_from);
    r.reject_unknown();
    return s;
}

Spec read_spec(const std::filesystem::path& path) {
    if (const auto why = not_a_regular_file(path)) throw SpecError("spec " + path.string() + ": " + *why);
    std::ifstream in(path);
    if (!in) throw SpecError("spec " + path.string() + ": cannot open");
    nlohmann::json j;
    try {
        j = parse_json_bounded(in, kMaxJsonDepth, DuplicateKeys::Refused);
    } catch (const JsonInputError& e) {
        throw SpecError("spec " + path.string() + ": " + e.what());
    }
    return spec_from_json(j, path.string());
}

nlohmann::json spec_to_json(const Spec& s) {
    nlohmann::json j{{"name", s.name},
                     {"description", s.description},
                     {"labels", s.labels},
                     {"recipe", s.recipe},
                     {"topology", s.topology},
                     {"persistence", s.persistence},
                     {"zookeeper_force_sync", s.durability.zookeeper_force_sync},
                     {"mariadb_flush_log_at_trx_commit", s.durability.mariadb_flush_log_at_trx_commit},
                     {"mariadb_sync_binlog", s.durability.mariadb_sync_binlog},
                     {"mariadb_doublewrite", s.durability.mariadb_doublewrite},
                     {"etcd_fsync", s.durability.etcd_fsync},
                     {"redis_aof_load_truncated", s.durability.redis_aof_load_truncated},
                     {"network", s.network},
                     {"runtime", s.runtime},
                     {"image", s.image},
                     {"hosts", s.hosts},
                     {"workers", s.workers},
                     {"keys", s.keys},
                     {"ttl_ms", s.ttl_ms},
                     {"hold_ms", {s.hold_ms.min, s.hold_ms.max}},
                     {"think_ms", {s.think_ms.min, s.think_ms.max}},
                     {"hold_timed_by", s.hold_timed_by},
                     {"time_limit_s", s.time_limit_s},
                     {"max_ops", s.max_ops},
                     {"nemesis", s.nemesis},
                     {"nemesis_gap_ms", {s.nemesis_gap_ms.min, s.nemesis_gap_ms.max}},
                     {"fault_duration_ms", {s.fault_duration().min, s.fault_duration().max}},
                     {"fencing", s.fencing},
                     {"op_timeout_ms", s.op_timeout_ms},
                     {"server_timeout_ms", s.server_timeout_ms}};
    j["seed"] = s.seed ? nlohmann::json(*s.seed) : nlohmann::json(nullptr);
    if (s.client_cmd) j["client_cmd"] = *s.client_cmd;
    if (!s.recipe_options.empty()) j["recipe_options"] = s.recipe_options;
    j["nodes"] = s.nodes;
    j.update(s.fault_options);
    if (s.schedule) j["schedule"] = schedule_to_json(*s.schedule);
    if (!s.shrunk_from.empty()) j["shrunk_from"] = s.shrunk_from;
    if (s.expect) {
        nlohmann::json e{{"has", s.expect->has}, {"lacks", s.expect->lacks}};
        if (s.expect->valid)
            e["valid"] =
                *s.expect->valid == "unknown" ? nlohmann::json("unknown") : nlohmann::json(*s.expect->valid == "valid");
        j["expect"] = e;
    }
    return j;
}

}  // namespace lockcheck
