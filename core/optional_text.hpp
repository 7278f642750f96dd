// std::optional<std::string> in 16 bytes instead of 40, for the op record's
// owner (docs/design.md, "Op record"): an owner is new for every acquire, so
// it cannot be interned, and there are as many as there are acquires. Up to
// 15 bytes are kept inline (the built-in worker's owners, "w12-3456", and
// most others); a longer text (a UUID from another client library) takes one
// heap block of exactly its size.
//
// The interface is the part of std::optional<std::string> the op record's
// users rely on; `*` and value() return the text as a std::string_view that
// lives as long as the OptionalText is neither assigned nor destroyed.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace lockcheck {

class OptionalText {
public:
    /// The longest text kept inline.
    static constexpr std::size_t kInlineCapacity = 15;

    OptionalText() = default;
    OptionalText(std::nullopt_t) {}
    OptionalText(std::string_view text) { assign(text); }
    OptionalText(const std::string& text) : OptionalText(std::string_view(text)) {}
    OptionalText(const char* text) : OptionalText(std::string_view(text)) {}
    OptionalText(const std::optional<std::string>& text) {
        if (text) assign(*text);
    }
    OptionalText(const OptionalText& other) {
        if (other) assign(*other);
    }
    OptionalText(OptionalText&& other) noexcept : bytes_(other.bytes_) { other.bytes_.tag = kAbsent; }
    ~OptionalText() { release(); }

    OptionalText& operator=(const OptionalText& other) {
        if (this != &other) *this = other ? OptionalText(*other) : OptionalText();
        return *this;
    }
    OptionalText& operator=(OptionalText&& other) noexcept {
        if (this != &other) {
            release();
            bytes_ = other.bytes_;
            other.bytes_.tag = kAbsent;
        }
        return *this;
    }
    OptionalText& operator=(std::nullopt_t) { return reset(), *this; }
    OptionalText& operator=(std::string_view text) { return *this = OptionalText(text); }
    OptionalText& operator=(const std::string& text) { return *this = OptionalText(text); }
    OptionalText& operator=(const char* text) { return *this = OptionalText(text); }
    OptionalText& operator=(const std::optional<std::string>& text) { return *this = OptionalText(text); }

    bool has_value() const { return bytes_.tag != kAbsent; }
    explicit operator bool() const { return has_value(); }
    void reset() {
        release();
        bytes_.tag = kAbsent;
    }

    /// The text; only when has_value() (as with std::optional).
    std::string_view operator*() const {
        if (bytes_.tag == kOnHeap) return {heap_pointer(), heap_size()};
        return {bytes_.chars, bytes_.tag};
    }
    /// The text; throws std::bad_optional_access when absent.
    std::string_view value() const {
        if (!has_value()) throw std::bad_optional_access();
        return **this;
    }
    std::string value_or(std::string_view otherwise) const {
        return std::string(has_value() ? **this : otherwise);
    }
    /// As a std::optional<std::string> (a copy).
    operator std::optional<std::string>() const {
        return has_value() ? std::optional<std::string>(std::string(**this)) : std::nullopt;
    }

    friend bool operator==(const OptionalText& a, const OptionalText& b) {
        return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
    }
    friend bool operator==(const OptionalText& a, std::nullopt_t) { return !a.has_value(); }
    friend bool operator==(const OptionalText& a, std::string_view b) { return a.has_value() && *a == b; }
    friend bool operator==(const OptionalText& a, const std::string& b) { return a == std::string_view(b); }
    friend bool operator==(const OptionalText& a, const char* b) { return a == std::string_view(b); }

private:
    /// The last byte: the inline length (0-15), or one of these.
    static constexpr std::uint8_t kOnHeap = 0x80;
    static constexpr std::uint8_t kAbsent = 0xFF;

    struct Bytes {
        char chars[kInlineCapacity] = {};  ///< inline text, or the heap pointer then the size
        std::uint8_t tag = kAbsent;
    };

    const char* heap_pointer() const {
        const char* pointer = nullptr;
        std::memcpy(&pointer, bytes_.chars, sizeof pointer);
        return pointer;
    }
    std::size_t heap_size() const {
        std::uint32_t size = 0;
        std::memcpy(&size, bytes_.chars + sizeof(char*), sizeof size);
        return size;
    }
    void assign(std::string_view text);
    void release() {
        if (bytes_.tag == kOnHeap) delete[] heap_pointer();
    }

    Bytes bytes_;
};

void to_json(nlohmann::json& out, const OptionalText& text);

}  // namespace lockcheck
