#include "recipes/protected_resource.hpp"

#include <algorithm>

namespace lockcheck {

bool ProtectedResource::admit(Register& r, std::optional<std::int64_t> token) const {
    if (!token) return !fencing_ || !r.max_token;  // fencing needs a token once tokens are in play
    if (fencing_ && r.max_token && *token < *r.max_token) return false;
    r.max_token = std::max(r.max_token.value_or(*token), *token);
    return true;
}

ProtectedResource::Access ProtectedResource::read(const std::string& key, std::optional<std::int64_t> token) {
    std::lock_guard lock(mutex_);
    Register& r = registers_[key];
    return {admit(r, token), r.value};
}

ProtectedResource::Access ProtectedResource::write(const std::string& key, std::int64_t value,
                                                   std::optional<std::int64_t> token) {
    std::lock_guard lock(mutex_);
    Register& r = registers_[key];
    if (!admit(r, token)) return {false, r.value};
    r.value = value;
    return {true, r.value};
}

}  // namespace lockcheck
