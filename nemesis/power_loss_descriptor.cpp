#include <map>
#include <string>

#include "core/option_kinds.hpp"
#include "nemesis/kill_restart.hpp"
#include "nemesis/power_loss.hpp"

namespace lockcheck {
namespace {

/// power_loss_after_grant_ms's default: no waiting for a grant.
constexpr std::int64_t kAtTheEventsTime = -1;

/// The options power-loss and torn-write share: which nodes, when, and for how long.
std::vector<OptionDescriptor> power_loss_options() {
    // The same field as kill-restart's: one restart delay for every kind of crash.
    const OptionDescriptor restart_delay = *find_option(kill_restart_fault().options, "restart_delay_ms");
    return {choice_option("power_loss_nodes",
                          "which nodes lose power: one the holder's lock is on, a majority (the lock's first) or all "
                          "at once",
                          "one", {"one", "majority", "all"}),
            restart_delay,
            integer_option("power_loss_after_grant_ms",
                           "strike this many ms after a fresh grant (an acquire ok after the event's time) while its "
                           "holder holds; -1: at the event's time",
                           kAtTheEventsTime, kAtTheEventsTime, kMaxAfterGrantMs)};
}

std::unique_ptr<Fault> make_power_loss(const FaultTargets& targets, const nlohmann::json& options,
                                       unsyncedfs::TearMode tear) {
    static const std::map<std::string, PowerLoss::Reach> reaches{
        {"one", PowerLoss::Reach::One}, {"majority", PowerLoss::Reach::Majority}, {"all", PowerLoss::Reach::All}};
    const auto after_grant = options.at("power_loss_after_grant_ms").get<std::int64_t>();
    return std::make_unique<PowerLoss>(LockLocator(targets.topology, targets.server_password), targets.workers,
                                       reaches.at(options.at("power_loss_nodes").get<std::string>()),
                                       options.at("restart_delay_ms").get<std::int64_t>(),
                                       after_grant == kAtTheEventsTime ? std::nullopt : std::optional(after_grant),
                                       targets.interrupt, tear);
}

}  // namespace

FaultDescriptor power_loss_fault() {
    return {.name = "power-loss",
            .description =
                "cut the power of the holder's lock nodes (unsynced data lost), restore it after "
                "restart_delay_ms",
            .options = power_loss_options(),
            .needs_unsynced_data = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) {
                return make_power_loss(targets, options, unsyncedfs::TearMode::None);
            }};
}

FaultDescriptor torn_write_fault() {
    auto descriptors = power_loss_options();
    descriptors.insert(
        descriptors.begin(),
        choice_option("torn_write_keeps",
                      "what of each file's writes since its last sync persists: every write but the last "
                      "and a seeded prefix of the last (last-write-prefix), or a seeded half of the 4 KiB "
                      "sectors written (sectors)",
                      "last-write-prefix", {"last-write-prefix", "sectors"}));
    return {.name = "torn-write",
            .description =
                "a power loss that tears unsynced writes: part of what the holder's lock nodes wrote since their "
                "last fsync persists, the rest is lost; power back after restart_delay_ms",
            .options = std::move(descriptors),
            .needs_unsynced_data = true,
            .make = [](const FaultTargets& targets, const nlohmann::json& options) {
                return make_power_loss(targets, options,
                                       *unsyncedfs::tear_mode_from_string(options.at("torn_write_keeps")));
            }};
}

}  // namespace lockcheck
