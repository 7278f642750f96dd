#include "checkers/lock_history.hpp"

#include <algorithm>

namespace lockcheck {

bool is_lock_op(std::string_view f) {
    return f == fn::kAcquire || f == fn::kRelease || f == fn::kRenew || f == fn::kRead || f == fn::kWrite ||
           f == fn::kHold;
}

bool history_is_lock(const History& history) {
    return std::all_of(history.begin(), history.end(), [](const Op& op) {
        return is_lock_op(op.f) || op.f == fn::kStartFault || op.f == fn::kStopFault;
    });
}

}  // namespace lockcheck
