// Renders generated pages (report.html, compare.html, index.html) in
// headless Chromium (Debian's `chromium`) for tests that check what a page
// drew by structure, never by pixels: which elements exist, how many, their
// attributes, and where they are. The page's own window.onerror hook writes
// script errors into the DOM (#script-errors li.script-error), which
// --dump-dom shows.
//
// Positions come from a probe: probe_page appends a script to a copy of the
// page that (optionally clicks something and) records the bounding boxes,
// attributes and texts of the elements the test names, as JSON in a
// <pre id="lockcheck-probe">, which --dump-dom then carries out.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lockcheck::testing {

inline constexpr const char* kChromium = "/usr/bin/chromium";

/// Chromium's headless window is never narrower than this.
inline constexpr int kNarrowestWindow = 500;

/// The whole file (empty when it cannot be read).
std::string read_file(const std::filesystem::path& path);

/// The DOM after the page's scripts ran, from `chromium --headless --dump-dom`, in a window `width` px wide;
/// a failed Chromium is a test failure.
std::string rendered_dom(const std::filesystem::path& page, const std::filesystem::path& work, int width = 1280);

/// How often `what` occurs in `text`.
std::size_t count(const std::string& text, const std::string& what);

/// `text` with the four HTML entities the DOM dump uses turned back into characters.
std::string unescape_text(std::string text);

/// A box as the probe reports it.
struct Box {
    double left = 0, top = 0, right = 0, bottom = 0;
    std::string cls, text, fill, color, d, href;
    nlohmann::json data;  ///< the element's data-* attributes
};

/// The boxes the probe found for `selector`, in document order.
std::vector<Box> boxes(const nlohmann::json& probe, const std::string& selector);

/// Whether `inner` lies vertically within `outer`, give or take `slack` px.
bool inside(const Box& inner, const Box& outer, double slack = 0.5);

/// Renders `page` (copied, with the probe appended) and returns what the probe saw of `selectors`
/// (`vw`: window width, `sw`: scroll width, `found`: selector -> boxes); `before` is script run first
/// (e.g. a click). A page narrower than kNarrowestWindow is rendered in an iframe of that width.
/// A script error on the page or a probe that did not run is a test failure.
nlohmann::json probe_page(const std::filesystem::path& page, const std::filesystem::path& work,
                          const std::vector<std::string>& selectors, int width = 1280, const std::string& before = "");

/// Milliseconds of a tick label ("2.5 s", "250 ms"); NaN (and a test failure) for anything else.
double tick_ms(const std::string& text);

/// A test with its own scratch directory `work_` (removed afterwards); fails at once without Chromium.
class BrowserPageTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;

    std::filesystem::path work_;
};

}  // namespace lockcheck::testing
