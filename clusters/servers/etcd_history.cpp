#include "clusters/servers/etcd_history.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "clusters/servers/etcd_admin_http.hpp"
#include "core/base64.hpp"

namespace lockcheck {
namespace {

/// A proto3 int64 (decimal text or a number); absent is 0.
std::int64_t int64_field(const nlohmann::json& object, const char* field) {
    const auto it = object.find(field);
    if (it == object.end() || it->is_null()) return 0;
    if (it->is_number_integer()) return it->get<std::int64_t>();
    if (it->is_string()) return std::stoll(it->get<std::string>());
    throw std::invalid_argument(std::string("field ") + field + " is no integer");
}

std::string bytes_field(const nlohmann::json& object, const char* field, std::size_t max_bytes) {
    const auto it = object.find(field);
    if (it == object.end() || !it->is_string()) return "";
    auto bytes = base64_decode(it->get<std::string>());
    if (!bytes) throw std::invalid_argument(std::string("field ") + field + " is not base64");
    if (bytes->size() > max_bytes) bytes->resize(max_bytes);
    return *bytes;
}

/// The watch stream of one member, fed line by line by libcurl.
struct WatchStream {
    std::size_t max_bytes = 0, max_value_bytes = 0;
    std::string pending;
    std::size_t bytes = 0;
    std::int64_t stop_at = 0;  ///< R, once the watch was created
    bool done = false;
    std::string failure;
    std::vector<nlohmann::json> events;
    std::map<std::int64_t, int> subs;

    /// False to stop reading: done, or a failure.
    bool take(const std::string& line) {
        const auto message = nlohmann::json::parse(line, nullptr, false);
        const auto result = message.is_object() ? message.value("result", nlohmann::json()) : nlohmann::json();
        if (!result.is_object()) return fail("an unexpected reply: " + line.substr(0, 200));
        if (result.value("canceled", false))
            return fail(fmt::format("the watch was cancelled (compacted up to revision {})",
                                    int64_field(result, "compact_revision")));
        if (result.value("created", false)) {
            stop_at = int64_field(result.value("header", nlohmann::json::object()), "revision");
            done = stop_at <= 1;  // revision 1 is the empty store: no history
            return !done;
        }
        for (const auto& event : result.value("events", nlohmann::json::array())) {
            const std::int64_t rev = int64_field(event.value("kv", nlohmann::json::object()), "mod_revision");
            events.push_back(etcd_watch_event_record(event, subs[rev]++, max_value_bytes));
            done = done || rev >= stop_at;
        }
        return !done;
    }
    bool fail(std::string why) {
        failure = std::move(why);
        return false;
    }
};

std::size_t take_watch_bytes(char* data, std::size_t size, std::size_t count, void* out) {
    auto& stream = *static_cast<WatchStream*>(out);
    stream.bytes += size * count;
    if (stream.bytes > stream.max_bytes) {
        stream.fail(fmt::format("the history is larger than {} bytes", stream.max_bytes));
        return 0;
    }
    stream.pending.append(data, size * count);
    for (auto newline = stream.pending.find('\n'); newline != std::string::npos; newline = stream.pending.find('\n')) {
        const std::string line = stream.pending.substr(0, newline);
        stream.pending.erase(0, newline + 1);
        try {
            if (!line.empty() && !stream.take(line)) return 0;  // ends the transfer
        } catch (const std::exception& e) {
            stream.fail(std::string("an event that does not read: ") + e.what());
            return 0;
        }
    }
    return size * count;
}

/// The history as `address` serves it, or why not.
EtcdHistory read_member(const std::string& address, const EtcdHistoryLimits& limits) {
    EtcdHistory out;
    out.member = address;
    const std::string url = etcd_client_url(address);
    // A linearizable read: the member has applied everything the leader committed before it answers.
    if (!etcd_admin_post(url + "/v3/kv/range", R"({"key":"AA==","range_end":"AA==","limit":"1","keys_only":true})",
                         std::min(limits.per_member, std::chrono::milliseconds(2000)))) {
        out.why = "member " + address + " did not answer a linearizable read";
        return out;
    }
    auto c = etcd_admin_handle(url + "/v3/watch", limits.per_member);
    if (!c) {
        out.why = "libcurl could not make a handle";
        return out;
    }
    const std::string body =
        R"({"create_request":{"key":"AA==","range_end":"AA==","start_revision":"1","prev_kv":true}})";
    WatchStream stream;
    stream.max_bytes = limits.max_bytes;
    stream.max_value_bytes = limits.max_value_bytes;
    curl_easy_setopt(c.get(), CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(c.get(), CURLOPT_WRITEFUNCTION, take_watch_bytes);
    curl_easy_setopt(c.get(), CURLOPT_WRITEDATA, &stream);
    const CURLcode code = curl_easy_perform(c.get());
    if (stream.done) {
        out.read = true;
        out.revision = stream.stop_at;
        out.events = std::move(stream.events);
        return out;
    }
    out.why = "member " + address + ": " +
              (!stream.failure.empty() ? stream.failure
                                       : fmt::format("the watch ended after {} events, before revision {}: {}",
                                                     stream.events.size(), stream.stop_at, curl_easy_strerror(code)));
    return out;
}

}  // namespace

nlohmann::json etcd_watch_event_record(const nlohmann::json& event, int sub, std::size_t max_value_bytes) {
    if (!event.is_object() || !event.contains("kv") || !event["kv"].is_object())
        throw std::invalid_argument("a watch event without kv");
    const auto& kv = event["kv"];
    const bool deleted = event.value("type", std::string("PUT")) == "DELETE";
    nlohmann::json record = {{"rev", int64_field(kv, "mod_revision")},
                             {"sub", sub},
                             {"type", deleted ? "DELETE" : "PUT"},
                             {"key", bytes_field(kv, "key", 4096)}};
    if (!deleted) {
        record["value"] = bytes_field(kv, "value", max_value_bytes);
        record["create_revision"] = int64_field(kv, "create_revision");
        record["version"] = int64_field(kv, "version");
        record["lease"] = int64_field(kv, "lease");
    }
    if (const auto prev = event.find("prev_kv"); prev != event.end() && prev->is_object()) {
        record["prev_value"] = bytes_field(*prev, "value", max_value_bytes);
        record["prev_create_revision"] = int64_field(*prev, "create_revision");
        record["prev_lease"] = int64_field(*prev, "lease");
    }
    return record;
}

EtcdHistory read_etcd_history(const std::vector<std::string>& addresses, const EtcdHistoryLimits& limits) {
    EtcdHistory out;
    std::string whys;
    for (const auto& address : addresses) {
        out = read_member(address, limits);
        if (out.read) return out;
        whys += (whys.empty() ? "" : "; ") + out.why;
    }
    out.why = whys.empty() ? "no member to ask" : whys;
    return out;
}

}  // namespace lockcheck
