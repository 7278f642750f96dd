// A lock history placed in etcd's own order (issue 42): each owner's key in
// the record (created, deleted, and why), each grant's revision, and the
// revision clock (checkers/revision_clock.hpp). What the witness decides
// from it is checkers/server_witness.hpp.
//
// What the clients report (docs/protocol.md, "What the witness reads"), all
// optional, in their ok values: an acquire's `grant_revision` (the header
// revision of the read that decided the grant), `create_revision`; a renew's
// `revision`; a release's `revision` (its delete's) and `revoke_revision`.
// Every one is an anchor of the clock.
//
// A key's owner is its value (lockcheck's owners are unique per acquire).
// Why a key went: `Released` when its own owner's ok release or revoke
// reported that revision, `DeletedByOther` when another owner's did, and
// `Expired` when no op reported it: the server revoked the lease (etcd
// records an expiry as the same DELETE as a revoke; a client that deletes
// keys without reporting the revision makes its deletes look like expiries).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "checkers/revision_clock.hpp"
#include "checkers/server_record.hpp"
#include "core/history.hpp"

namespace lockcheck {

namespace witness_field {
inline constexpr const char* kGrantRevision = "grant_revision";
inline constexpr const char* kCreateRevision = "create_revision";
inline constexpr const char* kRevision = "revision";
inline constexpr const char* kRevokeRevision = "revoke_revision";
}  // namespace witness_field

enum class KeyEnd { Alive, Released, DeletedByOther, Expired };

/// One incarnation of a key in the record: from its creating PUT to its DELETE.
struct KeyLife {
    std::string key;
    std::string owner;  ///< its value when created
    std::int64_t lease = 0;
    std::int64_t created = 0;  ///< revision
    std::int64_t deleted = 0;  ///< revision; 0 while alive at the record's end
    KeyEnd end = KeyEnd::Alive;
};

/// "released", "deleted by another client", "expired on the server", "alive".
std::string_view key_end_words(KeyEnd end);

class EtcdOrder {
public:
    /// `partner` is pair_ops(history); `record` was read (record.read).
    EtcdOrder(const History& history, const std::vector<std::int64_t>& partner, const ServerRecord& record);
    /// The first key `owner` created in the record, or null.
    const KeyLife* life_of(std::string_view owner) const;
    /// The revision of the read that decided `owner`'s grant (its acquire's
    /// ok value), or nullopt when the client did not report it.
    std::optional<std::int64_t> grant_revision(std::string_view owner) const;
    const RevisionClock& clock() const { return clock_; }
    std::size_t keys() const { return lives_.size(); }

private:
    std::map<std::string, KeyLife, std::less<>> lives_;  ///< by owner
    std::map<std::string, std::int64_t, std::less<>> grants_;
    RevisionClock clock_;
};

/// The integer field `field` of an op's object value, or nullopt.
std::optional<std::int64_t> value_integer(const Op& op, const char* field);

}  // namespace lockcheck
