// The Debian packages installed on this host and what one needs: the closure
// of a set of packages over their Depends and Pre-Depends, and the files it
// holds (dpkg's database, read with dpkg-query and /var/lib/dpkg/info). The
// image of lockcheck itself (clusters/runtimes/docker_lockcheck_image.hpp) is built
// from it, offline.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace lockcheck {

/// One installed package, as dpkg-query shows it.
struct InstalledPackage {
    std::string name;        ///< "libc6"
    std::string list_name;   ///< its ${binary:Package}, which names its file list: "libc6:amd64"
    bool essential = false;  ///< Essential: yes (every Debian system has it: sh, coreutils, ...)
    std::vector<std::string> provides;
    std::string depends;  ///< Pre-Depends and Depends, comma-separated, as dpkg writes them
};

/// The dpkg-query format parse_installed_packages() reads.
extern const char* const kDpkgQueryFormat;

/// Parses `dpkg-query -W -f=kDpkgQueryFormat` output; packages that are not
/// fully installed are left out.
std::map<std::string, InstalledPackage> parse_installed_packages(const std::string& text);

/// `roots` and every Essential package, with everything they depend on. Of
/// the alternatives of a dependency (`a | b`) the first installed one (by
/// name or by Provides) is taken; versions and architecture qualifiers are
/// ignored. A package named P that has an installed P-headless is taken as
/// P-headless: no server a run starts draws a window (zookeeper's default-jre
/// would bring a desktop's graphics stack). Roots that are not installed are
/// returned in `missing`.
std::set<std::string> dependency_closure(const std::map<std::string, InstalledPackage>& installed,
                                         const std::vector<std::string>& roots, std::vector<std::string>& missing);

/// This host's installed packages (runs dpkg-query). Throws CommandError.
std::map<std::string, InstalledPackage> installed_packages();

/// The paths dpkg installed for `packages` (their file lists), those that
/// exist on this host, with every directory of the path resolved (so
/// /lib/x86_64-linux-gnu/libc.so.6 becomes /usr/lib/..., on a merged-/usr
/// host), without documentation (/usr/share/doc, man, info, locale), sorted
/// and without duplicates.
std::vector<std::filesystem::path> package_files(const std::map<std::string, InstalledPackage>& installed,
                                                 const std::set<std::string>& packages,
                                                 const std::filesystem::path& info_dir = "/var/lib/dpkg/info");

/// The links update-alternatives made (/usr/bin/java, /usr/sbin/iptables,
/// ... -> /etc/alternatives/NAME), which no package's file list holds: the
/// master and slave links of every alternative in `dir`, those that exist on
/// this host, with their directories resolved as in package_files().
std::vector<std::filesystem::path> alternative_links(const std::filesystem::path& dir = "/var/lib/dpkg/alternatives");

}  // namespace lockcheck
