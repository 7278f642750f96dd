#include <cmath>

#include "nemesis/packet_loss.hpp"

namespace lockcheck {
namespace {

/// Option packet_loss: a probability in (0, 1].
OptionDescriptor packet_loss_option() {
    OptionDescriptor option{"packet_loss", "the probability that a packet is dropped, in (0, 1]", 0.3,
                            "must be a positive number",
                            [](const nlohmann::json& given) -> std::optional<nlohmann::json> {
                                if (!given.is_number()) return std::nullopt;
                                const auto probability = given.get<double>();
                                if (!(probability > 0) || !std::isfinite(probability)) return std::nullopt;
                                return probability;
                            }};
    option.check = [](const nlohmann::json& value, const OptionContext&) -> OptionProblem {
        if (value.get<double>() <= 1) return std::nullopt;
        return "must be a probability in (0, 1]";
    };
    return option;
}

}  // namespace

FaultDescriptor packet_loss_fault() {
    return {.name = "packet-loss",
            .description = "one node drops packets with probability packet_loss (needs namespaces)",
            .options = {packet_loss_option()},
            .make = [](const FaultTargets& targets, const nlohmann::json& options) -> std::unique_ptr<Fault> {
                return std::make_unique<PacketLoss>(targets.topology.nodes(), targets.namespaces,
                                                    options.at("packet_loss").get<double>());
            }};
}

}  // namespace lockcheck
