// The op record: one entry of a lockcheck history (docs/design.md, "Op record").
//
// Field names follow Jepsen so its tools and habits carry over. One Op is one
// line of history.jsonl. Every invoke has exactly one completion (ok, fail or
// info) by the same process, or none if the run ended first.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/optional_int64.hpp"
#include "core/optional_text.hpp"
#include "core/symbol.hpp"
#include "core/ttl_time.hpp"

namespace lockcheck {

/// invoke: the op started; ok: it took effect; fail: it definitely did not;
/// info: unknown (timeout, connection lost) - it may or may not have taken effect.
enum class OpType : std::uint8_t { Invoke, Ok, Fail, Info };

std::string_view to_string(OpType type);
/// Parses "invoke" | "ok" | "fail" | "info"; nullopt for anything else.
std::optional<OpType> op_type_from_string(std::string_view text);

/// The longest lease an op may ask for or report (ttl_ms, valid_ms): 1 h,
/// the spec's bound on every duration (core/ttl_time.hpp).
inline constexpr std::int64_t kMaxLeaseMs = kMaxTtlMs;

/// The `process` of nemesis ops (serialised as the string "nemesis").
inline constexpr int kNemesisProcess = -1;

/// Well-known values of Op::f.
namespace fn {
inline constexpr std::string_view kAcquire = "acquire";
inline constexpr std::string_view kRelease = "release";
inline constexpr std::string_view kRenew = "renew";
inline constexpr std::string_view kRead = "read";
inline constexpr std::string_view kWrite = "write";
/// The holder's work, timed by the worker on its own clock (capability "hold"):
/// value = the ms to work; fail "validity-ended" when the lock's validity ran out first.
inline constexpr std::string_view kHold = "hold";
inline constexpr std::string_view kStartFault = "start-fault";
inline constexpr std::string_view kStopFault = "stop-fault";
// Stock workload (recipes with capability "stock", checkers/oversell.hpp):
inline constexpr std::string_view kStockInit = "stock-init";  ///< set the initial stock once (idempotent)
inline constexpr std::string_view kDecrement = "decrement";   ///< sell one if any is left
inline constexpr std::string_view kStockRead = "stock-read";  ///< read the stock left
// Unique-id workload (recipes with capability "unique-ids", checkers/unique_ids.hpp):
inline constexpr std::string_view kGenerateId = "generate-id";  ///< hand out a new id: ok value {"id": N}
}  // namespace fn

/// Whether `f` is one of the fn:: values above (the only ops lockcheck records).
bool is_known_f(std::string_view f);

/// Well-known values of Op::resource.
namespace resource_owner {
/// The read/write was performed by the worker itself, inside the lock's own
/// transaction (capability "resource"); the controller's register was not used.
inline constexpr std::string_view kWorker = "worker";
}  // namespace resource_owner

/// Well-known values of Op::error.
namespace err {
/// An acquire that failed with a definite "the lock is held by someone else"
/// answer. Any other acquire failure means "not executed" and says nothing
/// about the lock's state.
inline constexpr std::string_view kHeld = "held";
/// A release that definitely did nothing because the caller was not the owner.
inline constexpr std::string_view kNotOwner = "not-owner";
/// A resource access rejected by fencing (a token lower than one already seen).
inline constexpr std::string_view kFenced = "fenced";
/// An optimistic acquire that lost a version race (mysql-optimistic): a
/// definite "not executed", counted by the liveness checker as a conflict.
inline constexpr std::string_view kConflict = "conflict";
/// A hold (capability "hold") the worker ended early: the lock's validity, as
/// the client computed it at the grant and measures it on its own clock, ran out.
inline constexpr std::string_view kValidityEnded = "validity-ended";
/// A stock decrement that certainly sold nothing because the stock was 0.
inline constexpr std::string_view kSoldOut = "sold-out";
}  // namespace err

struct Op {
    std::int64_t index = -1;  ///< position in the history, 0-based, strictly increasing
    std::int64_t time = 0;    ///< ns since run start, one monotonic clock in the controller
    int process = 0;          ///< worker number, or kNemesisProcess
    OpType type = OpType::Invoke;
    // The fields whose values repeat (a few kinds of op, keys, nodes, error
    // messages) are interned symbols of one pointer each, the optional
    // integers 8 bytes each, the owner 16 bytes (core/symbol.hpp,
    // core/optional_int64.hpp, core/optional_text.hpp): an Op is 112 bytes
    // instead of 296, which is most of what a big history costs.
    Symbol f;                           ///< acquire, release, renew, read, write, start-fault, ...
    Symbol key;                         ///< lock name ("" when not applicable)
    nlohmann::json value;               ///< null when absent
    OptionalInt64 token;                ///< fencing token
    OptionalSymbol error;
    OptionalSymbol node;
    OptionalMs ttl_ms;                  ///< lease asked for (acquire, renew), 1 ms .. kMaxLeaseMs
    /// What the client says was left of its lease when it received the grant
    /// (an acquire's or renew's completion; negative: already expired), as
    /// Redlock computes its validity time; |valid_ms| <= kMaxLeaseMs.
    OptionalMs valid_ms;
    OptionalText owner;                 ///< owner identity of a lock op, never reused (one per acquire: not interned)
    /// Who performed a read/write: absent = the controller's register (applied
    /// at the completion's instant); resource_owner::kWorker = the worker, in
    /// the lock's transaction (completion order is then not the apply order).
    OptionalSymbol resource;

    bool is_invoke() const { return type == OpType::Invoke; }
    bool is_nemesis() const { return process == kNemesisProcess; }
};

/// Thrown for a record that does not follow the op contract.
class OpFormatError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The op as one JSON object; absent optional fields are omitted.
nlohmann::json op_to_json(const Op& op);
/// Parses one op; throws OpFormatError naming the offending field. Beyond
/// the types, rejects what no recorder writes: a negative index or time, an
/// `f` that is not a known op, a nemesis op that is not a fault (or a fault
/// by a worker), a `ttl_ms` outside 1 ms .. 1 h and a `valid_ms` beyond ±1 h.
Op op_from_json(const nlohmann::json& object);
/// The rules op_from_json applies beyond the fields' types (index and time
/// not negative, a known f, faults by the nemesis only, the leases' ranges),
/// in its order, for an Op read some other way; throws OpFormatError as it does.
void check_op_contract(const Op& op);

}  // namespace lockcheck
