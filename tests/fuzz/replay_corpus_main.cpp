// Replays a fuzz target's corpus in the ordinary build: feeds every file of
// the directories given on the command line to LLVMFuzzerTestOneInput (the
// target's entry, linked beside this file) and exits 0 when none crashed.
// The seeds and every regression-* input of tests/fuzz/corpus/ are so checked
// by ctest on every change, without clang or the sanitizers (the exploring
// run, fuzz_smoke, is nightly: docs/fuzzing.md).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    std::size_t replayed = 0;
    for (int i = 1; i < argc; ++i) {
        std::vector<std::filesystem::path> files;
        for (const auto& entry : std::filesystem::directory_iterator(argv[i]))
            if (entry.is_regular_file()) files.push_back(entry.path());
        if (files.empty()) {
            std::fprintf(stderr, "replay_corpus: no input in %s\n", argv[i]);
            return 1;
        }
        for (const auto& file : files) {
            std::ifstream in(file, std::ios::binary);
            const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
            ++replayed;
        }
    }
    std::printf("replay_corpus: %zu inputs, none crashed\n", replayed);
    return replayed > 0 ? 0 : 1;
}
