#include "checkers/server_record.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace lockcheck {
namespace {

ServerEvent event_from_json(const nlohmann::json& j) {
    ServerEvent e;
    e.revision = j.at("rev").get<std::int64_t>();
    e.sub = j.value("sub", 0);
    const std::string type = j.at("type").get<std::string>();
    if (type != "PUT" && type != "DELETE") throw std::invalid_argument("type must be PUT or DELETE");
    e.deleted = type == "DELETE";
    e.key = j.at("key").get<std::string>();
    if (e.deleted) {
        e.value = j.value("prev_value", std::string());
        e.create_revision = j.value("prev_create_revision", std::int64_t{0});
        e.lease = j.value("prev_lease", std::int64_t{0});
    } else {
        e.value = j.value("value", std::string());
        e.create_revision = j.value("create_revision", std::int64_t{0});
        e.version = j.value("version", std::int64_t{0});
        e.lease = j.value("lease", std::int64_t{0});
    }
    return e;
}

ZkTxnType zk_txn_type(const std::string& type) {
    if (type == "createSession") return ZkTxnType::CreateSession;
    if (type == "closeSession") return ZkTxnType::CloseSession;
    if (type == "create") return ZkTxnType::Create;
    if (type == "delete") return ZkTxnType::Delete;
    throw std::invalid_argument("type must be createSession, closeSession, create or delete");
}

ZkTxn zk_txn_from_json(const nlohmann::json& j) {
    ZkTxn t;
    t.zxid = j.at("zxid").get<std::int64_t>();
    t.sub = j.value("sub", 0);
    t.type = zk_txn_type(j.at("type").get<std::string>());
    t.session = j.at("session").get<std::int64_t>();
    t.cxid = j.value("cxid", std::int64_t{0});
    if (t.type == ZkTxnType::Create || t.type == ZkTxnType::Delete) t.path = j.at("path").get<std::string>();
    t.owner = j.value("owner", std::string());
    t.ephemeral = j.value("ephemeral", false);
    return t;
}

void read_header(const nlohmann::json& j, ServerRecord& record) {
    record.server = j.at("server").get<std::string>();
    record.read = j.at("read").get<bool>();
    record.why = j.value("why", std::string());
    record.revision = j.value(record.server == "zookeeper" ? "zxid" : "revision", std::int64_t{0});
    record.seconds = j.value("seconds", 0.0);
}

}  // namespace

ServerRecord parse_server_record(std::string_view text) {
    ServerRecord record;
    std::size_t line_number = 0;
    try {
        for (std::size_t at = 0; at < text.size();) {
            const std::size_t end = std::min(text.find('\n', at), text.size());
            const std::string_view line = text.substr(at, end - at);
            at = end + 1;
            ++line_number;
            if (line.empty()) continue;
            const auto j = nlohmann::json::parse(line);
            if (line_number == 1)
                read_header(j, record);
            else if (record.server == "zookeeper")
                record.txns.push_back(zk_txn_from_json(j));
            else
                record.events.push_back(event_from_json(j));
        }
        if (line_number == 0) throw std::invalid_argument("the file is empty");
    } catch (const std::exception& e) {
        ServerRecord unread;
        unread.server = record.server;
        unread.why = fmt::format("server-record.jsonl line {} does not read: {}", line_number, e.what());
        return unread;
    }
    std::stable_sort(record.events.begin(), record.events.end(), [](const ServerEvent& a, const ServerEvent& b) {
        return std::pair(a.revision, a.sub) < std::pair(b.revision, b.sub);
    });
    std::stable_sort(record.txns.begin(), record.txns.end(), [](const ZkTxn& a, const ZkTxn& b) {
        return std::pair(a.zxid, a.sub) < std::pair(b.zxid, b.sub);
    });
    return record;
}

}  // namespace lockcheck
