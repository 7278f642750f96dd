// Interned text for the op record's fields that repeat: f, key, error, node
// and resource. A Symbol is one pointer into a process-wide table that holds
// each distinct text once and never frees it, so copying, comparing and
// storing one costs what a pointer does, and an Op stays small
// (docs/design.md, "Op record"). Only fields whose distinct values are few
// belong here: a run has a handful of keys, nodes and error messages, so the
// table stays small however many ops there are. Owners (one per acquire) do
// not: they stay strings.
//
// Symbol reads like a const std::string: it converts to `const std::string&`
// and to `std::string_view`, compares with both and with string literals.
// OptionalSymbol is the same with "absent", with the interface of
// std::optional<std::string> that the op record's users rely on.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace lockcheck {

namespace symbol_table {
/// The table's copy of `text`, added on first sight. Thread-safe.
const std::string* intern(std::string_view text);
/// The table's copy of "".
const std::string* empty();
/// How many distinct texts the table holds (for tests and benchmarks).
std::size_t size();
}  // namespace symbol_table

class Symbol {
public:
    Symbol() : text_(symbol_table::empty()) {}
    Symbol(std::string_view text) : text_(symbol_table::intern(text)) {}
    Symbol(const std::string& text) : Symbol(std::string_view(text)) {}
    Symbol(const char* text) : Symbol(std::string_view(text)) {}

    Symbol& operator=(std::string_view text) { return *this = Symbol(text); }
    Symbol& operator=(const std::string& text) { return *this = Symbol(text); }
    Symbol& operator=(const char* text) { return *this = Symbol(text); }

    const std::string& str() const { return *text_; }
    std::string_view view() const { return *text_; }
    operator const std::string&() const { return *text_; }
    operator std::string_view() const { return *text_; }

    const char* c_str() const { return text_->c_str(); }
    const char* data() const { return text_->data(); }
    std::size_t size() const { return text_->size(); }
    bool empty() const { return text_->empty(); }

    /// Equal texts are one table entry, so this compares pointers.
    friend bool operator==(const Symbol& a, const Symbol& b) { return a.text_ == b.text_; }
    friend bool operator==(const Symbol& a, std::string_view b) { return a.view() == b; }
    friend bool operator==(const Symbol& a, const std::string& b) { return a.view() == b; }
    friend bool operator==(const Symbol& a, const char* b) { return a.view() == b; }
    /// Orders by text, as std::string does.
    friend auto operator<=>(const Symbol& a, const Symbol& b) { return a.view() <=> b.view(); }

    /// Concatenation, as with std::string (for messages).
    friend std::string operator+(const Symbol& a, std::string_view b) { return std::string(a.view()).append(b); }
    friend std::string operator+(std::string_view a, const Symbol& b) { return std::string(a).append(b.view()); }

private:
    friend class OptionalSymbol;
    explicit Symbol(const std::string* text) : text_(text) {}
    const std::string* text_;
};

/// std::optional<Symbol> in one pointer: null is absent.
class OptionalSymbol {
public:
    OptionalSymbol() = default;
    OptionalSymbol(std::nullopt_t) {}
    OptionalSymbol(const Symbol& symbol) : text_(symbol.text_) {}
    OptionalSymbol(std::string_view text) : text_(symbol_table::intern(text)) {}
    OptionalSymbol(const std::string& text) : OptionalSymbol(std::string_view(text)) {}
    OptionalSymbol(const char* text) : OptionalSymbol(std::string_view(text)) {}
    OptionalSymbol(const std::optional<std::string>& text) {
        if (text) text_ = symbol_table::intern(*text);
    }

    OptionalSymbol& operator=(std::nullopt_t) { return reset(), *this; }
    OptionalSymbol& operator=(const Symbol& symbol) { return *this = OptionalSymbol(symbol); }
    OptionalSymbol& operator=(std::string_view text) { return *this = OptionalSymbol(text); }
    OptionalSymbol& operator=(const std::string& text) { return *this = OptionalSymbol(text); }
    OptionalSymbol& operator=(const char* text) { return *this = OptionalSymbol(text); }
    OptionalSymbol& operator=(const std::optional<std::string>& text) { return *this = OptionalSymbol(text); }

    bool has_value() const { return text_ != nullptr; }
    explicit operator bool() const { return has_value(); }
    void reset() { text_ = nullptr; }

    /// The text; only when has_value() (as with std::optional).
    const std::string& operator*() const { return *text_; }
    const std::string* operator->() const { return text_; }
    /// The text; throws std::bad_optional_access when absent.
    const std::string& value() const;
    std::string value_or(std::string_view otherwise) const {
        return has_value() ? *text_ : std::string(otherwise);
    }
    /// The symbol; only when has_value().
    Symbol symbol() const { return Symbol(text_); }
    /// As a std::optional<std::string> (a copy).
    std::optional<std::string> to_optional() const {
        return has_value() ? std::optional<std::string>(*text_) : std::nullopt;
    }

    friend bool operator==(const OptionalSymbol& a, const OptionalSymbol& b) { return a.text_ == b.text_; }
    friend bool operator==(const OptionalSymbol& a, std::nullopt_t) { return !a.has_value(); }
    friend bool operator==(const OptionalSymbol& a, std::string_view b) { return a.has_value() && *a.text_ == b; }
    friend bool operator==(const OptionalSymbol& a, const std::string& b) { return a.has_value() && *a.text_ == b; }
    friend bool operator==(const OptionalSymbol& a, const char* b) { return a.has_value() && *a.text_ == b; }
    friend bool operator==(const OptionalSymbol& a, const Symbol& b) { return a.text_ == &b.str(); }
    friend bool operator==(const OptionalSymbol& a, const std::optional<std::string>& b) {
        return a.has_value() ? b && *a.text_ == *b : !b;
    }

private:
    const std::string* text_ = nullptr;
};

std::ostream& operator<<(std::ostream& out, const Symbol& symbol);

void to_json(nlohmann::json& out, const Symbol& symbol);
void to_json(nlohmann::json& out, const OptionalSymbol& symbol);

}  // namespace lockcheck

template <>
struct std::hash<lockcheck::Symbol> {
    std::size_t operator()(const lockcheck::Symbol& symbol) const noexcept {
        return std::hash<std::string_view>{}(symbol.view());
    }
};
