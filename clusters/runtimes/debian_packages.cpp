#include "clusters/runtimes/debian_packages.hpp"

#include <fstream>
#include <optional>
#include <sstream>

#include "host/system_command.hpp"

namespace fs = std::filesystem;

namespace lockcheck {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::istringstream in(text);
    for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
    return parts;
}

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\n");
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(" \t\n") - first + 1);
}

/// "libfoo:any (>= 1.2)" -> "libfoo".
std::string package_name(const std::string& relation) {
    std::string name = trimmed(relation.substr(0, relation.find('(')));
    name = name.substr(0, name.find(':'));
    return trimmed(name.substr(0, name.find(' ')));
}

constexpr const char* kDocumentation[] = {"/usr/share/doc/", "/usr/share/man/", "/usr/share/info/",
                                          "/usr/share/locale/"};

}  // namespace

const char* const kDpkgQueryFormat =
    "${Package}\\t${binary:Package}\\t${db:Status-Status}\\t${Essential}\\t${Provides}\\t${Pre-Depends}, "
    "${Depends}\\n";

std::map<std::string, InstalledPackage> parse_installed_packages(const std::string& text) {
    std::map<std::string, InstalledPackage> packages;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const auto fields = split(line, '\t');
        if (fields.size() < 6 || fields[2] != "installed") continue;
        InstalledPackage package{fields[0], fields[1], fields[3] == "yes", {}, fields[5]};
        for (const auto& provided : split(fields[4], ','))
            if (const auto name = package_name(provided); !name.empty()) package.provides.push_back(name);
        packages[package.name] = std::move(package);
    }
    return packages;
}

std::set<std::string> dependency_closure(const std::map<std::string, InstalledPackage>& installed,
                                         const std::vector<std::string>& roots, std::vector<std::string>& missing) {
    std::map<std::string, std::string> provider;  // virtual name -> the first installed package providing it
    for (const auto& [name, package] : installed)
        for (const auto& virtual_name : package.provides) provider.emplace(virtual_name, name);
    const auto resolve = [&](const std::string& name) -> std::string {
        std::string found = installed.contains(name) ? name : (provider.contains(name) ? provider.at(name) : "");
        if (!found.empty() && installed.contains(found + "-headless")) found += "-headless";
        return found;
    };
    std::vector<std::string> todo;
    for (const auto& root : roots) {
        const auto found = resolve(package_name(root));
        if (found.empty())
            missing.push_back(package_name(root));
        else
            todo.push_back(found);
    }
    for (const auto& [name, package] : installed)
        if (package.essential) todo.push_back(name);
    std::set<std::string> closure;
    while (!todo.empty()) {
        const std::string name = todo.back();
        todo.pop_back();
        if (!closure.insert(name).second) continue;
        for (const auto& clause : split(installed.at(name).depends, ','))
            for (const auto& alternative : split(clause, '|'))
                if (const auto found = resolve(package_name(alternative)); !found.empty()) {
                    todo.push_back(found);
                    break;
                }
    }
    return closure;
}

std::map<std::string, InstalledPackage> installed_packages() {
    const auto result = run_command({"dpkg-query", "-W", std::string("-f=") + kDpkgQueryFormat});
    if (result.exit_code != 0) throw CommandError("dpkg-query failed: " + trimmed(result.output));
    return parse_installed_packages(result.output);
}

namespace {

/// `path` with its directory resolved, if it exists (as a link or anything else).
std::optional<fs::path> existing_resolved(const fs::path& path) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec))) return std::nullopt;
    const auto dir = fs::canonical(path.parent_path(), ec);
    if (ec) return std::nullopt;
    return dir / path.filename();
}

}  // namespace

std::vector<fs::path> alternative_links(const fs::path& dir) {
    std::set<fs::path> links;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        // auto|manual, the master link, then slave name and slave link pairs up to a blank line.
        std::ifstream in(entry.path());
        std::string line;
        if (!std::getline(in, line)) continue;
        for (int n = 0; std::getline(in, line) && !line.empty(); ++n)
            if (n % 2 == 0)
                if (const auto link = existing_resolved(line)) links.insert(*link);
    }
    return {links.begin(), links.end()};
}

std::vector<fs::path> package_files(const std::map<std::string, InstalledPackage>& installed,
                                    const std::set<std::string>& packages, const fs::path& info_dir) {
    std::set<fs::path> files;
    for (const auto& name : packages) {
        const auto& package = installed.at(name);
        std::ifstream list(info_dir / (package.list_name + ".list"));
        if (!list) list.open(info_dir / (package.name + ".list"));
        for (std::string line; std::getline(list, line);) {
            if (line.empty() || line == "/.") continue;
            bool documentation = false;
            for (const char* prefix : kDocumentation) documentation = documentation || line.starts_with(prefix);
            if (documentation) continue;
            if (const auto path = existing_resolved(line)) files.insert(*path);
        }
    }
    return {files.begin(), files.end()};
}

}  // namespace lockcheck
