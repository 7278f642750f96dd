#include "commands/certify/certify_card.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "checkers/liveness.hpp"
#include "checkers/overlap_blame.hpp"

namespace lockcheck {
namespace {

constexpr const char* kYourClient = "your client";

bool forbids(const CertifyCell& cell, const std::string& kind) {
    return std::find(cell.expect.lacks.begin(), cell.expect.lacks.end(), kind) != cell.expect.lacks.end();
}

/// Whether `kind` is one of the blame table's classes (an overlap, a late
/// grant, a renew after loss), whose blame the table decides.
bool has_blame_class(const std::string& kind) {
    const auto& classes = blame_classes();
    return std::any_of(classes.begin(), classes.end(), [&](const BlameClass& c) { return c.kind == kind; });
}

/// The violation the card shows: the first the cell forbids, else the first
/// of a blame class (so an overlap the servers caused is shown, not the
/// linearizability finding it also causes, which has no blame of its own),
/// else the first.
const FoundViolation* shown_violation(const CertifyCell& cell, const CellRun& run) {
    for (const auto& v : run.violations)
        if (breaks_cell(cell, v)) return &v;
    for (const auto& v : run.violations)
        if (has_blame_class(v.kind)) return &v;
    return run.violations.empty() ? nullptr : &run.violations.front();
}

/// Why `run` does not meet `cell`'s expectation; empty when it does.
std::vector<std::string> broken_expectations(const CertifyCell& cell, const CellRun& run) {
    std::vector<std::string> out;
    if (cell.expect.valid && run.verdict != "unknown" && *cell.expect.valid != run.verdict)
        out.push_back(fmt::format("expected {}, got {}", *cell.expect.valid, run.verdict));
    for (const auto& kind : cell.expect.lacks)
        if (std::any_of(run.violations.begin(), run.violations.end(),
                        [&](const FoundViolation& v) { return v.kind == kind && breaks_cell(cell, v); }))
            out.push_back("found " + kind);
    return out;
}

std::string joined_sentences(const std::vector<std::string>& parts) {
    std::string text;
    for (const auto& p : parts) text += (text.empty() ? "" : "; ") + p;
    return text;
}

/// A violation's description without the checker's own "Whose fault: ..."
/// sentence: the card says whose fault it is under the cell.
std::string without_blame_sentence(const std::string& description) {
    const auto at = description.find(" Whose fault:");
    return at == std::string::npos ? description : description.substr(0, at);
}

/// Whether the run's violations are all overlaps neither the history nor the
/// servers' record could blame (a decided one takes another class).
bool only_undecided_overlaps(const CellRun& run) {
    return !run.violations.empty() && std::all_of(run.violations.begin(), run.violations.end(),
                                                  [](const auto& v) { return v.kind == kOverlapLeaseUncertain; });
}

/// The run's report.html, or "" when the run wrote none (a run that failed before its report).
std::string report_of(const CellRun& run) { return run.report_written ? run.run_dir + "/report.html" : ""; }

/// "seen M of N: <danger>", or "none needed".
std::string danger_words(const CellResult& c) {
    return c.needed > 0 ? fmt::format("seen {} of {}: {}", c.seen, c.needed, c.danger) : "none needed";
}

}  // namespace

std::string_view to_string(CellStatus status) {
    switch (status) {
        case CellStatus::Met: return "met";
        case CellStatus::NotMet: return "NOT MET";
        case CellStatus::Undecided: return "could not decide";
        case CellStatus::Skipped: return "skipped";
        case CellStatus::Error: return "ERROR";
        case CellStatus::NotExercised: return "not exercised";
    }
    return "?";
}

CellRun cell_run_from_results(const std::optional<RecordedResults>& results, const std::string& verdict,
                              const std::string& run_dir, double seconds, int exit_code) {
    CellRun run{verdict, {}, "", run_dir, seconds, exit_code};
    run.report_written = !run_dir.empty() && std::filesystem::exists(run_dir + "/report.html");
    if (!results) return run;
    run.unknown_reason = results->report.unknown_reason;
    for (const auto& checker : results->report.checkers) {
        if (!checker.counts_toward_verdict) continue;
        for (const auto& v : checker.violations) run.violations.push_back({v.kind, v.description, v.details});
    }
    return run;
}

std::string blame_words(const std::string& kind, const CertifyCell& cell) {
    if (kind == kLateGrant || kind == kExpiredGrant || kind == kRenewAfterLoss || kind == kGrantWithoutOwnKey ||
        kind == kRenewAfterExpiry)
        return kYourClient;
    // A lock told held past every lease: the recipe left a lock with none (a crash between SETNX and PEXPIRE).
    if (kind == kStuckLock) return kYourClient;
    if (kind == kOverlapLeaseExpired) return "inherent to lease locks: add fencing";
    if (kind == kOverlapLeaseUncertain) return "undecided";
    if (kind == kOverlapWithinLease) return cell.within_lease_is_server ? "server configuration" : kYourClient;
    // Another checker's finding (a lost update, a duplicate id...): the client's
    // where the cell allows no violation at all, else it follows the overlap
    // that caused it, which the card shows first when forbidden.
    return cell.expect.valid == std::string("valid") ? kYourClient : "undecided";
}

bool breaks_cell(const CertifyCell& cell, const FoundViolation& v) {
    if (!forbids(cell, v.kind)) return false;
    if (v.kind != kStuckLock) return true;
    const auto number = [&](const char* field) {
        const auto it = v.details.find(field);
        return it != v.details.end() && it->is_number() ? std::optional<double>(it->get<double>()) : std::nullopt;
    };
    const auto stuck = number("stuck_ms");
    const auto lease = number("lease_ms");
    return !stuck || !lease || *stuck >= *lease;
}

CellResult judge_cell(const CertifyCell& cell, const std::vector<CellRun>& runs) {
    CellResult r = skipped_cell(cell, "");
    r.runs = static_cast<int>(runs.size());
    for (const auto& run : runs) r.seconds += run.seconds;
    const CellRun* shown = runs.empty() ? nullptr : &runs.back();
    r.status = runs.empty() ? CellStatus::Skipped : CellStatus::Met;
    const auto rank = [](CellStatus s) {
        return s == CellStatus::NotMet ? 3 : s == CellStatus::Error ? 2 : s == CellStatus::Undecided ? 1 : 0;
    };
    for (const auto& run : runs) {
        CellStatus status = CellStatus::Met;
        std::string why;
        if (run.verdict == "error" || run.verdict == "bad-spec") {
            status = CellStatus::Error;
            why = fmt::format("the run failed (exit {}); see its lockcheck.log", run.exit_code);
        } else if (const auto m = broken_expectations(cell, run); !m.empty()) {
            status = CellStatus::NotMet;
            why = joined_sentences(m);
        } else if (run.verdict == "unknown") {
            status = CellStatus::Undecided;
            why = run.unknown_reason.empty() ? "the verdict is unknown" : run.unknown_reason;
        } else if (only_undecided_overlaps(run)) {  // undecided is not a pass
            status = CellStatus::Undecided;
            why =
                "every violation is an overlap the record does not blame (overlap-lease-uncertain), and the "
                "servers' own record decided none of them";
        }
        if (rank(status) > rank(r.status) || (status == r.status && status == CellStatus::Met)) {
            r.status = status;
            r.why = why;
            shown = &run;
        }
    }
    if (!shown) return r;
    r.verdict = shown->verdict;
    r.report = report_of(*shown);
    if (const auto* v = shown_violation(cell, *shown)) {
        r.first_violation = v->kind + ": " + without_blame_sentence(v->description);
        // A finding that left the verdict valid (a stuck lock) is nobody's safety fault, unless the cell forbids it.
        if (shown->verdict != "valid" || breaks_cell(cell, *v)) r.blame = blame_words(v->kind, cell);
    }
    return r;
}

CellResult skipped_cell(const CertifyCell& cell, const std::string& why) {
    std::string faults;
    for (const auto& f : cell.nemesis) faults += (faults.empty() ? "" : ",") + f;
    CellResult r;
    r.cell = cell.name;
    r.faults = faults.empty() ? "none" : faults;
    r.expected = expectation_words(cell.expect);
    r.status = CellStatus::Skipped;
    r.why = why;
    return r;
}

CellResult incomplete_cell(const CertifyCell& cell, const std::string& why) {
    CellResult r = skipped_cell(cell, why);
    r.incomplete = true;
    return r;
}

int certify_exit_code(const std::vector<CellResult>& cells) {
    bool undecided = true;  // stays so when no cell ran
    for (const auto& c : cells) {
        if (c.status == CellStatus::NotMet || c.status == CellStatus::Error) return 1;
        if (c.status == CellStatus::Met) undecided = false;
    }
    for (const auto& c : cells)
        if (c.status == CellStatus::Undecided || c.status == CellStatus::NotExercised || c.incomplete) undecided = true;
    return undecided ? 2 : 0;
}

std::string card_text(const std::vector<CellResult>& cells, const std::string& topology, double seconds) {
    std::string text = fmt::format("\nReport card: your lock client on {}\n", topology);
    int counts[6] = {0, 0, 0, 0, 0, 0};
    for (const auto& c : cells) {
        ++counts[static_cast<int>(c.status)];
        text += fmt::format("\n  {:<24} {:<17} verdict {:<8} {:>6.1f}s  (faults: {}; expected: {})\n", c.cell,
                            to_string(c.status), c.verdict, c.seconds, c.faults, c.expected);
        if (c.status != CellStatus::Skipped) text += fmt::format("    danger: {}\n", danger_words(c));
        if (!c.why.empty()) text += fmt::format("    why:    {}\n", c.why);
        if (!c.blame.empty()) text += fmt::format("    blame:  {}\n", c.blame);
        if (!c.first_violation.empty()) text += fmt::format("    first:  {}\n", c.first_violation);
        if (!c.report.empty()) text += fmt::format("    report: {}\n", c.report);
    }
    text += fmt::format(
        "\n{} cells: {} met, {} not met, {} could not decide, {} not exercised, {} skipped, {} failed to run | "
        "{:.0f}s\n",
        cells.size(), counts[0], counts[1], counts[2], counts[5], counts[3], counts[4], seconds);
    return text;
}

nlohmann::json card_json(const std::vector<CellResult>& cells, const nlohmann::json& header) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& c : cells)
        rows.push_back({{"cell", c.cell},
                        {"faults", c.faults},
                        {"expected", c.expected},
                        {"status", std::string(to_string(c.status))},
                        {"met", c.status == CellStatus::Met},
                        {"verdict", c.verdict},
                        {"blame", c.blame},
                        {"first_violation", c.first_violation},
                        {"why", c.why},
                        {"report", c.report},
                        {"runs", c.runs},
                        {"seconds", c.seconds},
                        {"evidence", {{"danger", c.danger}, {"needed", c.needed}, {"seen", c.seen}}}});
    nlohmann::json out = header;
    out["cells"] = rows;
    out["exit_code"] = certify_exit_code(cells);
    return out;
}

