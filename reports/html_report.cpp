#include "reports/html_report.hpp"

#include <fmt/format.h>

#include <map>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "reports/markup.hpp"
#include "reports/report_assets.hpp"
#include "reports/terminal_summary.hpp"
#include "reports/verdict_story.hpp"
#include "reports/what_now.hpp"

namespace lockcheck {
namespace {

std::string scalar_text(const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_float()) return fmt::format("{:.3f}", v.get<double>());
    return v.dump();
}

/// Flattens nested stats into "a.b.c" rows.
void flatten(const nlohmann::json& value, const std::string& prefix,
             std::vector<std::pair<std::string, std::string>>& rows) {
    if (value.is_object() && !value.empty()) {
        for (const auto& [k, v] : value.items()) flatten(v, prefix.empty() ? k : prefix + "." + k, rows);
    } else if (value.is_array() && !value.empty() && (value[0].is_object() || value[0].is_array())) {
        for (std::size_t i = 0; i < value.size() && i < 50; ++i)
            flatten(value[i], prefix + "[" + std::to_string(i) + "]", rows);
    } else {
        rows.emplace_back(prefix, scalar_text(value));
    }
}

std::string verdict_section(const VerdictStory& story, const nlohmann::json& results) {
    std::string html = fmt::format("<section id=\"verdict\" class=\"verdict {}\" data-verdict=\"{}\">\n<h1>{}</h1>\n",
                                   story.verdict, story.verdict, escape_markup(story.headline));
    for (std::size_t i = 0; i < story.lines.size(); ++i)
        html += fmt::format("<p{}>{}</p>\n", i == 1 && story.worst_violation >= 0 ? " class=\"lead\"" : "",
                            escape_markup(story.lines[i]));
    if (story.worst_violation >= 0)
        html += fmt::format(
            "<p><a href=\"#v{0}\" class=\"jump\" data-violation=\"{0}\">Show it on the timeline ↓</a></p>\n",
            story.worst_violation);
    if (results.contains("expectation") && results["expectation"].value("applies", true) == false) {
        html += fmt::format("<p class=\"expectation\">Scenario expectation: <b>does not apply</b>: {}</p>\n",
                            escape_markup(scalar_text(results["expectation"].value("reason", nlohmann::json()))));
    } else if (results.contains("expectation")) {
        const auto& e = results["expectation"];
        std::string mismatches;
        for (const auto& m : e.value("mismatches", nlohmann::json::array())) mismatches += "; " + scalar_text(m);
        html += fmt::format("<p class=\"expectation\">Scenario expectation: <b>{}</b>{}</p>\n",
                            e.value("matched", false) ? "met" : "NOT met", escape_markup(mismatches));
    }
    return html + "</section>\n";
}

std::string run_table(const nlohmann::json& results, const nlohmann::json& spec, std::size_t ops) {
    std::vector<std::pair<std::string, std::string>> rows;
    if (results.contains("run"))
        flatten(results["run"], "", rows);
    else
        rows.emplace_back("ops", std::to_string(ops));
    for (const char* field : {"recipe", "topology", "persistence", "workers", "keys", "ttl_ms", "hold_ms", "nemesis",
                              "fault_duration_ms", "fencing", "time_limit_s"})
        if (spec.is_object() && spec.contains(field)) rows.emplace_back(field, scalar_text(spec[field]));
    std::string html = "<div class=\"scroll\"><table class=\"kv\"><tbody>\n";
    for (const auto& [k, v] : rows)
        html += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", escape_markup(k), escape_markup(v));
    return html + "</tbody></table></div>\n";
}

std::string checker_tables(const CheckReport& report, const nlohmann::json& results) {
    std::string html =
        "<div class=\"scroll\"><table class=\"checkers\"><thead><tr><th>checker</th><th>verdict</th>"
        "<th>violations</th><th>summary</th></tr></thead><tbody>\n";
    for (const auto& c : report.checkers) {
        std::size_t total = c.violations_total();
        if (results.contains("checkers") && results["checkers"].contains(c.name))
            total = results["checkers"][c.name].value("violations_total", total);
        // An advisory checker is a cross-check: its findings never read as a failure of the run.
        const std::string verdict = c.counts_toward_verdict ? std::string(to_string(c.valid))
                                    : total > 0 ? fmt::format("advisory: {} finding{}", total, total == 1 ? "" : "s")
                                                : "advisory: none";
        html += fmt::format("<tr class=\"{}\" data-checker=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                            c.counts_toward_verdict ? to_string(c.valid) : "advisory", escape_markup(c.name),
                            escape_markup(c.name), verdict, total, escape_markup(checker_summary(c)));
    }
    html += "</tbody></table></div>\n";
    for (const auto& c : report.checkers) {
        std::map<std::string, int> kinds;
        for (const auto& v : c.violations) ++kinds[v.kind];
        std::vector<std::pair<std::string, std::string>> rows;
        const std::string label = c.unlisted_violations > 0 ? "violations listed of kind " : "violations of kind ";
        for (const auto& [kind, n] : kinds) rows.emplace_back(label + kind, std::to_string(n));
        flatten(c.stats, "", rows);
        html +=
            fmt::format("<details><summary>{} — figures</summary><div class=\"scroll\"><table class=\"kv\"><tbody>\n",
                        escape_markup(c.name));
        for (const auto& [k, v] : rows)
            html += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", escape_markup(k), escape_markup(v));
        html += "</tbody></table></div></details>\n";
    }
    return html;
}

std::string what_now_section(const WhatNow& w) {
    std::string html = "<section id=\"what-now\" class=\"what-now\"><h2>What now?</h2>\n";
    if (!w.description.empty())
        html += "<p class=\"description\"><b>What this scenario shows:</b> " + escape_markup(w.description) + "</p>\n";
    html += "<p><b>Mitigations that apply to what this run found:</b></p>\n<ul id=\"mitigations\">\n";
    for (const auto& m : w.mitigations) html += "<li>" + escape_markup(m) + "</li>\n";
    html += "</ul>\n";
    if (!w.recipe_doc.empty()) {
        const auto link = w.recipe_doc_file.empty() ? escape_markup(w.recipe_doc)
                                                    : fmt::format("<a class=\"recipe-doc\" href=\"file://{}\">{}</a>",
                                                                  escape_markup(w.recipe_doc_file.generic_string()),
                                                                  escape_markup(w.recipe_doc));
        html += "<p>How the recipe works and where it breaks: " + link + " (in the lockcheck repository).</p>\n";
    }
    if (!w.replay_command.empty())
        html +=
            "<p>Run the same fault schedule again (same seed, a new run directory):</p>\n<code class=\"command\" "
            "id=\"replay-command\">" +
            escape_markup(w.replay_command) + "</code>\n";
    return html + "</section>\n";
}

}  // namespace

