#include "reports/store_index.hpp"

#include <fmt/format.h>

#include <map>

#include "core/counted.hpp"
#include "reports/markup.hpp"

namespace lockcheck {
namespace {

/// `path` with every byte outside [A-Za-z0-9._~/-] percent-encoded: a link
/// that a space or a '#' in a directory name cannot break.
std::string url_path(const std::string& path) {
    std::string out;
    for (unsigned char c : path) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                           c == '_' || c == '~' || c == '/' || c == '-';
        out += plain ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
    }
    return out;
}

std::string verdict_cell(const IndexedRun& run) {
    const std::string verdict = run.verdict.empty() ? "no verdict" : run.verdict;
    const std::string css = run.verdict.empty() ? "none" : run.verdict;
    return fmt::format("<td class=\"verdict {}\">{}</td>", escape_markup(css), escape_markup(verdict));
}

}  // namespace

std::string render_store_index(const std::vector<IndexedRun>& runs, const std::string& store) {
    std::map<std::string, int> verdicts;
    for (const auto& run : runs) ++verdicts[run.verdict.empty() ? "no verdict" : run.verdict];
    std::string tally;
    for (const auto& [verdict, n] : verdicts) tally += (tally.empty() ? "" : ", ") + fmt::format("{} {}", n, verdict);
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        "<title>lockcheck runs: " +
        escape_markup(store) +
        "</title>\n<style>\n"
        "body{font:14px/1.45 system-ui,sans-serif;max-width:1200px;margin:0 auto;padding:16px 24px;color:#1d2330}"
        "table{border-collapse:collapse;font-size:13px;width:100%}th,td{border:1px solid #dde2ea;padding:3px 8px;"
        "text-align:left;vertical-align:top}th{background:#f3f5f9}td.seconds{text-align:right}"
        ".verdict.valid{color:#1b5e20;font-weight:600}.verdict.invalid{color:#b71c1c;font-weight:600}"
        ".verdict.unknown{color:#8a5a00;font-weight:600}.verdict.none{color:#667;font-style:italic}"
        ".path{color:#566;font-size:12px;word-break:break-all}.scroll{overflow-x:auto}"
        "@media (max-width:600px){body{padding:10px 12px}}"
        "</style>\n</head>\n<body>\n";
    html += fmt::format("<h1>lockcheck runs in {}</h1>\n<p id=\"tally\">{}, newest first{}.</p>\n",
                        escape_markup(store), escape_markup(counted(static_cast<std::int64_t>(runs.size()), "run")),
                        tally.empty() ? "" : ": " + escape_markup(tally));
    html +=
        "<div class=\"scroll\"><table id=\"runs\"><thead><tr><th>started (UTC)</th><th>scenario</th>"
        "<th>verdict</th><th>expectation</th><th>seconds</th><th>client</th><th>report</th></tr></thead><tbody>\n";
    for (const auto& run : runs) {
        const std::string report = run.has_report
                                       ? fmt::format("<a class=\"report-link\" href=\"{}/report.html\">report.html</a>",
                                                     escape_markup(url_path(run.path)))
                                       : "no report";
        html += fmt::format(
            "<tr class=\"run\"><td>{}</td><td>{}<div class=\"path\">{}</div></td>{}<td>{}</td>"
            "<td class=\"seconds\">{}</td><td>{}</td><td>{}</td></tr>\n",
            escape_markup(run.started), escape_markup(run.scenario), escape_markup(run.path), verdict_cell(run),
            escape_markup(run.expectation), run.seconds ? fmt::format("{:.1f}", *run.seconds) : "",
            escape_markup(run.client), report);
    }
    return html + "</tbody></table></div>\n</body>\n</html>\n";
}

}  // namespace lockcheck
