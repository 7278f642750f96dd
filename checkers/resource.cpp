#include "checkers/resource.hpp"

#include "checkers/checker_names.hpp"
#include "checkers/lock_history.hpp"
#include "checkers/worker_resource.hpp"
#include "core/counted.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <map>
#include <optional>

namespace lockcheck {
namespace {

/// Overwritten writes a lost update lists (all are counted): n writers that
/// all read before any wrote would otherwise list n^2 / 2 writes in all.
constexpr std::size_t kOverwrittenListed = 20;

struct KeyState {
    std::vector<std::int64_t> accepted_writes;  ///< history indices, in the order they took effect
    std::optional<std::int64_t> max_token;
    std::int64_t max_token_op = kNoOp;
};

struct LastRead {
    std::size_t version = 0;  ///< accepted writes of the key when the read took effect
    std::int64_t op = kNoOp;
};

/// The write `op` with `token`, accepted although the key had seen a newer token.
Violation stale_write(const Op& op, std::int64_t token, const KeyState& key) {
    return {kStaleWriteAccepted,
            {op.index, key.max_token_op},
            fmt::format("worker {} wrote '{}' at op {} with token {} after the resource had seen token {} at op {}",
                        op.process, op.key, op.index, token, *key.max_token, key.max_token_op),
            {{"key", op.key}, {"token", token}, {"newer_token", *key.max_token}}};
}

/// The write `op` from `read`, which overwrote the writes the key accepted since.
Violation lost_update(const Op& op, const LastRead& read, const KeyState& key) {
    Violation v{kLostUpdate, {read.op}, "", {{"key", op.key}}};
    const auto first_overwritten = key.accepted_writes.begin() + static_cast<std::ptrdiff_t>(read.version);
    const auto overwritten_total = static_cast<std::size_t>(key.accepted_writes.end() - first_overwritten);
    const std::vector<std::int64_t> overwritten(
        first_overwritten,
        first_overwritten + static_cast<std::ptrdiff_t>(std::min(overwritten_total, kOverwrittenListed)));
    v.ops.insert(v.ops.end(), overwritten.begin(), overwritten.end());
    v.ops.push_back(op.index);
    v.description =
        fmt::format("worker {} wrote '{}' at op {} from its read at op {}, overwriting {} update(s) made since",
                    op.process, op.key, op.index, read.op, overwritten_total);
    v.details["overwritten"] = overwritten;
    v.details["overwritten_total"] = overwritten_total;
    return v;
}

}  // namespace

CheckerResult check_resource(const History& history, const std::vector<std::int64_t>& partner) {
    CheckerResult result;
    result.name = std::string(checker_name::kResource);
    std::map<std::string, KeyState> keys;
    std::map<std::pair<int, std::string>, LastRead> last_read;
    std::size_t reads = 0, writes = 0, fenced = 0, lost = 0, stale = 0;
    WorkerResourceCheck worker;  // accesses the workers performed themselves: judged by value

    for (std::size_t p = 0; p < history.size(); ++p) {
        const Op& op = history[p];
        if (op.is_invoke() || op.is_nemesis() || (op.f != fn::kRead && op.f != fn::kWrite)) continue;
        const Op& invoke = history[static_cast<std::size_t>(partner[p])];
        if (worker_owned(invoke, op)) {
            worker.add(op);
            continue;
        }
        const auto token = invoke.token ? invoke.token : op.token;
        KeyState& key = keys[op.key];
        if (op.type == OpType::Fail && op.error == err::kFenced) {
            ++fenced;
            continue;
        }
        if (op.type != OpType::Ok) continue;

        if (op.f == fn::kRead) {
            ++reads;
            last_read[{op.process, op.key}] = {key.accepted_writes.size(), op.index};
        } else {
            ++writes;
            if (token && key.max_token && *token < *key.max_token) {
                ++stale;
                result.violations.push_back(stale_write(op, *token, key));
            }
            auto read = last_read.find({op.process, op.key});
            if (read != last_read.end() && read->second.version < key.accepted_writes.size()) {
                ++lost;
                result.violations.push_back(lost_update(op, read->second, key));
            }
            key.accepted_writes.push_back(op.index);
            if (read != last_read.end()) last_read.erase(read);
        }
        if (token && (!key.max_token || *token > *key.max_token)) {
            key.max_token = token;
            key.max_token_op = op.index;
        }
    }
    worker.finish(result.violations);
    result.valid = result.violations.empty() ? Validity::Valid : Validity::Invalid;
    result.stats = {{"reads", reads + worker.reads()},
                    {"writes_accepted", writes + worker.writes()},
                    {"fenced", fenced},
                    {"lost_updates", lost + worker.lost()},
                    {"stale_writes_accepted", stale}};
    if (worker.reads() + worker.writes() + worker.indeterminate_writes() > 0)
        result.stats["worker_owned"] = {{"reads", worker.reads()},
                                        {"writes_committed", worker.writes()},
                                        {"writes_indeterminate", worker.indeterminate_writes()},
                                        {"check", "by value: two committed writes of one value are a lost update"}};
    return result;
}

namespace {

std::string resource_summary(const CheckerResult& r) {
    return fmt::format(
        "{}, {} accepted, {} fenced, {} accepted{}", counted(stat_integer(r, "lost_updates"), "lost update"),
        counted(stat_integer(r, "stale_writes_accepted"), "stale write"),
        counted(stat_integer(r, "fenced"), "access", "accesses"), counted(stat_integer(r, "writes_accepted"), "write"),
        r.stats.contains("worker_owned") ? " (in the lock's transaction: checked by value)" : "");
}

}  // namespace

const CheckerDescriptor& resource_checker() {
    static const CheckerDescriptor descriptor{checker_name::kResource,
                                              "lost updates and stale writes on the protected resource",
                                              history_is_lock, check_resource, resource_summary};
    return descriptor;
}

}  // namespace lockcheck
