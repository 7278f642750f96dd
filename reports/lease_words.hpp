// What report.html says about the two leases at an overlap, by its blame
// class (checkers/overlap_blame.hpp): whose fault it is, and the bounds the
// record proves. A lease begins somewhere between its acquire's invoke and
// its grant's arrival, so lockcheck states what is certain: "still had at
// least X ms" (from the invoke), "had certainly expired X ms before" (from
// the latest possible grant), and for an undecided overlap both ends.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "checkers/checker_result.hpp"

namespace lockcheck {

/// `overlap` is a mutual-exclusion finding (ops: earlier invoke, earlier ok,
/// later ok, ...; details: first_lease_left_ms, first_lease_over_by_ms,
/// late_process, second_valid_ms); `linked_ops` maps op indices to op records
/// (ReportModel::linked_ops). E.g. "its lease had certainly expired 704.6 ms
/// before this grant arrived, but it still acted as the holder: every lease
/// lock without fencing does this when its holder stalls".
std::string lease_words(const Violation& overlap, const nlohmann::json& linked_ops);

}  // namespace lockcheck
