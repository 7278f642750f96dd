#include "run/run_flags.hpp"

#include "core/json_text.hpp"
#include "run/replay.hpp"
#include "spec/scenario_catalog.hpp"

namespace lockcheck {
namespace {

/// The faults of --nemesis: "none", or names separated by commas. An empty
/// name ('' or "a,,b") is refused: it would silently mean fewer faults.
std::vector<std::string> nemesis_faults(const std::string& text) {
    if (text == "none") return {};
    std::vector<std::string> parts{""};
    for (char c : text) {
        if (c == ',')
            parts.emplace_back();
        else
            parts.back().push_back(c);
    }
    for (const auto& part : parts)
        if (part.empty())
            throw SpecError("flag --nemesis: " + dump_json(nlohmann::json(text)) +
                            " has an empty fault name; name faults separated by commas, or none for no faults");
    return parts;
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
    return out.empty() ? "none" : out;
}

}  // namespace

ResolvedRun resolve_run(const RunFlags& f) {
    ResolvedRun resolved;
    Spec& spec = resolved.spec;
    spec = f.replay ? replay_spec(*f.replay) : f.spec.empty() ? Spec{} : read_spec(find_scenario(f.spec));
    if (f.name) spec.name = *f.name;
    if (f.time_limit) spec.time_limit_s = *f.time_limit;
    if (f.seed) spec.seed = *f.seed;
    if (f.workers) spec.workers = *f.workers;
    if (f.ttl_ms) spec.ttl_ms = *f.ttl_ms;
    if (f.nemesis) {
        const auto faults = nemesis_faults(*f.nemesis);
        if (spec.expect && faults != spec.nemesis) {
            resolved.expectation_not_applicable = "the scenario's expectation was stated for nemesis " +
                                                  joined(spec.nemesis) + ", and --nemesis " + joined(faults) +
                                                  " replaced it: the run is judged by its verdict alone";
            spec.expect.reset();
        }
        spec.nemesis = faults;
    }
    if (f.fencing) spec.fencing = true;
    if (f.network) spec.network = *f.network;
    if (f.runtime) spec.runtime = *f.runtime;
    if (f.hosts) spec.hosts = *f.hosts;
    if (f.client_cmd) spec.client_cmd = *f.client_cmd;
    return resolved;
}

}  // namespace lockcheck
