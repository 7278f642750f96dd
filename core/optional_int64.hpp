// std::optional<std::int64_t> in 8 bytes instead of 16, for the op record's
// token and ttl_ms (docs/design.md, "Op record"): the one value no recorder
// writes, INT64_MIN, stands for "absent". Assigning INT64_MIN is a
// programming error (op_from_json refuses it in a history).
#pragma once

#include <cassert>
#include <cstdint>
#include <limits>
#include <optional>

namespace lockcheck {

class OptionalInt64 {
public:
    /// The one value that cannot be held: it marks "absent".
    static constexpr std::int64_t kAbsent = std::numeric_limits<std::int64_t>::min();

    constexpr OptionalInt64() = default;
    constexpr OptionalInt64(std::nullopt_t) {}
    constexpr OptionalInt64(std::int64_t value) : value_(value) { assert(value != kAbsent); }
    constexpr OptionalInt64(const std::optional<std::int64_t>& value) : value_(value.value_or(kAbsent)) {}

    constexpr bool has_value() const { return value_ != kAbsent; }
    constexpr explicit operator bool() const { return has_value(); }
    constexpr void reset() { value_ = kAbsent; }

    /// The value; only when has_value() (as with std::optional).
    constexpr std::int64_t operator*() const { return value_; }
    /// The value; throws std::bad_optional_access when absent.
    constexpr std::int64_t value() const {
        if (!has_value()) throw std::bad_optional_access();
        return value_;
    }
    constexpr std::int64_t value_or(std::int64_t otherwise) const { return has_value() ? value_ : otherwise; }
    constexpr operator std::optional<std::int64_t>() const {
        return has_value() ? std::optional<std::int64_t>(value_) : std::nullopt;
    }

    friend constexpr bool operator==(OptionalInt64 a, OptionalInt64 b) { return a.value_ == b.value_; }
    friend constexpr bool operator==(OptionalInt64 a, std::nullopt_t) { return !a.has_value(); }
    friend constexpr bool operator==(OptionalInt64 a, std::int64_t b) { return a.has_value() && a.value_ == b; }

private:
    std::int64_t value_ = kAbsent;
};

}  // namespace lockcheck
