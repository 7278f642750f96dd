// A fresh, empty directory for one unit test, removed with everything in it
// when the test is done.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace lockcheck::testing {

class ScratchDir {
public:
    /// Creates TMPDIR/lockcheck-NAME-XXXXXX.
    explicit ScratchDir(const std::string& name) {
        std::string pattern = (std::filesystem::temp_directory_path() / ("lockcheck-" + name + "-XXXXXX")).string();
        if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp " + pattern + " failed");
        path_ = pattern;
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace lockcheck::testing
