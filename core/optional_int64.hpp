// Optional integers of the op record in the size of the integer alone
// (docs/design.md, "Op record"): std::optional would add a flag and padding.
// The one value no recorder writes, the stored type's minimum, stands for
// "absent". Assigning it is a programming error (op_from_json refuses it in
// a history).
//
// OptionalInt64: the fencing token (any 64-bit value but INT64_MIN).
// OptionalMs: a lease in milliseconds (ttl_ms, valid_ms), stored in 32 bits
// and read as 64 (so `*ttl_ms * 1'000'000` cannot overflow); op_from_json
// keeps leases within kMaxLeaseMs (core/op.hpp), far inside 32 bits.
#pragma once

#include <cassert>
#include <cstdint>
#include <limits>
#include <optional>

namespace lockcheck {

template <typename Stored>
class OptionalInteger {
public:
    /// The one value that cannot be held: it marks "absent".
    static constexpr std::int64_t kAbsent = std::numeric_limits<Stored>::min();

    constexpr OptionalInteger() = default;
    constexpr OptionalInteger(std::nullopt_t) {}
    constexpr OptionalInteger(std::int64_t value) : value_(static_cast<Stored>(value)) {
        assert(value != kAbsent && fits(value));
    }
    constexpr OptionalInteger(const std::optional<std::int64_t>& value)
        : OptionalInteger(value ? OptionalInteger(*value) : OptionalInteger()) {}

    /// Whether `value` can be held (is in range and is not the marker of absence).
    static constexpr bool fits(std::int64_t value) {
        return value > kAbsent && value <= std::numeric_limits<Stored>::max();
    }

    constexpr bool has_value() const { return value_ != kAbsent; }
    constexpr explicit operator bool() const { return has_value(); }
    constexpr void reset() { value_ = static_cast<Stored>(kAbsent); }

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

    friend constexpr bool operator==(OptionalInteger a, OptionalInteger b) { return a.value_ == b.value_; }
    friend constexpr bool operator==(OptionalInteger a, std::nullopt_t) { return !a.has_value(); }
    friend constexpr bool operator==(OptionalInteger a, std::int64_t b) { return a.has_value() && a.value_ == b; }

private:
    Stored value_ = static_cast<Stored>(kAbsent);
};

using OptionalInt64 = OptionalInteger<std::int64_t>;
using OptionalMs = OptionalInteger<std::int32_t>;

}  // namespace lockcheck
