#include "workloads/worker_main.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include "workloads/protocol.hpp"
#include "workloads/recipes.hpp"

namespace lockcheck {
namespace {

/// Whether the worker performs read/write itself (capability "resource").
bool owns_resource(const std::vector<std::string>& supports) {
    return std::find(supports.begin(), supports.end(), "resource") != supports.end();
}

LockResult resource_access(LockClient& client, const WorkerRequest& request, const LockRequest& lock, bool owned) {
    if (!owned) return LockResult::ok();  // a checkpoint: answering at all is the point
    if (request.f == "read") return client.read(lock);
    if (!request.value.is_number_integer()) return LockResult::fail("write needs an integer value");
    return client.write(lock, request.value.get<std::int64_t>());
}

WorkerReply serve(LockClient& client, const WorkerRequest& request, bool owns) {
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
        result = resource_access(client, request, lock, owns);
    } else if (request.f == fn::kStockInit) {
        result = client.stock_init(lock);
    } else if (request.f == fn::kDecrement) {
        result = client.decrement(lock);
    } else if (request.f == fn::kStockRead) {
        result = client.stock_read(lock);
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
        const RecipeDescriptor* recipe = find_recipe(init.recipe);
        if (!recipe) throw std::invalid_argument("unknown recipe '" + init.recipe + "'");
        client = make_lock_client(init.recipe, init.nodes,
                                  {std::chrono::milliseconds(init.server_timeout_ms), init.auth}, init.recipe_options);
        hello = {"lockcheck worker (" + init.recipe + ")", recipe->supports};
        for (auto& extra : client->extra_supports())
            if (std::find(hello.supports.begin(), hello.supports.end(), extra) == hello.supports.end())
                hello.supports.push_back(std::move(extra));
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
            reply = serve(*client, decode_request(line), owns_resource(hello.supports));
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
