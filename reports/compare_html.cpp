#include "reports/compare_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "reports/markup.hpp"

namespace lockcheck {
namespace {

struct Series {
    const char* field;      ///< the cell's mean
    const char* run_field;  ///< each run's figure
    const char* name;
    const char* color;
};

constexpr Series kSeries[] = {
    {"within_lease_per_run", "within_lease", "overlaps within the lease / run", "#c62828"},
    {"lease_expired_per_run", "lease_expired", "overlaps after the lease expired / run", "#ef6c00"},
    {"lost_updates_per_run", "lost_updates", "lost updates / run", "#6a1b9a"}};

constexpr double kHeight = 300, kLeft = 64, kRight = 10, kTop = 20, kBottom = 64;
/// Each cell gets a slot of this width, the chart at most kMaxWidth: its text stays readable on a phone, where
/// a wide chart scrolls inside its box rather than shrinking.
constexpr double kSlotWidth = 120, kMinWidth = 300, kMaxWidth = 1100;

double chart_width(std::size_t cells) {
    return std::clamp(kLeft + kRight + kSlotWidth * static_cast<double>(cells), kMinWidth, kMaxWidth);
}

bool has_verdict(const nlohmann::json& run) { return run.value("verdict", "error") != "error"; }

/// Why a cell has no bars, or "" when it has some.
std::string why_empty(const nlohmann::json& cell) {
    const auto runs = cell.value("runs", nlohmann::json::array());
    if (runs.empty()) return "not run: the compare was stopped before this cell";
    const auto finished = std::count_if(runs.begin(), runs.end(), has_verdict);
    if (finished == 0)
        return fmt::format("no verdict: {} of {} run{} failed (see {})", runs.size(), runs.size(),
                           runs.size() == 1 ? "" : "s",
                           runs.size() == 1 ? "its run directory" : "their run directories");
    for (const auto& s : kSeries)
        if (cell.value(s.field, 0.0) > 0) return "";
    return fmt::format("no overlap and no lost update in {} run{}", finished, finished == 1 ? "" : "s");
}

/// A round step (1, 2 or 5 times a power of ten) giving about `ticks` ticks up to `max`.
double round_step(double max, int ticks) {
    const double raw = max / ticks, power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * power >= raw) return m * power;
    return 10 * power;
}

std::string y_axis(double width, double top, double step, double plot_h) {
    std::string svg;
    for (double v = 0; v <= top + step / 2; v += step) {
        const double y = kTop + plot_h - plot_h * v / top;
        svg += fmt::format(
            "<line class=\"grid\" x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\"/>"
            "<text class=\"y-tick\" x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:g}</text>\n",
            kLeft, width - kRight, y, y, kLeft - 4, y + 4, v);
    }
    // Axis titles: what the bars and dots are, and what the numbers under them name.
    svg += fmt::format(
        "<text class=\"axis-title\" transform=\"translate(14 {:.1f}) rotate(-90)\" text-anchor=\"middle\">"
        "per run: bar = mean, dot = one run</text>\n",
        kTop + plot_h / 2);
    svg += fmt::format(
        "<text class=\"axis-title\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">cell (its settings: "
        "the table below)</text>\n",
        kLeft + (width - kLeft - kRight) / 2, kHeight - 8);
    return svg;
}

/// One cell's slot: a bar per series with a dot per run over it, or the reason it has none; its number links the table row.
std::string cell_slot(const nlohmann::json& cell, std::size_t c, double slot, double top, double plot_h) {
    const double bar = std::min(28.0, slot / 4);
    const double x0 = kLeft + slot * static_cast<double>(c) + (slot - 3 * bar) / 2;
    const auto y_of = [&](double v) { return kTop + plot_h - plot_h * v / top; };
    const auto label = escape_markup(cell.value("label", ""));
    std::string svg = fmt::format("<g class=\"cell\" data-cell=\"{}\">\n", c + 1);
    const auto empty = why_empty(cell);
    for (std::size_t s = 0; s < std::size(kSeries) && empty.empty(); ++s) {
        const double v = cell.value(kSeries[s].field, 0.0), bx = x0 + bar * static_cast<double>(s);
        svg += fmt::format(
            "<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\">"
            "<title>{}: {} = {:.2f}</title></rect>\n",
            bx, y_of(v), bar - 2, plot_h * v / top, kSeries[s].color, label, kSeries[s].name, v);
        const auto runs = cell.value("runs", nlohmann::json::array());
        for (std::size_t r = 0; r < runs.size(); ++r) {
            if (!has_verdict(runs[r])) continue;
            const double value = runs[r].value(kSeries[s].run_field, 0.0);
            const double jitter =
                runs.size() > 1 ? (static_cast<double>(r) / static_cast<double>(runs.size() - 1) - 0.5) * (bar - 8) : 0;
            svg += fmt::format(
                "<circle class=\"run-dot\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.6\"><title>{}: run {}: {} {}"
                "</title></circle>\n",
                bx + (bar - 2) / 2 + jitter, y_of(value), label, r + 1, value, kSeries[s].name);
        }
    }
    const double cx = kLeft + slot * (static_cast<double>(c) + 0.5);
    if (!empty.empty())
        svg += fmt::format(
            "<text class=\"empty-cell\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}<title>{}</title></text>\n",
            cx, kTop + plot_h - 6, slot < 160 ? "empty (see table)" : escape_markup(empty), escape_markup(empty));
    svg += fmt::format(
        "<a href=\"#cell-{0}\"><text class=\"cell-number\" x=\"{1:.1f}\" y=\"{2:.1f}\" text-anchor=\"middle\">"
        "#{0}<title>{3}</title></text></a>\n</g>\n",
        c + 1, cx, kTop + plot_h + 16, label);
    return svg;
}

std::string chart(const nlohmann::json& cells) {
    double max = 0;
    for (const auto& cell : cells)
        for (const auto& s : kSeries) {
            max = std::max(max, cell.value(s.field, 0.0));
            for (const auto& run : cell.value("runs", nlohmann::json::array()))
                max = std::max(max, run.value(s.run_field, 0.0));
        }
    const double step = round_step(std::max(max, 1.0), 4), top = std::ceil(std::max(max, 1.0) / step) * step;
    const double width = chart_width(cells.size());
    const double slot = (width - kLeft - kRight) / std::max<double>(1, static_cast<double>(cells.size()));
    const double plot_h = kHeight - kTop - kBottom;
    std::string svg = fmt::format(
        "<div class=\"chart\"><svg id=\"compare-chart\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" "
        "xmlns=\"http://www.w3.org/2000/svg\">\n",
        width, kHeight);
    svg += y_axis(width, top, step, plot_h);
    for (std::size_t c = 0; c < cells.size(); ++c) svg += cell_slot(cells[c], c, slot, top, plot_h);
    return svg + "</svg></div>\n";
}

/// Links to each run's report.html, named by the run's verdict.
std::string run_links(const nlohmann::json& cell) {
    std::string links;
    const auto runs = cell.value("runs", nlohmann::json::array());
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const auto dir = runs[r].value("run_dir", "");
        const auto text = fmt::format("{}: {}", r + 1, escape_markup(runs[r].value("verdict", "error")));
        links += (links.empty() ? "" : " ") +
                 (dir.empty()
                      ? text
                      : fmt::format("<a class=\"run-link\" href=\"{}/report.html\">{}</a>", escape_markup(dir), text));
    }
    return links.empty() ? "—" : links;
}

}  // namespace

