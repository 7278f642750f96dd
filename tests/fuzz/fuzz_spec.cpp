// libFuzzer target: the spec parser (read as read_spec reads a file, depth
// bounded) and the resolved-spec round trip. Any input
// must end in a spec or a SpecError (one line naming the field), never a
// crash. (validate() checks names against the registries; unit tests cover it.)
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/json_text.hpp"
#include "spec/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    nlohmann::json j;
    try {
        j = lockcheck::parse_json_bounded(std::string_view(reinterpret_cast<const char*>(data), size),
                                          lockcheck::kMaxJsonDepth, lockcheck::DuplicateKeys::Refused);
    } catch (const lockcheck::JsonInputError&) {  // read_spec's one-line error
        return 0;
    }
    try {
        const lockcheck::Spec spec = lockcheck::spec_from_json(j, "fuzz");
        lockcheck::spec_from_json(lockcheck::spec_to_json(spec), "fuzz round trip");
    } catch (const lockcheck::SpecError&) {}
    return 0;
}
