#include "clusters/node.hpp"

#include "core/interruptible_sleep.hpp"
#include "host/child_process.hpp"

namespace lockcheck {

Node::Node(std::string name, std::unique_ptr<NodeRuntime> runtime, std::filesystem::path dir, NodeProgram program,
           std::vector<std::string> env, std::stop_token interrupt, std::unique_ptr<NodeDataMount> data)
    : name_(std::move(name)),
      dir_(std::move(dir)),
      program_(std::move(program)),
      env_(std::move(env)),
      interrupt_(std::move(interrupt)),
      data_(std::move(data)),
      runtime_(std::move(runtime)) {}

Node::~Node() {
    std::lock_guard lock(mutex_);
    runtime_->kill();  // kills if still running
    data_.reset();     // then unmounts
}

std::string Node::last_log_line() const { return last_nonblank_line(runtime_->read_log()); }

std::string Node::run_in_network(const std::vector<std::string>& argv) const {
    try {
        return runtime_->run_in_network(argv);
    } catch (const NodeRuntimeError& e) {
        throw std::runtime_error("node " + name_ + ": " + e.what());
    }
}

void Node::copy_in(const std::filesystem::path& from, const std::filesystem::path& to) const {
    try {
        runtime_->copy_in(from, to);
    } catch (const NodeRuntimeError& e) {
        throw std::runtime_error("node " + name_ + ": " + e.what());
    }
}

void Node::rewrite_in_place(const std::filesystem::path& file, const std::string& bytes) const {
    try {
        runtime_->rewrite_in_place(file, bytes);
    } catch (const NodeRuntimeError& e) {
        throw std::runtime_error("node " + name_ + ": " + e.what());
    }
}

void Node::start(std::chrono::milliseconds ready_timeout) {
    std::unique_lock lock(mutex_);
    runtime_->kill();
    paused_ = false;
    if (data_) {
        try {
            data_->mount();
        } catch (const UnsyncedFsError& e) {
            throw NodeStartError("node " + name_ + ": " + e.what());
        }
    }
    try {
        runtime_->start(ServerLaunch{program_.argv, env_, program_.launcher});
    } catch (const NodeRuntimeError& e) {
        throw NodeStartError("node " + name_ + ": " + e.what());
    }
    const auto deadline = std::chrono::steady_clock::now() + ready_timeout;
    while (!program_.ready(address())) {
        if (!runtime_->running())
            throw NodeStartError("node " + name_ + " (" + program_.argv.front() + ") exited with status " +
                                 std::to_string(runtime_->exit_status().value_or(-1)) +
                                 " before it was ready; its log says: " + last_log_line());
        if (std::chrono::steady_clock::now() >= deadline) {
            runtime_->kill();
            throw NodeStartError("node " + name_ + " (" + program_.argv.front() + ") was not ready at " + address() +
                                 " after " + std::to_string(ready_timeout.count()) +
                                 " ms; its log says: " + last_log_line());
        }
        lock.unlock();
        const bool interrupted = !interruptible_sleep_for(interrupt_, std::chrono::milliseconds(20));
        lock.lock();
        if (interrupted) {
            runtime_->kill();
            throw NodeStartError("node " + name_ + ": interrupted before it was ready");
        }
    }
}

void Node::stop(std::chrono::milliseconds grace) {
    std::lock_guard lock(mutex_);
    runtime_->stop(grace);
    paused_ = false;
    if (data_) data_->unmount();
}

void Node::stop_at_once() {
    std::lock_guard lock(mutex_);
    runtime_->kill();
    paused_ = false;
    if (data_) data_->unmount();
}

void Node::kill() {
    std::lock_guard lock(mutex_);
    runtime_->kill();
    paused_ = false;
}

PowerLossSummary Node::lose_power(const unsyncedfs::Tear& tear) {
    std::lock_guard lock(mutex_);
    if (!data_) throw std::logic_error("node " + name_ + " keeps no data on the lose-unsynced filesystem");
    runtime_->kill();  // reaped: none of its writes can arrive after the loss
    paused_ = false;
    return data_->power_loss(tear);
}

void Node::set_disk_errors(const unsyncedfs::DiskErrors& errors) {
    std::lock_guard lock(mutex_);
    if (!data_) throw std::logic_error("node " + name_ + " keeps no data on the lose-unsynced filesystem");
    data_->set_disk_errors(errors);
}

void Node::make_data_durable() {
    std::lock_guard lock(mutex_);
    if (data_) data_->write_back();
}

std::optional<std::string> Node::data_failure() const {
    std::lock_guard lock(mutex_);
    return data_ ? data_->failure() : std::nullopt;
}

void Node::pause() {
    std::lock_guard lock(mutex_);
    runtime_->pause();
    paused_ = true;
}

void Node::resume() {
    std::lock_guard lock(mutex_);
    runtime_->resume();
    paused_ = false;
}

bool Node::paused() const {
    std::lock_guard lock(mutex_);
    return paused_;
}

bool Node::running() {
    std::lock_guard lock(mutex_);
    return runtime_->running();
}

pid_t Node::pid() const {
    std::lock_guard lock(mutex_);
    return runtime_->pid();
}

std::vector<Node*> node_pointers(const std::vector<std::unique_ptr<Node>>& nodes) {
    std::vector<Node*> out;
    for (const auto& n : nodes) out.push_back(n.get());
    return out;
}

std::vector<std::string> node_endpoints(const std::vector<std::unique_ptr<Node>>& nodes, int port,
                                        const std::string& prefix) {
    std::vector<std::string> out;
    for (const auto& n : nodes) out.push_back(prefix + n->address() + ":" + std::to_string(port));
    return out;
}

}  // namespace lockcheck
