#include "core/symbol.hpp"

#include <array>
#include <functional>
#include <mutex>
#include <ostream>
#include <shared_mutex>
#include <unordered_set>

#include <nlohmann/json.hpp>

namespace lockcheck {
namespace {

struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
};

struct TextEqual {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const noexcept { return a == b; }
};

/// The process-wide table. A node-based set, so an entry's address never
/// changes while others are added. Never destroyed: symbols may be read by
/// static destructors and by threads still running at exit.
struct Table {
    std::shared_mutex mutex;
    std::unordered_set<std::string, TextHash, TextEqual> texts;
};

Table& table() {
    static Table* const the_table = new Table;
    return *the_table;
}

/// A small per-thread cache in front of the table, so interning the same few
/// texts over and over (every op's f and key) takes no lock.
struct RecentTexts {
    static constexpr std::size_t kSlots = 256;
    std::array<const std::string*, kSlots> slots{};
};

const std::string* intern_in_table(std::string_view text) {
    Table& t = table();
    {
        std::shared_lock lock(t.mutex);
        if (auto it = t.texts.find(text); it != t.texts.end()) return &*it;
    }
    std::unique_lock lock(t.mutex);
    return &*t.texts.emplace(text).first;
}

}  // namespace

namespace symbol_table {

const std::string* intern(std::string_view text) {
    thread_local RecentTexts recent;
    const std::string*& slot = recent.slots[TextHash{}(text) % RecentTexts::kSlots];
    if (slot != nullptr && *slot == text) return slot;
    slot = intern_in_table(text);
    return slot;
}

const std::string* empty() {
    static const std::string* const the_empty = intern("");
    return the_empty;
}

std::size_t size() {
    Table& t = table();
    std::shared_lock lock(t.mutex);
    return t.texts.size();
}

}  // namespace symbol_table

const std::string& OptionalSymbol::value() const {
    if (!has_value()) throw std::bad_optional_access();
    return *text_;
}

std::ostream& operator<<(std::ostream& out, const Symbol& symbol) { return out << symbol.view(); }

void to_json(nlohmann::json& out, const Symbol& symbol) { out = symbol.str(); }

void to_json(nlohmann::json& out, const OptionalSymbol& symbol) {
    if (symbol)
        out = *symbol;
    else
        out = nullptr;
}

}  // namespace lockcheck
