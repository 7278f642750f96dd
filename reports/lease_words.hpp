// What report.html says about the earlier holder's lease at an overlap.
//
// lockcheck counts a lease from the acquire's invoke (invoke + ttl_ms): the
// earliest moment the lock service can have started it. A lease really starts
// somewhere between the invoke and the grant (a ZooKeeper session counts from
// its last contact, and a queued acquire waits before it is granted), so "had
// expired X ms before" is an upper bound and "had X ms left" a lower bound.
// The words say so, and give the figure counted from the grant as well when
// the acquire waited for it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "checkers/checker_result.hpp"

namespace lockcheck {

/// `overlap` is a mutual-exclusion finding (ops: earlier invoke, earlier ok,
/// later ok, ...; details: first_lease_left_ms); `linked_ops` maps op indices
/// to op records (ReportModel::linked_ops). E.g. "its lease had expired up to
/// 1704.6 ms before (counted from its acquire's invoke; the acquire waited
/// 1650.0 ms for the grant: counted from the grant, 54.6 ms), but it still
/// acted as the holder".
std::string lease_words(const Violation& overlap, const nlohmann::json& linked_ops);

}  // namespace lockcheck
