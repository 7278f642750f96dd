#include <cmath>

#include "core/option_kinds.hpp"
#include "nemesis/packet_loss.hpp"

namespace lockcheck {
namespace {

/// Option packet_loss: a probability in (0, 1].
OptionDescriptor packet_loss_option() {
    OptionDescriptor positive{"packet_loss", "the probability that a packet is dropped, in (0, 1]", 0.3,
                              "must be a positive number",
                              [](const nlohmann::json& given) -> std::optional<nlohmann::json> {
                                  if (!given.is_number()) return std::nullopt;
                                  const auto number = given.get<double>();
                                  if (!(number > 0) || !std::isfinite(number)) return std::nullopt;
                                  return number;
                              }};
    return with_bound(
        std::move(positive), [](const nlohmann::json& value) { return value.get<double>() <= 1; },
        "must be a probability in (0, 1]");
}

}  // namespace

FaultDescriptor packet_loss_fault() {
    return {.name = "packet-loss",
            .description = "one node drops packets with probability packet_loss (needs namespaces)",
            .options = {packet_loss_option()},
            .needs_namespaces = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<PacketLoss>(targets.topology.nodes(), targets.namespaces,
                                                    options.at("packet_loss").get<double>());
            }};
}

}  // namespace lockcheck