std::string render_compare_html(const nlohmann::json& compare) {
    const auto cells = compare.value("cells", nlohmann::json::array());
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        "<title>lockcheck compare: " +
        escape_markup(compare.value("spec_name", "")) +
        "</title>\n<style>\n"
        "body{font:14px/1.45 system-ui,sans-serif;max-width:1200px;margin:0 auto;padding:16px 24px;color:#1d2330}"
        "table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #dde2ea;padding:3px 8px;text-align:right}"
        "th:nth-child(2),td:nth-child(2),td.runs,td.why{text-align:left}.chart{overflow-x:auto}svg{display:block}a.run-"
        "link{white-space:nowrap}"
        "svg "
        "text{font-size:11px;fill:#334}.grid{stroke:#e3e6ee}.run-dot{fill:#1d2330;fill-opacity:.75;stroke:#fff;stroke-"
        "width:.8}"
        ".axis-title{font-size:12px;fill:#566}.empty-cell{fill:#667;font-style:italic}.scroll{overflow-x:auto}"
        ".legend span{margin-right:16px;font-size:12px;white-space:nowrap}"
        ".legend i{display:inline-block;width:12px;height:10px;margin-right:4px}"
        "@media (max-width:600px){body{padding:10px 12px}}"
        "</style>\n</head>\n<body>\n";
    const int runs = compare.value("runs", 0);
    html += fmt::format("<h1>{} — {} cells × {} run{}</h1>\n<p>Every cell ran the same seeds: {}.</p>\n",
                        escape_markup(compare.value("spec_name", "")), cells.size(), runs, runs == 1 ? "" : "s",
                        escape_markup(compare.value("seeds", nlohmann::json::array()).dump()));
    html += "<div class=\"legend\">";
    for (const auto& s : kSeries)
        html += fmt::format("<span><i style=\"background:{}\"></i>{}</span>", s.color, s.name);
    html += "<span><i style=\"background:#1d2330;border-radius:50%;width:8px;height:8px\"></i>one run</span>";
    html += "</div>\n" + chart(cells);
    html +=
        "<div class=\"scroll\"><table id=\"compare-table\"><thead><tr><th>#</th><th>cell</th><th>invalid runs</th>"
        "<th>violations / run</th><th>within lease / run</th><th>lease expired / run</th><th>lost updates / run</th>"
        "<th>acquires granted</th><th>failed runs</th><th>runs (report)</th></tr></thead><tbody>\n";
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const auto& c = cells[i];
        const auto empty = why_empty(c);
        html += fmt::format(
            "<tr id=\"cell-{}\"><td>#{}</td><td>{}</td><td>{}/{}</td><td>{:.2f}</td><td>{:.2f}</td><td>{:.2f}</td>"
            "<td>{:.2f}</td><td>{:.1f}%</td><td>{}</td><td class=\"runs\">{}</td></tr>\n",
            i + 1, i + 1, escape_markup(c.value("label", "")), c.value("invalid_runs", 0),
            c.value("runs", nlohmann::json::array()).size(), c.value("violations_per_run", 0.0),
            c.value("within_lease_per_run", 0.0), c.value("lease_expired_per_run", 0.0),
            c.value("lost_updates_per_run", 0.0), 100 * c.value("acquire_success_rate", 0.0), c.value("failed_runs", 0),
            run_links(c));
        if (!empty.empty())
            html += fmt::format(
                "<tr class=\"why\"><td></td><td class=\"why\" colspan=\"9\">#{} has no bars: {}</td></tr>\n", i + 1,
                escape_markup(empty));
    }
    return html + "</tbody></table></div>\n</body>\n</html>\n";
}

}  // namespace lockcheck
