#include "clusters/servers/mariadb_node.hpp"

#include <fcntl.h>
#include <mysql.h>
#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "clusters/servers/server_data_files.hpp"
#include "host/system_command.hpp"
#include "clusters/servers/config_quoting.hpp"

namespace lockcheck {
namespace {

/// The redo log's size, for the installer and the server alike: the default
/// 96 MB would make every node's data directory 114 MB (22 MB with this) and
/// the installation three times slower.
constexpr const char* kRedoLogSize = "--innodb-log-file-size=8M";

constexpr const char* kSocketName = "mysqld.sock";

/// The OS user the servers run as and the harness administers them as: root
/// normally; without root (loopback mode) the invoking user, for whom
/// mariadb-install-db creates a socket-authenticated account too.
std::string os_user() {
    if (::geteuid() == 0) return "root";
    const passwd* pw = ::getpwuid(::geteuid());
    return pw ? pw->pw_name : "root";
}

struct MysqlCloser {
    void operator()(MYSQL* m) const { mysql_close(m); }
};
using MysqlPtr = std::unique_ptr<MYSQL, MysqlCloser>;

unsigned int whole_seconds(std::chrono::milliseconds timeout) {
    return static_cast<unsigned int>(std::max<std::int64_t>(1, (timeout.count() + 999) / 1000));
}

/// A root connection over the node's socket, or nullptr with `error` set.
MysqlPtr root_connection(const std::filesystem::path& node_dir, std::chrono::milliseconds timeout, std::string& error) {
    MysqlPtr m(mysql_init(nullptr));
    if (!m) {
        error = "out of memory";
        return nullptr;
    }
    const unsigned int seconds = whole_seconds(timeout);
    my_bool no = 0;
    mysql_optionsv(m.get(), MYSQL_OPT_CONNECT_TIMEOUT, &seconds);
    mysql_optionsv(m.get(), MYSQL_OPT_READ_TIMEOUT, &seconds);
    mysql_optionsv(m.get(), MYSQL_OPT_WRITE_TIMEOUT, &seconds);
    mysql_optionsv(m.get(), MYSQL_OPT_RECONNECT, &no);
    // A short path to the socket, however deep the node's directory is.
    const int dir_fd = ::open(node_dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) {
        error = "cannot open " + node_dir.string();
        return nullptr;
    }
    const std::string socket = "/proc/self/fd/" + std::to_string(dir_fd) + "/" + kSocketName;
    const bool connected =
        mysql_real_connect(m.get(), nullptr, os_user().c_str(), nullptr, nullptr, 0, socket.c_str(), 0);
    ::close(dir_fd);
    if (!connected) {
        error = mysql_error(m.get());
        return nullptr;
    }
    return m;
}

/// The installer's reason: its first line naming an error or a failure,
/// else its last non-blank line.
std::string installer_reason(const std::string& text) {
    std::istringstream in(text);
    std::string line, last = "(no output)";
    while (std::getline(in, line)) {
        if (line.find("ERROR") != std::string::npos || line.find("Errcode") != std::string::npos) return line;
        if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
    }
    return last;
}

/// `text` with every non-empty password of `hidden` replaced by "***".
std::string without_secrets(std::string text, const ServerCredentials& hidden) {
    for (const std::string* secret : {&hidden.client_password, &hidden.replication_password}) {
        if (secret->empty()) continue;
        for (auto at = text.find(*secret); at != std::string::npos; at = text.find(*secret, at))
            text.replace(at, secret->size(), "***");
    }
    return text;
}

/// "/tmp/lockcheck-mariadb-<run_id>-": the installer links of a run start so.
std::string installer_link_prefix(const std::string& run_id) { return "/tmp/lockcheck-mariadb-" + run_id + "-"; }

/// A path by which mariadb-install-db can reach `dir`: `dir` itself when it
/// holds only characters no shell splits or expands (the installer is a shell
/// script that uses its --datadir unquoted: `chown $user $ldata` failed for a
/// store path with a space), else a symbolic link to it in a fresh directory
/// of /tmp, removed with this object.
class InstallerPath {
public:
    InstallerPath(const std::filesystem::path& dir, const std::string& run_id) : path_(dir) {
        const std::string text = dir.string();
        if (std::all_of(text.begin(), text.end(), [](char c) {
                return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
                       c == '.' || c == '_' || c == '-';
            }))
            return;
        std::string pattern = installer_link_prefix(run_id) + "XXXXXX";
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("cannot make a directory in /tmp for the installer: " +
                                     std::string(std::strerror(errno)));
        link_dir_ = pattern;
        path_ = link_dir_ / "node";
        std::filesystem::create_directory_symlink(dir, path_);
    }
    ~InstallerPath() {
        std::error_code ec;
        if (!link_dir_.empty()) std::filesystem::remove_all(link_dir_, ec);  // the link, not what it names
    }
    InstallerPath(const InstallerPath&) = delete;
    InstallerPath& operator=(const InstallerPath&) = delete;

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
    std::filesystem::path link_dir_;
};

}  // namespace

std::vector<std::string> remove_mariadb_installer_links(const std::string& run_id) noexcept {
    std::vector<std::string> removed;
    if (run_id.empty()) return removed;
    const std::string prefix = installer_link_prefix(run_id);
    std::error_code ec;
    for (std::filesystem::directory_iterator it("/tmp", ec), end; !ec && it != end; it.increment(ec)) {
        const std::string path = it->path().string();
        std::error_code remove_error;
        // remove_all removes a symbolic link itself, never what it names.
        if (path.rfind(prefix, 0) == 0 && std::filesystem::remove_all(it->path(), remove_error) > 0 && !remove_error)
            removed.push_back(path);
    }
    return removed;
}

void install_mariadb_datadirs(const std::vector<std::filesystem::path>& node_dirs, const std::string& run_id) {
    std::vector<std::string> errors(node_dirs.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < node_dirs.size(); ++i) {
        threads.emplace_back([&, i] {
            try {
                std::filesystem::create_directories(node_dirs[i] / "tmp");
                const InstallerPath node(node_dirs[i], run_id);
                const auto result = run_command({"mariadb-install-db", "--no-defaults", "--user=" + os_user(),
                                                 "--datadir=" + (node.path() / "data").string(),
                                                 "--tmpdir=" + (node.path() / "tmp").string(), "--skip-test-db",
                                                 "--auth-root-authentication-method=socket", kRedoLogSize});
                std::ofstream(node_dirs[i] / "install.log") << result.output;
                if (result.exit_code != 0)
                    errors[i] = "mariadb-install-db exited with status " + std::to_string(result.exit_code) + "; " +
                                (node_dirs[i] / "install.log").string() + " says: " + installer_reason(result.output);
            } catch (const std::exception& e) {
                errors[i] = e.what();
            }
        });
    }
    for (auto& t : threads) t.join();
    for (std::size_t i = 0; i < node_dirs.size(); ++i)
        if (!errors[i].empty())
            throw NodeStartError("node " + node_dirs[i].filename().string() +
                                 ": cannot install its data directory: " + errors[i]);
}

std::filesystem::path mariadb_socket(const std::filesystem::path& node_dir) { return node_dir / kSocketName; }

NodeProgram mariadb_server_program(const std::filesystem::path& dir, const std::string& address, int server_id,
                                   const DurabilitySettings& durability, const std::vector<std::string>& extra_args) {
    const int flush = durability.mariadb_flush_log_at_trx_commit;
    const int sync_binlog = durability.mariadb_sync_binlog;
    if (flush < 0 || flush > 2)
        throw std::invalid_argument("innodb_flush_log_at_trx_commit must be 0, 1 or 2, not " + std::to_string(flush));
    if (sync_binlog != 0 && sync_binlog != 1)
        throw std::invalid_argument("sync_binlog must be 0 or 1, not " + std::to_string(sync_binlog));
    std::filesystem::create_directories(dir / "tmp");
    std::vector<std::string> argv{"mariadbd",
                                  "--no-defaults",
                                  "--user=" + os_user(),
                                  "--datadir=" + (dir / "data").string(),
                                  std::string("--socket=../") + kSocketName,  // relative to the datadir
                                  "--pid-file=" + (dir / "mysqld.pid").string(),
                                  "--tmpdir=" + (dir / "tmp").string(),
                                  "--bind-address=" + address,
                                  "--port=" + std::to_string(kMariadbPort),
                                  "--server-id=" + std::to_string(server_id),
                                  "--log-bin=mysql-bin",
                                  "--relay-log=relay-bin",
                                  "--log-slave-updates=1",
                                  "--binlog-format=ROW",
                                  "--skip-name-resolve",
                                  "--innodb-buffer-pool-size=32M",
                                  kRedoLogSize,
                                  "--performance-schema=OFF",
                                  "--innodb-flush-log-at-trx-commit=" + std::to_string(flush),
                                  "--sync-binlog=" + std::to_string(sync_binlog)};
    if (!durability.mariadb_doublewrite) argv.push_back("--innodb-doublewrite=0");
    argv.insert(argv.end(), extra_args.begin(), extra_args.end());
    return NodeProgram{argv,
                       [dir](const std::string&) {
                           std::string error;
                           return root_connection(dir, std::chrono::seconds(1), error) != nullptr;
                       },
                       dir / "data", "any-fsync", std::nullopt, mariadb_data_files()};
}

void mariadb_admin(const Node& node, const std::vector<std::string>& statements, const ServerCredentials& hidden,
                   std::chrono::milliseconds timeout) {
    std::string error;
    auto m = root_connection(node.dir(), timeout, error);
    if (!m) throw std::runtime_error("node " + node.name() + ": cannot connect as root: " + error);
    for (const auto& sql : statements) {
        if (mysql_real_query(m.get(), sql.c_str(), sql.size()) != 0)
            throw std::runtime_error("node " + node.name() + ": `" + without_secrets(sql, hidden) +
                                     "` failed: " + without_secrets(mysql_error(m.get()), hidden));
        // Drain any result set so the connection stays usable.
        do {
            if (MYSQL_RES* r = mysql_store_result(m.get())) mysql_free_result(r);
        } while (mysql_next_result(m.get()) == 0);
    }
}

std::vector<std::string> mariadb_admin_column(const Node& node, const std::string& query,
                                              std::chrono::milliseconds timeout) {
    std::vector<std::string> values;
    try {
        std::string error;
        auto m = root_connection(node.dir(), timeout, error);
        if (!m || mysql_real_query(m.get(), query.c_str(), query.size()) != 0) return values;
        std::unique_ptr<MYSQL_RES, decltype(&mysql_free_result)> result(mysql_store_result(m.get()),
                                                                        &mysql_free_result);
        if (!result || mysql_num_fields(result.get()) == 0) return values;
        while (MYSQL_ROW row = mysql_fetch_row(result.get()))
            if (row[0]) values.emplace_back(row[0], mysql_fetch_lengths(result.get())[0]);
    } catch (...) {}
    return values;
}

std::optional<std::string> mariadb_admin_scalar(const Node& node, const std::string& query,
                                                std::chrono::milliseconds timeout) {
    auto values = mariadb_admin_column(node, query, timeout);
    if (values.empty()) return std::nullopt;
    return values.front();
}

void create_mariadb_accounts(const Node& node, const ServerCredentials& credentials) {
    const std::string client = mysql_quote(kMariadbUser) + "@'%'";
    const std::string replication = mysql_quote(kMariadbReplicationUser) + "@'%'";
    const std::string database = std::string("`") + kMariadbDatabase + "`";
    mariadb_admin(
        node,
        {"CREATE DATABASE IF NOT EXISTS " + database,
         "CREATE USER IF NOT EXISTS " + client + " IDENTIFIED BY " + mysql_quote(credentials.client_password),
         "GRANT SELECT, INSERT, UPDATE, DELETE, CREATE ON " + database + ".* TO " + client,
         "CREATE USER IF NOT EXISTS " + replication + " IDENTIFIED BY " + mysql_quote(credentials.replication_password),
         "GRANT REPLICATION SLAVE ON *.* TO " + replication},
        credentials);
}

}  // namespace lockcheck
