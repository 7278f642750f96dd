#include "checkers/lock_fast_check.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <limits>

namespace lockcheck {
namespace {

constexpr std::int64_t kNone = -1;
/// After every position (positions are below kMaxLockModelPositions).
const LinPoint kEndOfTime{std::numeric_limits<std::int32_t>::max(), 0};

/// One op index (or kNone) per owner, in 32 bits as op indices are here:
/// half of what std::int64_t takes for the millions of owners of a big history.
class OpOfOwner {
public:
    explicit OpOfOwner(std::size_t owners) : ops_(owners, kAbsent) {}
    std::int64_t operator[](std::int32_t owner) const {
        const std::uint32_t op = ops_[static_cast<std::size_t>(owner)];
        return op == kAbsent ? kNone : op;
    }
    void set(std::int32_t owner, std::uint32_t op) { ops_[static_cast<std::size_t>(owner)] = op; }

private:
    static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> ops_;
};

// Sub-order of points that share a history position: a busy answer just
// before a release, the release, the next acquire, a busy answer after it.
constexpr std::uint32_t kBusyEarly = 0, kReleaseSub = 1, kAcquireSub = 2, kBusyLate = 3;

/// The point just after history position `after` (a position, never kNever).
LinPoint point(std::int64_t after, std::uint32_t sub) { return {static_cast<std::int32_t>(after), sub}; }

struct Session {
    std::uint32_t acquire = 0;
    std::int64_t release = kNone;  ///< op index, kNone when never released
    std::int64_t a_inv = 0, a_cmp = 0;
    std::int64_t r_inv = kNever;   ///< core end
    std::int64_t r_dead = kNever;  ///< the release takes effect before this (kNever: maybe never)
};

struct Fragment {
    std::vector<Session> sessions;      ///< by acquire completion
    std::size_t busy = 0;               ///< busy answers, found again in the ops when needed (a big key has millions)
    std::int64_t tail_acquire = kNone;  ///< the indeterminate acquire invoked first
    std::vector<LockFinding> findings;
    std::size_t total_findings = 0;
};

class FastCheck {
public:
    FastCheck(const KeyLockOps& key, std::size_t max_findings, const IndeterminateCover* cover)
        : key_(key), ops_(key.ops), max_(max_findings), cover_(cover) {}

    std::optional<KeyVerdict> run(std::string* outside) {
        if (!build(outside)) return std::nullopt;
        find_double_grants();
        if (f_.total_findings == 0) find_busy_while_free();
        KeyVerdict v;
        v.explained = std::move(explained_);
        v.total_explained = total_explained_;
        if (f_.total_findings > 0) {
            v.valid = Validity::Invalid;
            v.findings = std::move(f_.findings);
            v.total_findings = f_.total_findings;
            return v;
        }
        if (v.total_explained > 0) {
            v.valid = Validity::Unknown;
            v.note = fmt::format("{} busy answer{} only an indeterminate acquire's lapsed lease explains",
                                 v.total_explained, v.total_explained == 1 ? "" : "s");
            return v;
        }
        v.certificate = certificate();  // replayed by the caller (check_linearizability), as the search's is
        return v;
    }

private:
    const KeyLockOps& key_;
    const std::vector<LockOp>& ops_;
    std::size_t max_;
    const IndeterminateCover* cover_;
    Fragment f_;
    std::vector<LockFinding> explained_;
    std::size_t total_explained_ = 0;

    std::string_view owner(std::uint32_t op) const { return key_.owners[static_cast<std::size_t>(ops_[op].owner)]; }

    void report(const char* kind, std::vector<std::uint32_t> ops, std::string description) {
        if (f_.findings.size() < max_) f_.findings.push_back({kind, std::move(ops), std::move(description)});
        ++f_.total_findings;
    }

