// ZooKeeper's own record of a run (issue 42, docs/checkers.md "The servers'
// record"): the transaction logs every server keeps in its data directory
// (dataDir/version-2/log.<first zxid, hex>), decoded in C++ for the witness.
//
// The format (ZooKeeper 3.8, FileTxnLog; jute, big-endian): a file header
// (int magic "ZKLG", int version 2, long dbid), then per txn a long Adler-32
// checksum of the txn bytes, an int length, the txn bytes and the byte 'B'.
// The txn bytes are a TxnHeader (long clientId = the session, int cxid, long
// zxid, long time in ms on the leader's clock, int type) and the type's
// record: createSession {int timeout}, closeSession {vector<ustring> the
// ephemeral paths it removed} (3.6+), create/create2 {ustring path, buffer
// data, vector<ACL>, bool ephemeral, int parentCVersion}, delete {ustring
// path}, multi {vector<{int type, buffer record}>}. A zero length (the
// zero-filled preallocated tail), a torn entry or a checksum that does not
// match ends a file: what came before it stands.
//
// Each server logs what it accepted; a txn the ensemble committed is in a
// majority's logs. The read keeps the txns found in more than half of the
// servers' logs (a txn only a minority logged may never have committed), in
// zxid order. Session txns are kept, and creates and deletes of paths under
// the prefix. Reading the files needs no running server.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// How much one read may take.
struct ZooKeeperTxnLogLimits {
    std::chrono::milliseconds total{10000};  ///< every server's logs together
    std::size_t max_bytes = 256u << 20;      ///< of log files, all servers together
    std::size_t max_value_bytes = 256;       ///< a node's data longer than this is cut (owners are short)
};

/// One txn of a log, as the record writes it: {"zxid", "sub" (its place in a
/// multi), "session", "cxid", "time_ms", "type"} and per type:
/// createSession "timeout_ms"; closeSession "paths" (the ephemeral nodes it
/// removed, when the log lists them); create "path", "owner" (the node's
/// data), "ephemeral"; delete "path". Other types are left out.
using ZooKeeperTxn = nlohmann::json;

/// The txns of one log file's bytes, in file order, as far as they read;
/// `stopped` says why the file ended early ("" at a clean end: the
/// preallocated zero tail or the end of the bytes). Throws
/// std::invalid_argument when the bytes are no ZooKeeper transaction log.
std::vector<ZooKeeperTxn> decode_zookeeper_txn_log(std::string_view bytes, std::size_t max_value_bytes,
                                                   std::string& stopped);

/// What one read of an ensemble's logs gave.
struct ZooKeeperTxnRecord {
    bool read = false;
    std::string why;                 ///< when not read: one line
    std::int64_t zxid = 0;           ///< the last txn kept
    std::size_t servers = 0;         ///< the servers whose logs were read
    std::vector<std::string> notes;  ///< a file that ended early: which and why
    std::vector<ZooKeeperTxn> txns;  ///< kept, in zxid order
};

/// Reads every log.* of each data directory (`data_dirs`: one per server of
/// the ensemble; the logs are in its version-2/) and keeps the txns more than
/// half of them logged, filtered to the sessions and to `prefix`'s nodes.
ZooKeeperTxnRecord read_zookeeper_txn_logs(const std::vector<std::filesystem::path>& data_dirs, std::string_view prefix,
                                           const ZooKeeperTxnLogLimits& limits = {});

}  // namespace lockcheck
