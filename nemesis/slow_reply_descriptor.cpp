#include "nemesis/proxy_node_fault.hpp"
#include "nemesis/slow_reply.hpp"

namespace lockcheck {

FaultDescriptor slow_reply_fault() {
    return {.name = "slow-reply",
            .description =
                "the lock holder's replies (server to client) arrive slow_reply_ms late, so a grant can arrive "
                "after its lease (fault proxy; no root needed)",
            .options = {proxy_latency_option("slow_reply_ms",
                                             "how late the holder's replies arrive: ms, or \"Nxttl\" (above 1xttl: "
                                             "grants arrive after their lease)",
                                             TtlTime{0, 1.5})},
            .needs_proxy = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<SlowReply>(
                    targets.workers, targets.proxy,
                    std::chrono::milliseconds(options.at("slow_reply_ms").get<std::int64_t>()));
            },
            .refuses = [](const SpecView& spec) { return refuse_unproxied_topology("slow-reply", spec); }};
}

}  // namespace lockcheck
