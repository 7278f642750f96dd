// The headless-Chromium probe of tests/reports/browser_probe.hpp.
#include "tests/reports/browser_probe.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "reports/markup.hpp"

namespace lockcheck::testing {

namespace fs = std::filesystem;
using nlohmann::json;

std::string read_file(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string rendered_dom(const fs::path& page, const fs::path& work, int width) {
    const auto profile = work / "profile";
    const auto out = work / "dom.html";
    const std::string command = std::string("timeout 90 ") + kChromium +
                                " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
                                " --disable-background-networking --disable-component-update --disable-sync"
                                " --hide-scrollbars --window-size=" +
                                std::to_string(width) +
                                ",900"
                                " --user-data-dir=" +
                                profile.string() + " --dump-dom file://" + page.string() + " > " + out.string() +
                                " 2> " + (work / "chromium.log").string();
    const int status = std::system(command.c_str());
    EXPECT_EQ(status, 0) << command << "\n" << read_file(work / "chromium.log");
    return read_file(out);
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

std::string unescape_text(std::string text) {
    for (const auto& [from, to] :
         {std::pair<std::string, std::string>{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
        for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
            text.replace(at, from.size(), to);
    }
    return text;
}

std::vector<Box> boxes(const json& probe, const std::string& selector) {
    std::vector<Box> out;
    for (const auto& e : probe["found"].value(selector, json::array()))
        out.push_back(
            {e["l"], e["t"], e["r"], e["b"], e["cls"], e["text"], e["fill"], e["color"], e["d"], e["href"], e["data"]});
    return out;
}

bool inside(const Box& inner, const Box& outer, double slack) {
    return inner.top >= outer.top - slack && inner.bottom <= outer.bottom + slack;
}

json probe_page(const fs::path& page, const fs::path& work, const std::vector<std::string>& selectors, int width,
                const std::string& before) {
    const std::string probe =
        "<script>(function(){" + before +
        "var out={vw:window.innerWidth,sw:document.documentElement.scrollWidth,found:{}};"
        "var sels=" +
        json(selectors).dump() +
        ";"
        "sels.forEach(function(s){out.found[s]=Array.prototype.map.call(document.querySelectorAll(s),function(e){"
        "var b=e.getBoundingClientRect(),cs=getComputedStyle(e),d={};"
        "Array.prototype.forEach.call(e.attributes,function(a){if(a.name.indexOf('data-')===0)d[a.name.slice(5)]=a."
        "value;});"
        "return "
        "{l:b.left,t:b.top,r:b.right,b:b.bottom,cls:e.getAttribute('class')||'',text:(e.textContent||'').slice(0,400),"
        "fill:e.getAttribute('fill')||cs.fill||'',color:cs.color||'',d:e.getAttribute('d')||'',href:e.getAttribute('"
        "href')||'',data:d};"
        "});});"
        "var host=window.parent.document;var pre=host.createElement('pre');pre.id='lockcheck-probe';"
        "pre.textContent=JSON.stringify(out);host.body.appendChild(pre);})();</script>";
    auto html = read_file(page);
    html.insert(html.rfind("</body>"), probe);
    // A page whose policy forbids scripts (compare.html) is probed without it: the probe is a script.
    const auto policy = html.find("<meta http-equiv=\"Content-Security-Policy\"");
    if (policy != std::string::npos &&
        html.substr(policy, html.find('>', policy) - policy).find("script-src") == std::string::npos)
        html.erase(policy, html.find('>', policy) + 1 - policy);
    auto probed = work / ("probed-" + std::to_string(width) + ".html");
    std::ofstream(probed) << html;
    if (width < kNarrowestWindow) {  // Chromium's window is at least 500 px wide: a narrower page goes in an iframe
        std::ofstream(work / "narrow.html")
            << "<!DOCTYPE html><html><body style=\"margin:0\"><iframe style=\"border:0\" width=\"" << width
            << "\" height=\"900\" srcdoc=\"" << escape_markup(html) << "\"></iframe></body></html>";
        probed = work / "narrow.html";
    }
    const auto dom = rendered_dom(probed, work, std::max(width, kNarrowestWindow));
    EXPECT_EQ(dom.find("class=\"script-error\""), std::string::npos) << dom.substr(0, 3000);
    const auto start = dom.find("<pre id=\"lockcheck-probe\">");
    if (start == std::string::npos) {
        ADD_FAILURE() << "the probe did not run";
        return json{{"found", json::object()}};
    }
    const auto body = start + std::string("<pre id=\"lockcheck-probe\">").size();
    return json::parse(unescape_text(dom.substr(body, dom.find("</pre>", body) - body)));
}

double tick_ms(const std::string& text) {
    std::smatch m;
    static const std::regex pattern(R"(^(-?[0-9.]+) (s|ms)$)");
    EXPECT_TRUE(std::regex_match(text, m, pattern)) << text;
    if (m.empty()) return NAN;
    return std::stod(m[1]) * (m[2] == "s" ? 1000 : 1);
}

void BrowserPageTest::SetUp() {
    ASSERT_TRUE(fs::exists(kChromium)) << "Debian's chromium is not installed (scripts/setup.sh installs it)";
    work_ = fs::temp_directory_path() / ("lockcheck-browser-" + std::to_string(::getpid()));
    fs::remove_all(work_);
    fs::create_directories(work_);
}

void BrowserPageTest::TearDown() { fs::remove_all(work_); }

}  // namespace lockcheck::testing
