#include "workers/unique_ids_workload.hpp"

#include "core/capabilities.hpp"
#include "core/interruptible_sleep.hpp"
#include "workers/slot_random.hpp"

namespace lockcheck {
namespace {

void run_unique_id_cycles(SlotSession& session, const WorkloadContext& context, int slot, const std::stop_token& stop) {
    const WorkloadOptions& options = context.options;
    SlotRandom random(options.seed, slot);
    while (!stop.stop_requested() && !context.recorder.full()) {
        Op generate;
        generate.f = std::string(fn::kGenerateId);
        generate.key = random.pick(options.keys);
        session.perform(std::move(generate));
        interruptible_sleep_for(stop, random.within(options.think_ms));
    }
}

}  // namespace

const WorkloadDescriptor& unique_ids_workload() {
    static const WorkloadDescriptor descriptor{"unique-ids",
                                               "generate-id on a random key, with a think time between, until the run "
                                               "stops",
                                               capability::kUniqueIds, run_unique_id_cycles};
    return descriptor;
}

}  // namespace lockcheck
