#include "checkers/worker_resource.hpp"

#include <fmt/format.h>

#include "core/json_integer.hpp"

namespace lockcheck {

bool worker_owned(const Op& invoke, const Op& completion) {
    return invoke.resource == resource_owner::kWorker || completion.resource == resource_owner::kWorker;
}

void WorkerResourceCheck::add(const Op& completion) {
    if (completion.f == fn::kRead) {
        if (completion.type == OpType::Ok) ++reads_;
        return;
    }
    if (completion.type == OpType::Info) ++indeterminate_;
    if (completion.type != OpType::Ok) return;
    ++writes_;
    const auto value = json_integer<std::int64_t>(completion.value);
    if (!value) return;  // a write without its value proves nothing
    committed_[completion.key][*value].push_back(completion.index);
    process_of_[completion.index] = completion.process;
}

std::size_t WorkerResourceCheck::lost() const {
    std::size_t n = 0;
    for (const auto& [key, values] : committed_)
        for (const auto& [value, writes] : values) n += writes.size() - 1;
    return n;
}

void WorkerResourceCheck::finish(std::vector<Violation>& violations) const {
    for (const auto& [key, values] : committed_)
        for (const auto& [value, writes] : values) {
            if (writes.size() < 2) continue;
            Violation v;
            v.kind = "lost-update";
            v.ops = writes;
            v.description = fmt::format(
                "{} writes committed the same value {} to '{}' (ops {} by worker {} and {} by worker {}): their "
                "writers read the same value, so {} update(s) were lost",
                writes.size(), value, key, writes[0], process_of_.at(writes[0]), writes[1], process_of_.at(writes[1]),
                writes.size() - 1);
            v.details = {{"key", key}, {"value", value}, {"resource", resource_owner::kWorker}};
            violations.push_back(std::move(v));
        }
}

}  // namespace lockcheck
