#include "clusters/servers/zookeeper_txn_log.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

namespace lockcheck {
namespace {

constexpr std::uint32_t kTxnLogMagic = 0x5A4B4C47;  // "ZKLG"
constexpr int kTxnCreate = 1;
constexpr int kTxnDelete = 2;
constexpr int kTxnMulti = 14;
constexpr int kTxnCreate2 = 15;
constexpr int kTxnCreateSession = -10;
constexpr int kTxnCloseSession = -11;
constexpr char kTxnEnd = 'B';

/// Reads jute's big-endian fields; a read past the end throws std::out_of_range.
class JuteReader {
public:
    explicit JuteReader(std::string_view bytes) : bytes_(bytes) {}
    std::size_t left() const { return bytes_.size() - at_; }
    std::string_view take(std::size_t n) {
        if (n > left()) throw std::out_of_range("truncated");
        const auto out = bytes_.substr(at_, n);
        at_ += n;
        return out;
    }
    std::int32_t int32() { return static_cast<std::int32_t>(unsigned_bytes(4)); }
    std::int64_t int64() { return static_cast<std::int64_t>(unsigned_bytes(8)); }
    bool boolean() { return take(1)[0] != 0; }
    /// A buffer or ustring: its bytes, or nullopt for jute's null (length -1).
    std::optional<std::string_view> buffer() {
        const std::int32_t n = int32();
        if (n < 0) return std::nullopt;
        return take(static_cast<std::size_t>(n));
    }
    std::string text(std::size_t max_bytes) {
        const auto b = buffer();
        return b ? std::string(b->substr(0, max_bytes)) : std::string();
    }
    void skip_acls() {
        for (std::int32_t n = int32(); n > 0; --n) {
            int32();   // perms
            buffer();  // scheme
            buffer();  // id
        }
    }

private:
    std::string_view bytes_;
    std::size_t at_ = 0;