std::string render_report_html(const ReportPageInput& in) {
    const ReportModel model = build_report_model(in.history, in.report, in.limits, in.schedule);
    const VerdictStory story = tell_verdict(in.report, model, in.spec);
    nlohmann::json data = report_model_to_json(model);
    data["verdict"] = story.verdict;
    data["worst"] = story.worst_violation;

    const std::string title = fmt::format(
        "lockcheck: {} — {}", in.spec.is_object() ? in.spec.value("name", "history") : "history", story.verdict);
    std::string html;
    html.reserve(256 * 1024);
    html +=
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    html +=
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'; img-src data:\">\n";
    html += "<title>" + escape_markup(title) + "</title>\n";
    // The error hook comes first so that any later script error shows on the page.
    html +=
        "<script>window.lockcheckErrors=[];window.onerror=function(m,s,l){window.lockcheckErrors.push(m+' (line "
        "'+l+')');"
        "var e=document.getElementById('script-errors');if(e){e.hidden=false;var li=document.createElement('li');"
        "li.className='script-error';li.textContent=m+' (line '+l+')';e.appendChild(li);}};</script>\n";
    html += "<style>\n" + std::string(report_css()) + "</style>\n</head>\n<body>\n";
    html += "<ul id=\"script-errors\" hidden></ul>\n";
    html += verdict_section(story, in.results);
    if (in.spec.is_object() && in.spec.value("shrunk_from", nlohmann::json()).is_string())
        html += "<section id=\"shrunk\" class=\"notes\"><b>A shrunk run:</b> its spec is the smallest that "
                "`lockcheck shrink` found to still fail as the original run did, with an explicit fault schedule. "
                "The original run: <code>" +
                escape_markup(in.spec["shrunk_from"].get<std::string>()) + "</code></section>\n";
    if (!model.notes.empty()) {
        html += "<section id=\"notes\" class=\"notes\"><b>Drawn with caps</b> (the history has " +
                std::to_string(model.op_count) + " ops):<ul>\n";
        for (const auto& note : model.notes) html += "<li>" + escape_markup(note) + "</li>\n";
        html += "</ul></section>\n";
    }
    html +=
        "<section id=\"timeline-section\"><h2>Timeline</h2>\n"
        "<p class=\"help\">One lane per worker. Bars: the lock held (from the acquire's ok to the release); the "
        "hatched part lies past the lease. Ticks: acquire attempts. Yellow bands: faults from the moment they took "
        "effect (grey hatching: asked for, not yet in effect; dashed: never took effect). Red ▲: two holders at once, "
        "over the interval they overlapped; purple ◆: a lost update or stale write, on the write itself. The legend "
        "lists what occurs. Drag across the timeline to zoom; click a bar, tick or violation for its ops.</p>\n"
        "<div class=\"toolbar\"><button id=\"zoom-reset\" type=\"button\">Whole run</button> <span "
        "id=\"zoom-label\"></span></div>\n"
        "<div id=\"timelines\"></div>\n<pre id=\"op-details\" class=\"details\">Click a bar, tick or violation to see "
        "its ops.</pre>\n"
        "</section>\n";
    html +=
        "<section id=\"violations-section\"><h2>Violations</h2><ol id=\"violations\"></ol>\n"
        "<div id=\"advisory\"></div></section>\n";
    html += what_now_section(what_now(in.report, model, in.spec, in.run_dir));
    html +=
        "<section id=\"plots\"><h2>Latency over time</h2><div id=\"latency\"></div>\n"
        "<h2>Throughput</h2><div id=\"throughput\"></div></section>\n";
    html += "<section id=\"checkers\"><h2>Checkers</h2>\n" + checker_tables(in.report, in.results) + "</section>\n";
    html += "<section id=\"run\"><h2>Run</h2>\n" + run_table(in.results, in.spec, in.history.size()) + "</section>\n";
    html += "<script type=\"application/json\" id=\"report-data\">" + json_for_script(data) + "</script>\n";
    html += "<script>\n" + std::string(report_js()) + "</script>\n</body>\n</html>\n";
    return html;
}

void write_report_html(const std::filesystem::path& path, const ReportPageInput& input) {
    write_text_file(path, render_report_html(input));
}

}  // namespace lockcheck
