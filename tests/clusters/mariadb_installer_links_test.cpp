// What a run killed during the MariaDB install leaves in /tmp (issue 41,
// defect 13): the installer's link directory is named after the run, so
// `lockcheck clean` removes it once the run is dead: the link only, never
// the node directory it names, and never another run's.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "clusters/servers/mariadb_node.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;

TEST(MariadbInstallerLinks, ADeadRunsLinksAreRemovedAndOnlyThose) {
    const lockcheck::testing::ScratchDir node("installer-node with space");
    std::ofstream(node.path() / "data-file") << "kept";
    const std::string dead = "deadbeef41", other = "cafe0041";
    const std::filesystem::path dead_link = "/tmp/lockcheck-mariadb-" + dead + "-Ab12Cd";
    const std::filesystem::path other_link = "/tmp/lockcheck-mariadb-" + other + "-Ef34Gh";
    for (const auto& dir : {dead_link, other_link}) {
        std::filesystem::create_directories(dir);
        std::filesystem::create_directory_symlink(node.path(), dir / "node");
    }
    const auto removed = remove_mariadb_installer_links(dead);
    EXPECT_EQ(removed, std::vector<std::string>{dead_link.string()});
    EXPECT_FALSE(std::filesystem::exists(dead_link));
    EXPECT_TRUE(std::filesystem::exists(node.path() / "data-file")) << "the link was followed";
    EXPECT_TRUE(std::filesystem::exists(other_link / "node")) << "another run's link was removed";
    EXPECT_TRUE(remove_mariadb_installer_links("").empty());
    std::filesystem::remove_all(other_link);
}
