// Places a server's sequence numbers (etcd revisions) on the controller's
// clock, from the ops that report the number they were served at (the
// witness's anchors, docs/protocol.md "What the witness reads").
//
// An op answered with number R was served at some instant within [its
// invoke, its completion]; so an event numbered r happened after the invoke
// of every op with R < r and before the completion of every op with R >= r.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lockcheck {

struct RevisionAnchor {
    std::int64_t revision = 0;
    std::int64_t invoke_ns = 0;
    std::int64_t completion_ns = 0;
};

class RevisionClock {
public:
    explicit RevisionClock(std::vector<RevisionAnchor> anchors);
    /// (after, before) in ns: the event numbered `revision` happened after
    /// the first and before the second; nullopt where no anchor bounds it.
    std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>> place(std::int64_t revision) const;
    std::size_t anchors() const { return by_revision_.size(); }

private:
    std::vector<RevisionAnchor> by_revision_;
    std::vector<std::int64_t> latest_invoke_before_;  ///< [i]: the latest invoke among anchors [0, i]
    std::vector<std::int64_t> earliest_done_from_;    ///< [i]: the earliest completion among anchors [i, end)
};

/// " (between 3446.4 and 3811.6 ms into the run)", or the half the anchors
/// bound, or "" when none does: where `clock` places the event numbered `revision`.
std::string placed_words(const RevisionClock& clock, std::int64_t revision);

}  // namespace lockcheck
