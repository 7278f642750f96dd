// The Debian packages the image of lockcheck holds (clusters/runtimes/debian_packages.hpp):
// dpkg-query's lines, the closure over Depends (alternatives, Provides, the
// -headless rule, Essential packages) and the files of a package's list.
#include "clusters/runtimes/debian_packages.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;

namespace {

// Package, binary:Package, status, Essential, Provides, Pre-Depends and Depends.
const char* const kStatus =
    "zookeeper\tzookeeper\tinstalled\tno\t\t, adduser, default-jre, libzookeeper-java (= 3.8.0-11)\n"
    "default-jre\tdefault-jre\tinstalled\tno\t\t, default-jre-headless (= 2:1.17-74), openjdk-17-jre\n"
    "default-jre-headless\tdefault-jre-headless\tinstalled\tno\t\t, openjdk-17-jre-headless\n"
    "openjdk-17-jre\topenjdk-17-jre\tinstalled\tno\tjava-runtime\t, libgl1\n"
    "openjdk-17-jre-headless\topenjdk-17-jre-headless\tinstalled\tno\tjava-runtime-headless\t, libc6 (>= 2.34)\n"
    "libgl1\tlibgl1:amd64\tinstalled\tno\t\t, \n"
    "libzookeeper-java\tlibzookeeper-java\tinstalled\tno\t\t, java-runtime-headless | gcj-jre, liblog4j1.2-java\n"
    "liblog4j1.2-java\tliblog4j1.2-java\tinstalled\tno\t\t, \n"
    "adduser\tadduser\tinstalled\tno\t\t, passwd | not-here\n"
    "passwd\tpasswd\tinstalled\tno\t\tlibpam0g (>= 0.99), \n"
    "libpam0g\tlibpam0g:amd64\tinstalled\tno\t\t, \n"
    "libc6\tlibc6:amd64\tinstalled\tno\t\t, \n"
    "dash\tdash\tinstalled\tyes\t\t, \n"
    "removed\tremoved\tconfig-files\tno\t\t, \n";

}  // namespace

TEST(DebianPackages, TheLinesOfDpkgQueryAreParsedAndOnlyInstalledOnesKept) {
    const auto packages = parse_installed_packages(kStatus);
    EXPECT_FALSE(packages.contains("removed"));
    ASSERT_TRUE(packages.contains("libc6"));
    EXPECT_EQ(packages.at("libc6").list_name, "libc6:amd64");
    EXPECT_TRUE(packages.at("dash").essential);
    EXPECT_EQ(packages.at("openjdk-17-jre-headless").provides, std::vector<std::string>{"java-runtime-headless"});
}

TEST(DebianPackages, TheClosureFollowsDependsTakesHeadlessVariantsAndAddsEssentials) {
    const auto packages = parse_installed_packages(kStatus);
    std::vector<std::string> missing;
    const auto closure = dependency_closure(packages, {"zookeeper", "no-such-server"}, missing);
    EXPECT_EQ(missing, std::vector<std::string>{"no-such-server"});
    const std::set<std::string> expected{"zookeeper",
                                         "adduser",
                                         "passwd",
                                         "libpam0g",
                                         "default-jre-headless",
                                         "openjdk-17-jre-headless",
                                         "libc6",
                                         "libzookeeper-java",
                                         "liblog4j1.2-java",
                                         "dash"};
    EXPECT_EQ(closure, expected) << "no default-jre, openjdk-17-jre or libgl1: a server draws no window";
}

TEST(DebianPackages, TheFilesOfAListAreResolvedWithoutDocumentation) {
    const lockcheck::testing::ScratchDir dir("dpkg-info");
    const auto file = dir.path() / "bin-of-libc";
    std::ofstream(file) << "x";
    std::ofstream(dir.path() / "libc6:amd64.list") << "/.\n"
                                                   << file.string() << "\n/usr/share/doc/libc6/copyright\n"
                                                   << dir.path().string() << "/missing\n";
    const auto packages = parse_installed_packages(kStatus);
    const auto files = package_files(packages, {"libc6"}, dir.path());
    EXPECT_EQ(files, std::vector<std::filesystem::path>{std::filesystem::canonical(file)});
}

TEST(DebianPackages, TheLinksOfAlternativesAreTheMasterAndSlaveLinksThatExist) {
    const lockcheck::testing::ScratchDir dir("dpkg-alternatives");
    const auto links = dir.path() / "bin";
    std::filesystem::create_directories(links);
    std::filesystem::create_symlink("/etc/alternatives/java", links / "java");
    std::filesystem::create_symlink("/etc/alternatives/iptables-save", links / "iptables-save");
    std::filesystem::create_directories(dir.path() / "alternatives");
    std::ofstream(dir.path() / "alternatives" / "java")
        << "auto\n"
        << (links / "java").string() << "\njava.1.gz\n"
        << (links / "java.1.gz").string() << "\n\n/usr/lib/jvm/bin/java\n1711\n";
    std::ofstream(dir.path() / "alternatives" / "iptables")
        << "manual\n"
        << (links / "iptables").string() << "\niptables-save\n"
        << (links / "iptables-save").string() << "\n\n/usr/sbin/iptables-nft\n20\n";
    const auto canonical_links = std::filesystem::canonical(links);
    EXPECT_EQ(alternative_links(dir.path() / "alternatives"),
              (std::vector<std::filesystem::path>{canonical_links / "iptables-save", canonical_links / "java"}))
        << "the missing master link iptables and the missing slave java.1.gz are left out";
}
