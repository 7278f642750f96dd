// The protected resource (docs/design.md, "Worker protocol"): one integer register
// per lock key, owned by the controller. A holder reads it and later writes
// back the value it read plus one, passing its fencing token each time.
// With fencing on, an access whose token is lower than the highest token the
// register has seen is rejected (Kleppmann's fencing); reads register their
// token too, so a write by an older holder after a newer holder's read is
// rejected as well. Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace lockcheck {

class ProtectedResource {
public:
    explicit ProtectedResource(bool fencing) : fencing_(fencing) {}

    struct Access {
        bool accepted = false;
        std::int64_t value = 0;  ///< the register after the access
    };

    Access read(const std::string& key, std::optional<std::int64_t> token);
    Access write(const std::string& key, std::int64_t value, std::optional<std::int64_t> token);
    bool fencing() const { return fencing_; }

private:
    struct Register {
        std::int64_t value = 0;
        std::optional<std::int64_t> max_token;
    };
    const bool fencing_;
    std::mutex mutex_;
    std::map<std::string, Register> registers_;

    /// False when fencing rejects `token`; otherwise remembers it.
    bool admit(Register& r, std::optional<std::int64_t> token) const;
};

}  // namespace lockcheck
