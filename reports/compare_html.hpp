// compare.html: the grid of `lockcheck compare` as one self-contained page:
// a bar chart (inline SVG) of overlaps within the lease, after the lease
// expired, and lost updates per run for every cell (bar: the mean; dot: each
// run), with axis titles and, for a cell without bars, why; then the table,
// linking every run's report.html.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace lockcheck {

/// `compare` is compare.json: {"spec", "varies", "runs", "seeds", "cells": [cell_to_json...]}.
std::string render_compare_html(const nlohmann::json& compare);

}  // namespace lockcheck
