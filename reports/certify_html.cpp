#include "reports/certify_html.hpp"

#include <fmt/format.h>

#include "reports/markup.hpp"

namespace lockcheck {
namespace {

std::string cell_text(const nlohmann::json& object, const char* field) {
    const auto it = object.find(field);
    return it != object.end() && it->is_string() ? escape_markup(it->get<std::string>()) : "";
}

/// The row's class: met, notmet, undecided or skipped (colours in the style).
std::string certify_row_class(const std::string& status) {
    if (status == "met") return "met";
    if (status == "could not decide" || status == "not exercised") return "undecided";
    if (status == "skipped") return "skipped";
    return "notmet";
}

/// The cell's evidence: "seen M of N: <danger>", or "none needed".
std::string evidence_html(const nlohmann::json& cell) {
    const auto it = cell.find("evidence");
    if (it == cell.end() || !it->is_object() || it->value("needed", 0) <= 0) return "none needed";
    return fmt::format("seen {} of {}: {}", it->value("seen", 0), it->value("needed", 0), cell_text(*it, "danger"));
}

}  // namespace

std::string render_certify_html(const nlohmann::json& card) {
    const int exit = card.value("exit_code", 1);
    const char* outcome = exit == 0 ? "every cell met its expectation"
                          : exit == 2 ? "no cell failed, but some could not decide or were not exercised"
                                      : "some cells did not meet their expectation";
    std::string html = fmt::format(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>lockcheck certify: {}</title>\n"
        "<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}"
        "td,th{{border:1px solid #ccc;padding:4px 8px;vertical-align:top;text-align:left}}"
        "tr.met td.status{{background:#d4f4d4}}tr.notmet td.status{{background:#f8d0d0}}"
        "tr.undecided td.status{{background:#fbeebb}}tr.skipped td{{color:#777}}</style></head><body>\n"
        "<h1>Report card: {}</h1>\n<p>Client: <code>{}</code><br>Topology: {} | {:.0f} s | exit {}: {}</p>\n"
        "<table><tr><th>cell</th><th>faults</th><th>expected of a correct client</th><th>status</th>"
        "<th>danger</th><th>verdict</th><th>blame</th><th>first violation</th><th>why</th><th>run</th></tr>\n",
        cell_text(card, "topology"), cell_text(card, "topology"), cell_text(card, "client_cmd"), cell_text(card, "topology"),
        card.value("seconds", 0.0), exit, outcome);
    for (const auto& c : card.value("cells", nlohmann::json::array())) {
        const std::string report = cell_text(c, "report");
        html += fmt::format(
            "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td class=\"status\">{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            certify_row_class(c.value("status", "")), cell_text(c, "cell"), cell_text(c, "faults"), cell_text(c, "expected"),
            cell_text(c, "status"), evidence_html(c), cell_text(c, "verdict"), cell_text(c, "blame"), cell_text(c, "first_violation"), cell_text(c, "why"),
            report.empty() ? "" : fmt::format("<a href=\"file://{}\">report.html</a>", report));
    }
    html += "</table>\n<p>Blame: <b>your client</b> — fix the client; <b>inherent to lease locks: add fencing</b> — "
            "every lease lock does this when a holder stalls; <b>server configuration</b> — the servers as "
            "configured broke the lease; <b>undecided</b> — the record does not say whose.</p>\n</body></html>\n";
    return html;
}

}  // namespace lockcheck
