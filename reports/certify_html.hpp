// certify.html: the report card of `lockcheck certify` as one self-contained
// page: the header (client, topology, totals), then one row per cell with its
// fault, status, verdict, whose fault its first violation is, why, and a link
// to the cell's run report. Every text escaped.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// `card` is certify.json: {"topology", "client_cmd", "seconds", "exit_code",
/// "cells": [{"cell", "faults", "expected", "status", "met", "verdict",
/// "blame", "first_violation", "why", "report", ...}]}.
std::string render_certify_html(const nlohmann::json& card);

}  // namespace lockcheck
