// Jepsen's history.edn: the history in the form Jepsen's own tools read
// (knossos, elle, jepsen.independent), one op map per line.
//
// Mapping (docs/checkers.md, "Exporting to Jepsen"):
//   :index, :time (ns)      as recorded;
//   :process                the worker number, or :nemesis;
//   :type                   :invoke | :ok | :fail | :info;
//   :f                      the op's f as a keyword (:acquire, :release, :renew,
//                           :read, :write, :start-fault, ...);
//   :value  lock ops        [key owner] - a jepsen.independent tuple, so
//                           independent/checker + knossos' mutex model check each
//                           key; owner is a string, or nil when absent;
//           read / write    [key value], value converted from JSON;
//           nemesis ops     the value converted from JSON (a map with keyword keys);
//           anything else   [key value] when it has a key, else the value;
//   extra keys, when present: :token, :error (a keyword when it is one word,
//   else a string), :node, :ttl-ms, :owner.
// JSON converts as: null -> nil, objects -> maps (keyword keys where valid,
// else string keys), arrays -> vectors, strings/numbers/booleans as themselves.
#pragma once

#include <ostream>
#include <string>

#include "core/history.hpp"

namespace lockcheck {

/// Writes every op of the history as one EDN map per line.
void write_edn(const History& history, std::ostream& out);

/// One op as an EDN map (no newline).
std::string op_to_edn(const Op& op);

}  // namespace lockcheck
