#include "core/optional_text.hpp"

#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace lockcheck {

void OptionalText::assign(std::string_view text) {
    if (text.size() <= kInlineCapacity) {
        std::memcpy(bytes_.chars, text.data(), text.size());
        bytes_.tag = static_cast<std::uint8_t>(text.size());
        return;
    }
    if (text.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("an owner of more than 4 GiB");
    char* heap = new char[text.size()];
    std::memcpy(heap, text.data(), text.size());
    const auto size = static_cast<std::uint32_t>(text.size());
    std::memcpy(bytes_.chars, &heap, sizeof heap);
    std::memcpy(bytes_.chars + sizeof heap, &size, sizeof size);
    bytes_.tag = kOnHeap;
}

void to_json(nlohmann::json& out, const OptionalText& text) {
    if (text)
        out = std::string(*text);
    else
        out = nullptr;
}

}  // namespace lockcheck
