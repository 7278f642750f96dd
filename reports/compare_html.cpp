#include "reports/compare_html.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "reports/markup.hpp"

namespace lockcheck {
namespace {

struct Series {
    const char* field;
    const char* name;
    const char* color;
};

constexpr Series kSeries[] = {{"within_lease_per_run", "overlaps within the lease / run", "#c62828"},
                              {"lease_expired_per_run", "overlaps after the lease expired / run", "#ef6c00"},
                              {"lost_updates_per_run", "lost updates / run", "#6a1b9a"}};

std::string chart(const nlohmann::json& cells) {
    const double width = 1100, height = 260, left = 60, bottom = 40, top = 20;
    double max = 1;
    for (const auto& cell : cells)
        for (const auto& s : kSeries) max = std::max(max, cell.value(s.field, 0.0));
    const double slot = (width - left - 10) / std::max<double>(1, static_cast<double>(cells.size()));
    const double bar = std::min(28.0, slot / 4);
    const double plot_h = height - top - bottom;
    std::string svg = fmt::format("<svg id=\"compare-chart\" width=\"{}\" height=\"{}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
                                  width, height);
    for (int i = 0; i <= 4; ++i) {
        const double v = max * i / 4, y = top + plot_h - plot_h * i / 4;
        svg += fmt::format("<line x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#e3e6ee\"/>"
                           "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:.1f}</text>\n",
                           left, width - 10, y, y, left - 4, y + 4, v);
    }
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const double x0 = left + slot * static_cast<double>(c) + (slot - 3 * bar) / 2;
        for (std::size_t s = 0; s < std::size(kSeries); ++s) {
            const double v = cells[c].value(kSeries[s].field, 0.0), h = plot_h * v / max;
            svg += fmt::format("<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\">"
                               "<title>{}: {} = {:.2f}</title></rect>\n",
                               x0 + bar * static_cast<double>(s), top + plot_h - h, bar - 2, h, kSeries[s].color,
                               escape_markup(cells[c].value("label", "")), kSeries[s].name, v);
        }
        // Cells are numbered under their bars; the table below names each number's settings.
        const double cx = left + slot * (static_cast<double>(c) + 0.5), ty = top + plot_h + 16;
        svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">#{}<title>{}</title></text>\n", cx, ty,
                           c + 1, escape_markup(cells[c].value("label", "")));
    }
    return svg + "</svg>\n";
}

}  // namespace

std::string render_compare_html(const nlohmann::json& compare) {
    const auto cells = compare.value("cells", nlohmann::json::array());
    std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>lockcheck compare: " +
                       escape_markup(compare.value("spec_name", "")) + "</title>\n<style>\n"
                       "body{font:14px/1.45 system-ui,sans-serif;max-width:1200px;margin:0 auto;padding:16px 24px;color:#1d2330}"
                       "table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #dde2ea;padding:3px 8px;text-align:right}"
                       "th:nth-child(2),td:nth-child(2){text-align:left}svg text{font-size:11px;fill:#334}"
                       ".legend span{margin-right:16px;font-size:12px}.legend i{display:inline-block;width:12px;height:10px;margin-right:4px}"
                       "</style>\n</head>\n<body>\n";
    const int runs = compare.value("runs", 0);
    html += fmt::format("<h1>{} — {} cells × {} run{}</h1>\n<p>Every cell ran the same seeds: {}.</p>\n",
                        escape_markup(compare.value("spec_name", "")), cells.size(), runs, runs == 1 ? "" : "s",
                        escape_markup(compare.value("seeds", nlohmann::json::array()).dump()));
    html += "<div class=\"legend\">";
    for (const auto& s : kSeries) html += fmt::format("<span><i style=\"background:{}\"></i>{}</span>", s.color, s.name);
    html += "</div>\n" + chart(cells);
    html += "<table id=\"compare-table\"><thead><tr><th>#</th><th>cell</th><th>invalid runs</th><th>violations / run</th>"
            "<th>within lease / run</th><th>lease expired / run</th><th>lost updates / run</th><th>acquires granted</th>"
            "<th>failed runs</th></tr></thead><tbody>\n";
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const auto& c = cells[i];
        html += fmt::format("<tr><td>#{}</td><td>{}</td><td>{}/{}</td><td>{:.2f}</td><td>{:.2f}</td><td>{:.2f}</td><td>{:.2f}</td>"
                            "<td>{:.1f}%</td><td>{}</td></tr>\n",
                            i + 1, escape_markup(c.value("label", "")), c.value("invalid_runs", 0), c["runs"].size(),
                            c.value("violations_per_run", 0.0), c.value("within_lease_per_run", 0.0),
                            c.value("lease_expired_per_run", 0.0), c.value("lost_updates_per_run", 0.0),
                            100 * c.value("acquire_success_rate", 0.0), c.value("failed_runs", 0));
    }
    return html + "</tbody></table>\n</body>\n</html>\n";
}

}  // namespace lockcheck