    bool build(std::string* outside) {
        reserve_lists();
        const std::size_t owners = key_.owners.size();
        OpOfOwner acquire_of(owners), release_of(owners);
        for (std::uint32_t i = 0; i < ops_.size(); ++i) {
            const LockOp& op = ops_[i];
            if (op.kind != LockOpKind::Acquire) continue;
            if (acquire_of[op.owner] != kNone) {
                *outside = fmt::format("owner '{}' acquires more than once", owner(i));
                return false;
            }
            acquire_of.set(op.owner, i);
            if (op.outcome == LockOutcome::Busy) ++f_.busy;
            if (op.outcome == LockOutcome::Unknown && f_.tail_acquire == kNone) f_.tail_acquire = i;
        }
        for (std::uint32_t i = 0; i < ops_.size(); ++i) {
            const LockOp& op = ops_[i];
            if (op.kind != LockOpKind::Release) continue;
            const std::int64_t a = acquire_of[op.owner];
            const auto outcome = a == kNone ? LockOutcome::Busy : ops_[static_cast<std::size_t>(a)].outcome;
            if (outcome == LockOutcome::Busy) {  // the owner never held the lock
                if (op.outcome == LockOutcome::Ok) {
                    std::vector<std::uint32_t> proof{i};
                    if (a != kNone) proof.insert(proof.begin(), static_cast<std::uint32_t>(a));
                    report(kReleaseWithoutHold, std::move(proof),
                           fmt::format("owner '{}' released the lock successfully but never acquired it", owner(i)));
                }
                continue;  // an indeterminate release by a non-holder can never take effect
            }
            if (outcome == LockOutcome::Unknown) {
                *outside = fmt::format("owner '{}' releases after an indeterminate acquire", owner(i));
                return false;
            }
            if (release_of[op.owner] != kNone) {
                *outside = fmt::format("owner '{}' releases more than once", owner(i));
                return false;
            }
            if (op.invoke < ops_[static_cast<std::size_t>(a)].complete) {
                *outside = fmt::format("owner '{}' releases before its acquire completed", owner(i));
                return false;
            }
            release_of.set(op.owner, i);
        }
        for (std::uint32_t i = 0; i < ops_.size(); ++i) {
            const LockOp& op = ops_[i];
            if (op.kind != LockOpKind::Acquire || op.outcome != LockOutcome::Ok) continue;
            Session s{i, release_of[op.owner], op.invoke, op.complete, kNever, kNever};
            if (s.release != kNone) {
                s.r_inv = ops_[static_cast<std::size_t>(s.release)].invoke;
                s.r_dead = ops_[static_cast<std::size_t>(s.release)].deadline();
            }
            f_.sessions.push_back(s);
        }
        std::sort(f_.sessions.begin(), f_.sessions.end(),
                  [](const Session& a, const Session& b) { return a.a_cmp < b.a_cmp; });
        return true;
    }

    /// Sizes the sessions from a count, so that a big key's list is
    /// allocated once instead of doubling as it fills.
    void reserve_lists() {
        std::size_t granted = 0;
        for (const LockOp& op : ops_) granted += op.kind == LockOpKind::Acquire && op.outcome == LockOutcome::Ok;
        f_.sessions.reserve(granted);
    }

    static bool is_busy(const LockOp& op) { return op.kind == LockOpKind::Acquire && op.outcome == LockOutcome::Busy; }

    std::vector<std::uint32_t> session_ops(const Session& s) const {
        std::vector<std::uint32_t> out{s.acquire};
        if (s.release != kNone) out.push_back(static_cast<std::uint32_t>(s.release));
        return out;
    }

    void find_double_grants() {
        const Session* widest = nullptr;  // the earlier session whose core reaches furthest
        for (const Session& s : f_.sessions) {
            if (widest && s.a_cmp < widest->r_inv) {
                auto proof = session_ops(*widest);
                proof.push_back(s.acquire);
                report(kDoubleGrant, std::move(proof),
                       fmt::format(
                           "owner '{}' acquired the lock while owner '{}' held it ({})", owner(s.acquire),
                           owner(widest->acquire),
                           widest->release == kNone ? "it never released" : "its release had not been invoked yet"));
            }
            if (!widest || s.r_inv > widest->r_inv) widest = &s;
        }
    }

    void find_busy_while_free() {
        const auto& ss = f_.sessions;
        const std::int64_t first_unknown =
            f_.tail_acquire == kNone ? kNever : ops_[static_cast<std::size_t>(f_.tail_acquire)].invoke;
        for (std::uint32_t b = 0; b < ops_.size(); ++b) {
            const LockOp& busy = ops_[b];
            if (!is_busy(busy)) continue;
            // The last session whose acquire completed inside or before the busy window.
            auto next =
                std::partition_point(ss.begin(), ss.end(), [&](const Session& s) { return s.a_cmp < busy.complete; });
            const Session* prev = next == ss.begin() ? nullptr : &*(next - 1);
            if (prev && prev->r_inv > busy.invoke) continue;  // window meets a core: held there
            const bool prev_covers = prev && busy.invoke < prev->r_dead;
            const bool next_covers = next != ss.end() ? busy.complete > next->a_inv : busy.complete > first_unknown;
            if (prev_covers || next_covers) continue;
            std::vector<std::uint32_t> proof;
            if (prev) proof = session_ops(*prev);
            proof.push_back(b);
            if (next != ss.end()) proof.push_back(next->acquire);
            std::string description =
                fmt::format("owner '{}' was told the lock was held, but it was free for the whole attempt{}", owner(b),
                            prev ? fmt::format(" (owner '{}' had released it)", owner(prev->acquire))
                                 : std::string(" (nobody had acquired it yet)"));
            if (cover_ && cover_->explains(busy)) {
                description += "; an indeterminate acquire's lease could have held it then";
                if (explained_.size() < max_) explained_.push_back({kBusyWhileFree, std::move(proof), description});
                ++total_explained_;
                continue;
            }
            report(kBusyWhileFree, std::move(proof), std::move(description));
        }
    }

