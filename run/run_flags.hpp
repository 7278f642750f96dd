// The flags of `lockcheck run` and the spec they resolve to: the spec file
// (a path or a scenario's name), a stored run to replay, or the default spec,
// with every flag that is given overriding its field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "spec/spec.hpp"

namespace lockcheck {

struct RunFlags {
    std::string spec;  ///< a spec file, or a scenario's name (find_scenario); empty: the default spec
    std::optional<double> time_limit;
    std::optional<std::uint64_t> seed;
    std::optional<int> workers;
    std::optional<std::int64_t> ttl_ms;
    std::optional<std::string> nemesis;  ///< comma-separated fault names, or "none"
    bool fencing = false;
    std::optional<std::string> network;
    std::optional<std::string> runtime;
    std::optional<std::string> hosts;  ///< runtime ssh: the hosts file
    std::optional<std::string> name;
    std::optional<std::string> client_cmd;
    std::string store = "store";
    std::optional<std::string> replay;  ///< a run directory whose spec.json (and seed) to run again
};

/// The spec a `run` runs, and why the scenario's expectation does not apply
/// to it when it does not.
struct ResolvedRun {
    Spec spec;
    /// Set when `--nemesis` replaced the scenario's faults while the scenario
    /// has an `expect`: that expectation was stated for its own faults, so it
    /// is removed from the spec and this sentence says why (the run is then
    /// judged by its verdict alone; docs/spec.md, "expect").
    std::optional<std::string> expectation_not_applicable;
};

/// Reads the spec the flags name and applies the flags to it. Throws
/// SpecError when the spec cannot be read or found.
ResolvedRun resolve_run(const RunFlags& flags);

}  // namespace lockcheck
