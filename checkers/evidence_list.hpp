// Bounded evidence for a checker whose findings can grow with the square of
// the history (every overlapping pair of 3,000 holders is 4.5 million
// findings): every finding is counted, but only the first few found and the
// worst few are kept, so memory stays linear in the history.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace lockcheck {

/// Keeps the first `first` findings offered and the `worst` worst of the
/// rest, ranked by `Worse` (a strict weak order: worse(a, b) when a is the
/// worse finding). Counts every finding offered. With a strict total order
/// the worst kept are the `worst` worst of the rest whatever order they were
/// offered in, so a caller may count findings in bulk (count) and hand over
/// only those that can be among the worst (consider).
template <typename Finding, typename Worse>
class EvidenceList {
public:
    EvidenceList(std::size_t first, std::size_t worst, Worse worse)
        : first_(first), worst_(worst), worse_(std::move(worse)) {}

    /// Counts `finding` and keeps it when it is among the first or the worst.
    void offer(Finding finding) {
        ++total_;
        if (earliest_.size() < first_) {
            earliest_.push_back(std::move(finding));
            return;
        }
        consider(std::move(finding));
    }

    /// Counts `n` findings offered through consider() or not at all: only
    /// once the first `first` are kept (total() >= first).
    void count(std::size_t n) { total_ += n; }

    /// Keeps `finding`, already counted (count), when it is among the worst.
    void consider(Finding finding) {
        if (worst_ == 0) return;
        if (worst_heap_.size() < worst_) {
            worst_heap_.push_back(std::move(finding));
            std::push_heap(worst_heap_.begin(), worst_heap_.end(), worse_);
        } else if (worse_(finding, worst_heap_.front())) {
            std::pop_heap(worst_heap_.begin(), worst_heap_.end(), worse_);
            worst_heap_.back() = std::move(finding);
            std::push_heap(worst_heap_.begin(), worst_heap_.end(), worse_);
        }
    }

    /// The least bad of the worst kept once `worst` are kept (a finding must
    /// be worse to be kept); nullptr while fewer are.
    const Finding* least_bad_kept() const {
        return worst_ > 0 && worst_heap_.size() == worst_ ? &worst_heap_.front() : nullptr;
    }

    /// Every finding offered, kept or not.
    std::size_t total() const { return total_; }

    /// The kept findings: the first ones in the order offered, then the worst
    /// of the rest, worst first.
    std::vector<Finding> take() && {
        std::sort_heap(worst_heap_.begin(), worst_heap_.end(), worse_);  // least bad last
        std::vector<Finding> kept = std::move(earliest_);
        kept.insert(kept.end(), std::make_move_iterator(worst_heap_.begin()),
                    std::make_move_iterator(worst_heap_.end()));
        return kept;
    }

private:
    std::size_t first_;
    std::size_t worst_;
    Worse worse_;
    std::size_t total_ = 0;
    std::vector<Finding> earliest_;
    std::vector<Finding> worst_heap_;  ///< a heap whose top is the least bad of the worst kept
};

}  // namespace lockcheck
