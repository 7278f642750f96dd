// The report card of `lockcheck certify`: how each cell of the battery is
// judged from its run's results, whose fault a violation is, the exit code,
// and the card as terminal text, certify.json and junit.xml
// (docs/certify.md). Pure functions of constructed values: the command
// (certify_command.hpp) runs the cells, this file only judges and writes.
#pragma once

#include <optional>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/certify/certify_battery.hpp"
#include "reports/junit_xml.hpp"
#include "reports/results_json.hpp"

namespace lockcheck {

enum class CellStatus {
    Met,     ///< the run met the cell's expectation
    NotMet,  ///< a violation the cell forbids, or a verdict it does not accept
    /// UNKNOWN: nothing was granted, or the fault never struck; or every
    /// violation was an overlap nobody could be blamed for
    /// (overlap-lease-uncertain, which the servers' record did not decide)
    Undecided,
    Skipped,  ///< not run: its fault is not in this build, or the spec was refused
    Error,    ///< the run failed (harness error); counts as not met
    /// met its expectation, but its runs saw the cell's danger fewer times
    /// than needed (commands/certify/certify_evidence.hpp): says nothing
    NotExercised,
};
std::string_view to_string(CellStatus status);

/// One violation of a run, as results.json lists it.
struct FoundViolation {
    std::string kind;
    std::string description;
    nlohmann::json details = nlohmann::json::object();  ///< its "details" (a stuck lock's stuck_ms, lease_ms)
};

/// What one run of a cell concluded, taken from its RunOutcome and results.json.
struct CellRun {
    std::string verdict;  ///< "valid" | "invalid" | "unknown" | "error" | "bad-spec"
    std::vector<FoundViolation> violations;  ///< of the checkers that count toward the verdict, in order
    std::string unknown_reason;              ///< why UNKNOWN, when it is
    std::string run_dir;                     ///< empty when the run made none
    double seconds = 0;
    int exit_code = 0;
    std::int64_t danger_seen = 0;  ///< how often the cell's danger came about in this run
    bool report_written = false;   ///< whether run_dir holds a report.html the card may link
};
/// The CellRun of a run's results.json (`results`; none when it was not written);
/// report_written says whether the run left its report.html in run_dir.
CellRun cell_run_from_results(const std::optional<RecordedResults>& results, const std::string& verdict,
                              const std::string& run_dir, double seconds, int exit_code);

/// A cell as the card shows it.
struct CellResult {
    std::string cell;      ///< CertifyCell::name
    std::string faults;    ///< "pause-holder", or "none"
    std::string expected;  ///< expectation_words
    CellStatus status = CellStatus::Skipped;
    std::string verdict = "-";
    std::string blame;            ///< whose fault the first violation is, in words; "" without one
    std::string first_violation;  ///< "kind: description"; "" without one
    std::string why;              ///< why not met / undecided / skipped, in words
    std::string report;           ///< the judged run's report.html; "" without a run
    int runs = 0;
    double seconds = 0;
    /// A skip that leaves the battery short of what was asked (an interrupt,
    /// a cell the user's flags made unrunnable): the exit code is never 0.
    bool incomplete = false;
    std::string danger;     ///< the cell's danger in words; "" for a cell that needs none
    int needed = 0;         ///< how often it had to come about
    std::int64_t seen = 0;  ///< how often it came about, in all the cell's runs
};

/// Whose fault a violation of `kind` is under `cell`: "your client",
/// "inherent to lease locks: add fencing", "server configuration" or
/// "undecided" (checkers/overlap_blame.hpp; an overlap within the lease is
/// the servers' where the cell says so, else the client's recipe broke it;
/// a stuck lock, where a cell forbids it, is the client's: its recipe left a
/// lock with no lease).
std::string blame_words(const std::string& kind, const CertifyCell& cell);

/// Whether `v` breaks `cell`'s expectation: a kind the cell forbids; a
/// stuck-lock only when the lock stayed held a whole lease (details lease_ms)
/// or more past every claim on it (stuck_ms): a lease the server ends a little
/// late (etcd revokes expired leases in rounds) is no stuck lock, a lock left
/// with no lease stays for the rest of the run.
bool breaks_cell(const CertifyCell& cell, const FoundViolation& v);

/// Judges the runs of `cell` (at least one): NotMet when any run broke the
/// expectation (that run is shown), else Error when one failed, else
/// Undecided when one was UNKNOWN or found only undecided overlaps
/// (overlap-lease-uncertain: undecided is not a pass), else Met (the last run shown).
CellResult judge_cell(const CertifyCell& cell, const std::vector<CellRun>& runs);
/// A cell that was not run, and why.
CellResult skipped_cell(const CertifyCell& cell, const std::string& why);
/// A cell that was not run because the battery was cut short or the user's
/// flags made it unrunnable (CellResult::incomplete), and why.
CellResult incomplete_cell(const CertifyCell& cell, const std::string& why);

/// 0 when every cell that ran met its expectation; 1 when one did not (or
/// failed); else 2 when one could not decide, was not exercised, is
/// incomplete (an interrupt, the user's flags refused), or none ran.
int certify_exit_code(const std::vector<CellResult>& cells);

/// The card for the terminal: one block per cell, then the totals line.
std::string card_text(const std::vector<CellResult>& cells, const std::string& topology, double seconds);
/// certify.json.
nlohmann::json card_json(const std::vector<CellResult>& cells, const nlohmann::json& header);
/// junit.xml's suite: one testcase per cell; a cell not met fails (type "expectation"), an undecided one
/// fails with type "unknown", one not exercised with type "not-exercised", a skipped one is skipped
/// (<skipped message="why"/>). Every cell's system-out says "danger: seen M of N".
JUnitSuite card_junit(const std::vector<CellResult>& cells, const std::string& topology);

}  // namespace lockcheck
