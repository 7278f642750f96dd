#include "core/option_kinds.hpp"
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
                                             TtlTime{0, 1.5}),
                        choice_option("slow_reply_target",
                                      "which worker it slows: holder (one that holds a lock, so its release and "
                                      "next grant are late) or idle (one neither holding nor acquiring, so its "
                                      "next acquire is sent inside the fault)",
                                      "holder", {"holder", "idle"})},
            .needs_proxy = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<SlowReply>(
                    targets.workers, targets.proxy,
                    std::chrono::milliseconds(options.at("slow_reply_ms").get<std::int64_t>()),
                    options.at("slow_reply_target").get<std::string>() == "idle");
            },
            .refuses = [](const SpecView& spec) { return refuse_unproxied_topology("slow-reply", spec); }};
}

}  // namespace lockcheck
