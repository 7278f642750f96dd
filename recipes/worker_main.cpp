#include "recipes/worker_main.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include "recipes/protocol.hpp"
#include "recipes/recipes.hpp"

namespace lockcheck {
namespace {

/// The reply to `request`: whatever the client's invoke answers, with the request's id.
WorkerReply serve(WorkerClient& client, const WorkerRequest& request) {
    LockResult result = client.invoke(request);
    return {request.id, result.type, result.token, std::move(result.error), std::move(result.value), result.valid_ms};
}

/// The recipe's capabilities, then those the client adds (each once).
std::vector<std::string> announced_capabilities(const RecipeDescriptor& recipe, const WorkerClient& client) {
    std::vector<std::string> supports = recipe.supports;
    for (auto& extra : client.capabilities())
        if (std::find(supports.begin(), supports.end(), extra) == supports.end()) supports.push_back(std::move(extra));
    return supports;
}

}  // namespace

int run_worker(std::istream& in, std::ostream& out) {
    std::string line;
    if (!std::getline(in, line)) return 0;
    std::unique_ptr<WorkerClient> client;
    WorkerHello hello;
    try {
        const WorkerInit init = decode_init(line);
        const RecipeDescriptor* recipe = find_recipe(init.recipe);
        if (!recipe) throw std::invalid_argument("unknown recipe '" + init.recipe + "'");
        client = make_lock_client(init.recipe, init.nodes,
                                  {std::chrono::milliseconds(init.server_timeout_ms), init.auth, init.process}, init.recipe_options);
        hello = {"lockcheck worker (" + init.recipe + ")", announced_capabilities(*recipe, *client)};
    } catch (const std::exception& e) {
        out << encode(WorkerReply{0, OpType::Fail, std::nullopt, e.what(), nullptr}) << std::endl;
        return 254;
    }
    out << encode_hello(hello) << std::endl;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        WorkerReply reply;
        try {
            reply = serve(*client, decode_request(line));
        } catch (const ProtocolError& e) {
            reply.id = -1;
            reply.type = OpType::Fail;
            reply.error = std::string("bad request: ") + e.what();
        }
        out << encode(reply) << std::endl;
    }
    return 0;
}

}  // namespace lockcheck