    // Places a release and the next acquire so that the free gap between them is as short as possible.
    void place_gap(const Session& s, std::uint32_t next, LinPoint& release_at, LinPoint& acquire_at) const {
        const std::int64_t n_inv = ops_[next].invoke;
        if (s.r_dead > n_inv) {
            const std::int64_t p = std::max(s.r_inv, n_inv);
            release_at = point(p, kReleaseSub);
            acquire_at = point(p, kAcquireSub);
        } else {
            release_at = point(s.r_dead - 1, kReleaseSub);
            acquire_at = point(n_inv, kAcquireSub);
        }
    }

    Certificate certificate() const {
        const auto& ss = f_.sessions;
        Certificate cert;  // at most an acquire and a release per session, the tail acquire, the busy answers
        cert.reserve(2 * ss.size() + 1 + f_.busy);
        std::vector<std::pair<LinPoint, LinPoint>> held;  // [acquire, release) in order
        held.reserve(ss.size() + 1);
        const auto tail = static_cast<std::uint32_t>(f_.tail_acquire);
        LinPoint start = ss.empty() ? LinPoint{} : point(ss[0].a_inv, kAcquireSub);
        for (std::size_t k = 0; k < ss.size(); ++k) {
            const Session& s = ss[k];
            cert.push_back({s.acquire, start});
            const bool last = k + 1 == ss.size();
            const bool ends = s.release != kNone && (!last || ops_[static_cast<std::size_t>(s.release)].definite());
            if (!ends) {  // held to the end: never released, or an indeterminate last release left pending
                held.emplace_back(start, kEndOfTime);
                continue;
            }
            LinPoint release_at, next_at;
            if (!last)
                place_gap(s, ss[k + 1].acquire, release_at, next_at);
            else if (f_.tail_acquire != kNone)
                place_gap(s, tail, release_at, next_at);
            else
                release_at = point(s.r_dead - 1, kReleaseSub);  // a definite last release: r_dead is its completion
            cert.push_back({static_cast<std::uint32_t>(s.release), release_at});
            held.emplace_back(start, release_at);
            if (!last)
                start = next_at;
            else if (f_.tail_acquire != kNone) {
                cert.push_back({tail, next_at});
                held.emplace_back(next_at, kEndOfTime);
            }
        }
        if (ss.empty() && f_.tail_acquire != kNone) {
            const LinPoint at = point(ops_[tail].invoke, kAcquireSub);
            cert.push_back({tail, at});
            held.emplace_back(at, kEndOfTime);
        }
        for (std::uint32_t b = 0; b < ops_.size(); ++b)
            if (is_busy(ops_[b])) cert.push_back({b, busy_point(ops_[b], held)});
        std::sort(cert.begin(), cert.end(), [](const CertEntry& a, const CertEntry& b) { return a.at < b.at; });
        return cert;
    }

    // A point inside the busy op's window where the lock is held; the replay rejects a wrong one.
    static LinPoint busy_point(const LockOp& busy, const std::vector<std::pair<LinPoint, LinPoint>>& held) {
        auto held_at = [&](const LinPoint& p) {
            auto it = std::partition_point(held.begin(), held.end(), [&](const auto& h) { return h.first < p; });
            return it != held.begin() && p < (it - 1)->second;
        };
        for (LinPoint p : {point(busy.invoke, kBusyEarly), point(busy.invoke, kBusyLate)})
            if (held_at(p)) return p;
        const LinPoint late = point(busy.invoke, kBusyLate);
        auto it = std::partition_point(held.begin(), held.end(), [&](const auto& h) { return !(late < h.first); });
        if (it != held.end() && it->first.after < busy.complete) return {it->first.after, kBusyLate};
        return late;
    }
};

}  // namespace

std::optional<KeyVerdict> check_key_fast(const KeyLockOps& key, std::size_t max_findings, std::string* outside,
                                         const IndeterminateCover* cover) {
    return FastCheck(key, max_findings, cover).run(outside);
}

}  // namespace lockcheck
