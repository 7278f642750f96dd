#include "core/capabilities.hpp"
#include "core/option_kinds.hpp"
#include "recipes/mysql_stock_decrement.hpp"

namespace lockcheck {
namespace {

/// The largest initial stock.
constexpr std::int64_t kMaxStock = 1'000'000'000;

}  // namespace

RecipeDescriptor mysql_stock_decrement_recipe() {
    return {.name = "mysql-stock-decrement",
            .description =
                "not a lock: UPDATE stock SET n = n - 1 WHERE id = ? AND n > 0; option stock, checked for "
                "oversell",
            .topologies = {"mysql-single", "mysql-replicated"},
            .supports = capabilities({capability::kStock}),
            .options = {integer_option("stock", "initial stock of each key, set once per run",
                                       MysqlStockDecrement::kDefaultStock, 0, kMaxStock)},
            .make = [](const std::vector<std::string>& endpoints, const ConnectionOptions& connection,
                       const nlohmann::json& options) -> std::unique_ptr<WorkerClient> {
                return std::make_unique<MysqlStockDecrement>(endpoints, connection,
                                                             options.at("stock").get<std::int64_t>());
            }};
}

}  // namespace lockcheck
