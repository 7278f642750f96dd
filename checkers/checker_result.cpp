#include "checkers/checker_result.hpp"

namespace lockcheck {

std::string_view to_string(Validity validity) {
    switch (validity) {
        case Validity::Valid: return "valid";
        case Validity::Invalid: return "invalid";
        case Validity::Unknown: return "unknown";
    }
    return "unknown";
}

nlohmann::json validity_to_json(Validity validity) {
    switch (validity) {
        case Validity::Valid: return true;
        case Validity::Invalid: return false;
        case Validity::Unknown: return "unknown";
    }
    return "unknown";
}

Validity combine(Validity a, Validity b) {
    if (a == Validity::Invalid || b == Validity::Invalid) return Validity::Invalid;
    if (a == Validity::Unknown || b == Validity::Unknown) return Validity::Unknown;
    return Validity::Valid;
}

}  // namespace lockcheck
