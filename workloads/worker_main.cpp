#include "workloads/worker_main.hpp"

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include "workloads/protocol.hpp"
#include "workloads/recipes.hpp"

namespace lockcheck {
namespace {

WorkerReply serve(LockClient& client, const WorkerRequest& request) {
    WorkerReply reply;
    reply.id = request.id;
    LockResult result;
    const LockRequest lock{request.key, request.owner.value_or(""), request.ttl_ms.value_or(0)};
    if (request.f == "acquire") {
        result = client.acquire(lock);
    } else if (request.f == "release") {
        result = client.release(lock);
    } else if (request.f == "renew") {
        result = client.renew(lock);
    } else if (request.f == "read" || request.f == "write") {
        result = LockResult::ok();  // a checkpoint: answering at all is the point
    } else {
        result = LockResult::fail("unsupported op '" + request.f + "'");
    }
    reply.type = result.type;
    reply.token = result.token;
    reply.error = result.error;
    reply.value = result.value;
    return reply;
}

}  // namespace

int run_worker(std::istream& in, std::ostream& out) {
    std::string line;
    if (!std::getline(in, line)) return 0;
    std::unique_ptr<LockClient> client;
    WorkerHello hello;
    try {
        const WorkerInit init = decode_init(line);
        const RecipeInfo* recipe = find_recipe(init.recipe);
        if (!recipe) throw std::invalid_argument("unknown recipe '" + init.recipe + "'");
        client = make_lock_client(init.recipe, init.nodes, std::chrono::milliseconds(init.server_timeout_ms),
                                  init.recipe_options);
        hello = {"lockcheck worker (" + init.recipe + ")", recipe->supports};
        if (!client->has_lease()) hello.supports.emplace_back("no-lease");
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