JUnitSuite card_junit(const std::vector<CellResult>& cells, const std::string& topology) {
    JUnitSuite suite{"lockcheck-certify-" + topology, 0, {}};
    for (const auto& c : cells) {
        JUnitCase t{c.cell, "lockcheck.certify." + topology, c.seconds, std::nullopt, "", ""};
        const std::string blame = c.blame.empty() ? "" : fmt::format(" (blame: {})", c.blame);
        if (c.status == CellStatus::NotMet || c.status == CellStatus::Error) {
            t.failure = fmt::format("expected {}, got {}: {}{}", c.expected, c.verdict, c.why, blame);
            t.failure_type = c.status == CellStatus::Error ? "error" : "expectation";
        } else if (c.status == CellStatus::Undecided) {
            t.failure = "could not decide: " + c.why;
            t.failure_type = "unknown";
        } else if (c.status == CellStatus::NotExercised) {
            t.failure = "not exercised: " + c.why;
            t.failure_type = "not-exercised";
        } else if (c.status == CellStatus::Skipped) {
            t.skipped = c.why.empty() ? std::string("not run") : c.why;
        }
        t.details = fmt::format("faults: {}\nstatus: {}\ndanger: {}\n{}{}{}", c.faults, to_string(c.status),
                                danger_words(c), c.why.empty() ? "" : "why: " + c.why + "\n",
                                c.first_violation.empty() ? "" : "first violation: " + c.first_violation + blame + "\n",
                                c.report.empty() ? "" : "report: " + c.report + "\n");
        suite.cases.push_back(std::move(t));
        suite.seconds += c.seconds;
    }
    return suite;
}

}  // namespace lockcheck
