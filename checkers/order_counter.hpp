// Order statistics over a subset of values known in advance: each value of
// a fixed set is switched in or out, and `below(bound)` counts the values in
// that are below a bound. A Fenwick tree over the sorted values: O(log n)
// per switch and count, memory linear in the values.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lockcheck {

template <typename Value>
class OrderCounter {
public:
    /// Every value that may ever be switched in, each at most once (distinct).
    explicit OrderCounter(std::vector<Value> values) : values_(std::move(values)), tree_(values_.size() + 1, 0) {
        std::sort(values_.begin(), values_.end());
    }

    /// Switches `value` (one of the values given) in (+1) or out (-1).
    void add(const Value& value, std::int32_t delta) {
        const auto at =
            static_cast<std::size_t>(std::lower_bound(values_.begin(), values_.end(), value) - values_.begin());
        for (std::size_t i = at + 1; i < tree_.size(); i += i & (~i + 1)) tree_[i] += delta;
        size_ = static_cast<std::size_t>(static_cast<std::int64_t>(size_) + delta);
    }

    /// How many values switched in are below `bound`.
    std::size_t below(const Value& bound) const {
        std::int64_t n = 0;
        for (auto i =
                 static_cast<std::size_t>(std::lower_bound(values_.begin(), values_.end(), bound) - values_.begin());
             i > 0; i -= i & (~i + 1))
            n += tree_[i];
        return static_cast<std::size_t>(n);
    }

    /// How many values are switched in.
    std::size_t size() const { return size_; }

private:
    std::vector<Value> values_;
    std::vector<std::int32_t> tree_;
    std::size_t size_ = 0;
};

}  // namespace lockcheck
