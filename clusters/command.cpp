#include "clusters/command.hpp"

#include <boost/process.hpp>
#include <iterator>

#include "clusters/contained_spawn.hpp"
#include "clusters/run_containment.hpp"

namespace bp = boost::process;

namespace lockcheck {

std::string join_argv(const std::vector<std::string>& argv) {
    std::string text;
    for (const auto& a : argv) {
        if (!text.empty()) text += ' ';
        text += a;
    }
    return text;
}

CommandResult run_command(const std::vector<std::string>& argv) {
    if (argv.empty()) throw CommandError("empty command");
    auto exe = argv[0].find('/') == std::string::npos ? bp::search_path(argv[0]) : boost::filesystem::path(argv[0]);
    if (exe.empty()) throw CommandError("`" + argv[0] + "` is not installed (not found in PATH)");
    bp::ipstream out;
    std::error_code ec;
    std::unique_ptr<ProcessCgroup> cgroup;  // when the run has cgroups: whatever the command leaves dies with it
    try {
        cgroup = new_child_cgroup();
    } catch (const std::runtime_error& e) {
        throw CommandError("cannot run `" + join_argv(argv) + "`: " + e.what());
    }
    // No bp::limit_handles here: in Boost 1.74 it closes the output pipe in the child, and the output is lost.
    bp::child child(exe, bp::args(std::vector<std::string>(argv.begin() + 1, argv.end())),
                    bp::std_in<bp::null, (bp::std_out & bp::std_err)> out,
                    JoinCgroup{{}, cgroup ? cgroup->procs_file().c_str() : nullptr}, ec);
    if (ec) throw CommandError("cannot run `" + join_argv(argv) + "`: " + ec.message());
    CommandResult result;
    result.output.assign(std::istreambuf_iterator<char>(out), {});
    child.wait(ec);
    result.exit_code = child.exit_code();
    return result;
}

std::string run_checked(const std::vector<std::string>& argv) {
    auto result = run_command(argv);
    if (result.exit_code != 0) {
        auto first_line = result.output.substr(0, result.output.find('\n'));
        throw CommandError("`" + join_argv(argv) + "` failed: " +
                           (first_line.empty() ? "exit " + std::to_string(result.exit_code) : first_line));
    }
    return result.output;
}

}  // namespace lockcheck
