#include "clusters/topologies/mysql_replicated.hpp"

#include "clusters/servers/config_quoting.hpp"
#include "clusters/servers/mariadb_node.hpp"
#include "clusters/topologies/mysql_single.hpp"
#include "clusters/network/peer_links.hpp"

namespace lockcheck {
namespace {

constexpr auto kCatchUpWait = std::chrono::seconds(20);

}  // namespace

MysqlReplicated::MysqlReplicated(const TopologyOptions& options, const TestNetwork& network)
    : primary_(make_mariadb_node(options, network, 0, "n1")),
      replica_(make_mariadb_node(options, network, 1, "n2", {"--read-only=1"})),
      replication_port_(options.peer_links
                            ? options.peer_links->add_pair_face(replica_->address(), primary_->address(), kMariadbPort)
                            : kMariadbPort),
      credentials_(options.credentials),
      interrupt_(options.interrupt),
      run_id_(network.run_id()) {}

void MysqlReplicated::start() {
    install_mariadb_datadirs({primary_->dir(), replica_->dir()}, run_id_);
    primary_->start();
    replica_->start();
    create_mariadb_accounts(*primary_, credentials_);
    mariadb_admin(*replica_,
                  {"CHANGE MASTER TO MASTER_HOST=" + mysql_quote(primary_->address()) + ", MASTER_PORT=" +
                       std::to_string(replication_port_) + ", MASTER_USER=" + mysql_quote(kMariadbReplicationUser) +
                       ", MASTER_PASSWORD=" + mysql_quote(credentials_.replication_password) +
                       ", MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1",
                   "START SLAVE"},
                  credentials_);
    await_settled(
        "mysql-replicated", interrupt_, kCatchUpWait, [&] { return replica_caught_up(); },
        [&] {
            return "did not start: replica n2 did not catch up with n1 within 20 s; see n2's server.log (last slave "
                   "error: " +
                   mariadb_admin_scalar(*replica_, "SELECT @@last_sql_error").value_or("?") + ")";
        });
}

bool MysqlReplicated::replica_caught_up() {
    const auto logged = mariadb_admin_scalar(*primary_, "SELECT @@gtid_binlog_pos");
    const auto applied = mariadb_admin_scalar(*replica_, "SELECT @@gtid_slave_pos");
    return logged && applied && !logged->empty() && *logged == *applied;
}

void MysqlReplicated::stop() {
    replica_->stop();
    primary_->stop();
}

std::vector<std::string> MysqlReplicated::client_endpoints() const {
    return {mariadb_endpoint(*primary_), mariadb_endpoint(*replica_)};
}

Node* MysqlReplicated::primary() {
    auto writable = [](Node* n) {
        return mariadb_admin_scalar(*n, "SELECT @@read_only") == std::optional<std::string>("0");
    };
    if (Node* p = promoted(); p && writable(p)) return p;
    for (Node* n : nodes())
        if (writable(n)) return n;
    return nullptr;
}

void MysqlReplicated::promote(Node& replica) {
    mariadb_admin(replica, {"STOP SLAVE", "SET GLOBAL read_only = 0"});
    std::lock_guard lock(mutex_);
    promoted_ = &replica;
}

void MysqlReplicated::fence(Node& node) { mariadb_admin(node, {"SET GLOBAL read_only = 1"}); }

Node* MysqlReplicated::promoted() const {
    std::lock_guard lock(mutex_);
    return promoted_;
}

}  // namespace lockcheck
