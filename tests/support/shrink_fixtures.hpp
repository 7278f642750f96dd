// A failing run directory as `lockcheck shrink` reads it, for the tests of
// shrink's input and of what it does with candidates that cannot run.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace lockcheck::testing {

inline void write_text(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

/// A run directory of redis-holder-pause that failed with overlap-lease-expired:
/// two holders at once, a pause-holder fault started at 1 s (id 1) and one at 5 s (id 2).
inline void write_failing_run(const std::filesystem::path& dir) {
    write_text(dir / "spec.json", R"({"name": "redis-holder-pause", "workers": 2, "seed": 7,
                                 "expect": {"valid": false, "has": ["overlap-within-lease"]}})");
    write_text(dir / "nemesis-schedule.json",
               R"([{"id": 1, "kind": "pause-holder", "at_ms": 1000, "duration_ms": 1500, "target_delay_ms": 20, "pick": 3},
              {"id": 2, "fault": "pause-holder", "at_ms": 5000, "duration_ms": 1500}])");
    write_text(dir / "results.json", R"({"valid": false, "checkers": {
        "mutual-exclusion": {"valid": false, "violations": [{"kind": "overlap-lease-expired"}]},
        "advisory": {"valid": false, "counts_toward_verdict": false, "violations": [{"kind": "late-grant"}]}}})");
    write_text(dir / "history.jsonl",
               R"({"index":0,"time":1000000000,"process":"nemesis","type":"invoke","f":"start-fault","value":{"fault":"pause-holder","id":1}}
{"index":1,"time":1000000000,"process":"nemesis","type":"info","f":"start-fault","value":{"fault":"pause-holder","id":1,"targets":["worker 0"]}}
)");
}

}  // namespace lockcheck::testing
