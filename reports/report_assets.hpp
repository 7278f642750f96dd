// The stylesheet and script of report.html, embedded at build time from
// reports/assets/report.css and reports/assets/report.js (see reports/CMakeLists.txt).
#pragma once

#include <string_view>

namespace lockcheck {

std::string_view report_css();
std::string_view report_js();

}  // namespace lockcheck