    std::uint64_t unsigned_bytes(std::size_t n) {
        std::uint64_t v = 0;
        for (const char c : take(n)) v = (v << 8) | static_cast<unsigned char>(c);
        return v;
    }
};

std::uint32_t adler32(std::string_view bytes) {
    constexpr std::uint32_t kMod = 65521;
    std::uint32_t a = 1, b = 0;
    for (const char c : bytes) {
        a = (a + static_cast<unsigned char>(c)) % kMod;
        b = (b + a) % kMod;
    }
    return (b << 16) | a;
}

/// Decodes the record of a txn of `type` into `out`; false for a type the record leaves out.
bool decode_record(int type, JuteReader& r, ZooKeeperTxn& out, std::size_t max_value_bytes) {
    switch (type) {
        case kTxnCreateSession:
            out["type"] = "createSession";
            out["timeout_ms"] = r.int32();
            return true;
        case kTxnCloseSession: {
            out["type"] = "closeSession";
            if (r.left() < 4) return true;  // a log without the removed paths (before 3.6)
            auto paths = nlohmann::json::array();
            for (std::int32_t n = r.int32(); n > 0; --n) paths.push_back(r.text(SIZE_MAX));
            out["paths"] = std::move(paths);
            return true;
        }
        case kTxnCreate:
        case kTxnCreate2:
            out["type"] = "create";
            out["path"] = r.text(SIZE_MAX);
            out["owner"] = r.text(max_value_bytes);
            r.skip_acls();
            out["ephemeral"] = r.boolean();
            return true;
        case kTxnDelete:
            out["type"] = "delete";
            out["path"] = r.text(SIZE_MAX);
            return true;
        default: return false;
    }
}

/// The txns of one txn's bytes (a multi gives one per sub-txn it keeps).
std::vector<ZooKeeperTxn> decode_txn(std::string_view bytes, std::size_t max_value_bytes) {
    JuteReader r(bytes);
    ZooKeeperTxn base = nlohmann::json::object();
    base["session"] = r.int64();
    base["cxid"] = r.int32();
    base["zxid"] = r.int64();
    base["time_ms"] = r.int64();
    base["sub"] = 0;
    const int type = r.int32();
    std::vector<ZooKeeperTxn> out;
    if (type != kTxnMulti) {
        if (decode_record(type, r, base, max_value_bytes)) out.push_back(std::move(base));
        return out;
    }
    const std::int32_t n = r.int32();
    for (std::int32_t i = 0; i < n; ++i) {
        const int sub_type = r.int32();
        JuteReader sub(r.buffer().value_or(std::string_view()));
        ZooKeeperTxn line = base;
        line["sub"] = i;
        if (decode_record(sub_type, sub, line, max_value_bytes)) out.push_back(std::move(line));
    }
    return out;
}

/// The next entry's txn bytes, checked; nullopt at the end of the file, with
/// `stopped` saying why when the file ended early.
std::optional<std::string_view> next_txn(JuteReader& r, std::size_t offset, std::string& stopped) {
    try {
        const auto checksum = static_cast<std::uint64_t>(r.int64());
        const std::int32_t length = r.int32();
        if (length <= 0) return std::nullopt;  // the zero-filled preallocated tail
        const auto txn = r.take(static_cast<std::size_t>(length));
        if (r.take(1)[0] != kTxnEnd) {
            stopped = fmt::format("a torn entry at byte {}", offset);
            return std::nullopt;
        }
        if (checksum != adler32(txn)) {
            stopped = fmt::format("a checksum that does not match at byte {}", offset);
            return std::nullopt;
        }
        return txn;
    } catch (const std::out_of_range&) {
        stopped = fmt::format("a torn entry at byte {}", offset);
        return std::nullopt;
    }
}

}  // namespace

std::vector<ZooKeeperTxn> decode_zookeeper_txn_log(std::string_view bytes, std::size_t max_value_bytes,
                                                   std::string& stopped) {
    stopped.clear();
    JuteReader r(bytes);
    try {
        if (static_cast<std::uint32_t>(r.int32()) != kTxnLogMagic) throw std::out_of_range("no magic");
        r.int32();  // version
        r.int64();  // dbid
    } catch (const std::out_of_range&) {
        throw std::invalid_argument("not a ZooKeeper transaction log (no ZKLG header)");
    }
    std::vector<ZooKeeperTxn> txns;
    while (r.left() > 0) {
        const std::size_t offset = bytes.size() - r.left();
        const auto txn = next_txn(r, offset, stopped);
        if (!txn) return txns;
        try {
            for (auto& t : decode_txn(*txn, max_value_bytes)) txns.push_back(std::move(t));
        } catch (const std::out_of_range&) {
            stopped = fmt::format("a txn that does not decode at byte {}", offset);
            return txns;
        }
    }
    return txns;
}

namespace {

/// A data directory's log files, in zxid order of their names.
std::vector<std::filesystem::path> log_files(const std::filesystem::path& data_dir) {
    std::vector<std::pair<std::uint64_t, std::filesystem::path>> found;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(data_dir / "version-2", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("log.", 0) != 0) continue;
        try {
            found.emplace_back(std::stoull(name.substr(4), nullptr, 16), entry.path());
        } catch (const std::exception&) {
            continue;  // not a log of ZooKeeper's naming
        }
    }
    std::sort(found.begin(), found.end());
    std::vector<std::filesystem::path> out;
    for (auto& [first_zxid, path] : found) out.push_back(std::move(path));
    return out;
}

bool kept(const ZooKeeperTxn& t, std::string_view prefix) {
    const std::string type = t.at("type").get<std::string>();
    if (type == "createSession" || type == "closeSession") return true;
    return t.at("path").get<std::string>().rfind(prefix, 0) == 0;
}

/// One server's txns by (zxid, sub); reads its files within the budget.
struct ServerLogs {
    std::map<std::pair<std::int64_t, int>, ZooKeeperTxn> txns;
    bool any_file = false;
};

/// Reads `dir`'s logs into `out`; a file over the budget or past the deadline throws std::runtime_error.
void read_server_logs(const std::filesystem::path& dir, const ZooKeeperTxnLogLimits& limits, std::size_t& bytes_read,
                      std::chrono::steady_clock::time_point deadline, ServerLogs& out,
                      std::vector<std::string>& notes) {
    for (const auto& file : log_files(dir)) {
        if (std::chrono::steady_clock::now() > deadline)
            throw std::runtime_error(fmt::format("reading the logs took more than {} ms", limits.total.count()));
        const auto size = std::filesystem::file_size(file);
        bytes_read += size;
        if (bytes_read > limits.max_bytes)
            throw std::runtime_error(fmt::format("the logs are larger than {} bytes", limits.max_bytes));
        std::ifstream in(file, std::ios::binary);
        std::string bytes(size, '\0');
        if (!in.read(bytes.data(), static_cast<std::streamsize>(size))) {
            notes.push_back(file.string() + ": could not be read");
            continue;
        }
        out.any_file = true;
        std::string stopped;
        try {
            for (auto& t : decode_zookeeper_txn_log(bytes, limits.max_value_bytes, stopped))
                out.txns.try_emplace({t.at("zxid").get<std::int64_t>(), t.at("sub").get<int>()}, std::move(t));
        } catch (const std::invalid_argument& e) {
            stopped = e.what();
        }
        if (!stopped.empty()) notes.push_back(file.string() + ": ends early, " + stopped);
    }
}

}  // namespace

ZooKeeperTxnRecord read_zookeeper_txn_logs(const std::vector<std::filesystem::path>& data_dirs, std::string_view prefix,
                                           const ZooKeeperTxnLogLimits& limits) {
    ZooKeeperTxnRecord record;
    const auto deadline = std::chrono::steady_clock::now() + limits.total;
    std::size_t bytes_read = 0;
    std::vector<ServerLogs> servers(data_dirs.size());
    try {
        for (std::size_t i = 0; i < data_dirs.size(); ++i)
            read_server_logs(data_dirs[i], limits, bytes_read, deadline, servers[i], record.notes);
    } catch (const std::exception& e) {
        record.why = e.what();
        return record;
    }
    std::map<std::pair<std::int64_t, int>, std::pair<std::size_t, const ZooKeeperTxn*>> logged_by;
    for (const auto& server : servers) {
        record.servers += server.any_file ? 1 : 0;
        for (const auto& [at, t] : server.txns) {
            auto& [count, txn] = logged_by.try_emplace(at, 0, &t).first->second;
            ++count;
        }
    }
    if (record.servers == 0) {
        record.why =
            "no transaction log (version-2/log.*) in the servers' data directories on this host (a remote runtime "
            "keeps them on its own)";
        return record;
    }
    for (const auto& [at, logged] : logged_by) {
        if (logged.first * 2 <= data_dirs.size() || !kept(*logged.second, prefix)) continue;
        record.txns.push_back(*logged.second);
        record.zxid = at.first;
    }
    record.read = true;
    return record;
}

}  // namespace lockcheck
