#include "recipes/zk_connection.hpp"

#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

namespace lockcheck {

/// Shared with the client library's threads; lives until the handle is closed
/// (zookeeper_close joins those threads), so watcher contexts stay valid.
struct ZkSession::State {
    mutable std::mutex mutex;
    std::condition_variable changed;
    int session_state = 0;                        ///< last ZOO_*_STATE reported
    std::map<std::string, std::uint64_t> events;  ///< watch events per path
};

namespace {

struct Pending {
    std::mutex mutex;
    std::condition_variable done_cv;
    bool done = false;
    ZkReply reply;
};
using PendingRef = std::shared_ptr<Pending>;

/// Completes the request whose data pointer is `data` (a heap PendingRef the
/// completion owns), filling its reply with `fill`.
template <typename Fill>
void complete(const void* data, Fill&& fill) {
    auto* ref = static_cast<PendingRef*>(const_cast<void*>(data));
    {
        std::lock_guard lock((*ref)->mutex);
        fill((*ref)->reply);
        (*ref)->done = true;
    }
    (*ref)->done_cv.notify_all();
    delete ref;
}

void void_done(int rc, const void* data) {
    complete(data, [&](ZkReply& r) { r.rc = rc; });
}

void stat_done(int rc, const Stat* stat, const void* data) {
    complete(data, [&](ZkReply& r) {
        r.rc = rc;
        if (stat) r.stat = *stat;
    });
}

void data_done(int rc, const char* value, int length, const Stat* stat, const void* data) {
    complete(data, [&](ZkReply& r) {
        r.rc = rc;
        if (value && length > 0) r.data.assign(value, static_cast<std::size_t>(length));
        if (stat) r.stat = *stat;
    });
}

void strings_stat_done(int rc, const String_vector* strings, const Stat* stat, const void* data) {
    complete(data, [&](ZkReply& r) {
        r.rc = rc;
        if (strings)
            for (int i = 0; i < strings->count; ++i) r.children.emplace_back(strings->data[i]);
        if (stat) r.stat = *stat;
    });
}

void string_stat_done(int rc, const char* path, const Stat* stat, const void* data) {
    complete(data, [&](ZkReply& r) {
        r.rc = rc;
        if (path) r.path = path;
        if (stat) r.stat = *stat;
    });
}

/// The session's watcher (session events) and every path watch's watcher.
void on_event(zhandle_t*, int type, int state, const char* path, void* context) {
    auto* s = static_cast<ZkSession::State*>(context);
    if (!s) return;
    {
        std::lock_guard lock(s->mutex);
        if (type == ZOO_SESSION_EVENT)
            s->session_state = state;
        else if (path)
            ++s->events[path];
    }
    s->changed.notify_all();
}

void quiet_client_log() {
    static std::once_flag once;
    std::call_once(once, [] {
        zoo_set_log_stream(stderr);  // the worker's log file; stdout is the protocol
        zoo_set_debug_level(ZOO_LOG_LEVEL_WARN);
    });
}

}  // namespace

bool zk_may_have_applied(int rc) {
    switch (rc) {
        case ZCONNECTIONLOSS:
        case ZOPERATIONTIMEOUT:
        case ZSESSIONEXPIRED:
        case ZCLOSING:
        case ZSESSIONMOVED:
        case ZSYSTEMERROR:
        case ZMARSHALLINGERROR:
        case ZRUNTIMEINCONSISTENCY:
        case ZDATAINCONSISTENCY: return true;
        default: return false;
    }
}

std::string zk_error_text(int rc) { return "zookeeper error " + std::to_string(rc) + " (" + zerror(rc) + ")"; }

ZkSession::ZkSession(const std::vector<std::string>& endpoints, std::chrono::milliseconds call_timeout)
    : call_timeout_(call_timeout) {
    quiet_client_log();
    for (const auto& e : endpoints) hosts_ += (hosts_.empty() ? "" : ",") + e;
}

ZkSession::~ZkSession() { close(); }

void ZkSession::close() {
    if (handle_) zookeeper_close(handle_);  // joins the library's threads: no callback after this
    handle_ = nullptr;
    state_.reset();
    timeout_ms_ = 0;
}

bool ZkSession::expired() const {
    if (!state_) return false;
    std::lock_guard lock(state_->mutex);
    return state_->session_state == ZOO_EXPIRED_SESSION_STATE || state_->session_state == ZOO_AUTH_FAILED_STATE;
}

std::optional<std::string> ZkSession::ensure(int timeout_ms) {
    if (handle_ && (expired() || timeout_ms != timeout_ms_)) close();
    if (!handle_) {
        state_ = std::make_unique<State>();
        handle_ = zookeeper_init(hosts_.c_str(), on_event, timeout_ms, nullptr, state_.get(), 0);
        if (!handle_) {
            state_.reset();
            return "zookeeper_init failed for " + hosts_;
        }
        timeout_ms_ = timeout_ms;
    }
    const auto deadline = std::chrono::steady_clock::now() + call_timeout_ + std::chrono::seconds(2);
    {
        std::unique_lock lock(state_->mutex);
        state_->changed.wait_until(lock, deadline, [&] {
            return state_->session_state == ZOO_CONNECTED_STATE || state_->session_state == ZOO_EXPIRED_SESSION_STATE ||
                   state_->session_state == ZOO_AUTH_FAILED_STATE;
        });
        if (state_->session_state != ZOO_CONNECTED_STATE) {
            const bool gone = state_->session_state != 0 && state_->session_state != ZOO_CONNECTING_STATE &&
                              state_->session_state != ZOO_ASSOCIATING_STATE;
            lock.unlock();
            if (gone) close();
            return "no ZooKeeper session within " + std::to_string((call_timeout_ + std::chrono::seconds(2)).count()) +
                   " ms (servers " + hosts_ + ")";
        }
    }
    const int granted = zoo_recv_timeout(handle_);
    if (granted < timeout_ms) {
        close();
        return "the servers granted a session timeout of " + std::to_string(granted) + " ms, shorter than the " +
               std::to_string(timeout_ms) + " ms asked for (maxSessionTimeout): the lease would be shorter than ttl_ms";
    }
    return std::nullopt;
}

ZkSession::Settled ZkSession::settle() {
    if (!handle_) return Settled::Expired;
    const auto deadline = std::chrono::steady_clock::now() + call_timeout_;
    for (;;) {  // bounded by the deadline
        const int state = zoo_state(handle_);
        if (state == ZOO_CONNECTED_STATE) return Settled::Connected;
        if (state == ZOO_EXPIRED_SESSION_STATE || expired()) return Settled::Expired;
        if (std::chrono::steady_clock::now() >= deadline) return Settled::Unknown;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

std::int64_t ZkSession::session_id() const {
    if (!handle_) return 0;
    const clientid_t* id = zoo_client_id(handle_);
    return id ? id->client_id : 0;
}

int ZkSession::negotiated_timeout_ms() const { return handle_ ? zoo_recv_timeout(handle_) : 0; }

template <typename Issue>
ZkReply ZkSession::call(Issue&& issue) {
    if (!handle_) return ZkReply{ZINVALIDSTATE, {}, {}, {}, {}};
    auto pending = std::make_shared<Pending>();
    auto* ref = new PendingRef(pending);
    const int rc = issue(static_cast<const void*>(ref));
    if (rc != ZOK) {  // not queued: the completion will never run
        delete ref;
        return ZkReply{rc, {}, {}, {}, {}};
    }
    std::unique_lock lock(pending->mutex);
    if (!pending->done_cv.wait_for(lock, call_timeout_, [&] { return pending->done; }))
        return ZkReply{ZOPERATIONTIMEOUT, {}, {}, {}, {}};
    return pending->reply;
}

ZkReply ZkSession::create(const std::string& path, const std::string& data, int flags) {
    return call([&](const void* d) {
        return zoo_acreate2(handle_, path.c_str(), data.data(), static_cast<int>(data.size()), &ZOO_OPEN_ACL_UNSAFE,
                            flags, string_stat_done, d);
    });
}

ZkReply ZkSession::remove(const std::string& path, int version) {
    return call([&](const void* d) { return zoo_adelete(handle_, path.c_str(), version, void_done, d); });
}

ZkReply ZkSession::get(const std::string& path) {
    return call([&](const void* d) { return zoo_aget(handle_, path.c_str(), 0, data_done, d); });
}

ZkReply ZkSession::children(const std::string& path) {
    return call([&](const void* d) { return zoo_aget_children2(handle_, path.c_str(), 0, strings_stat_done, d); });
}

ZkReply ZkSession::watch_exists(const std::string& path) {
    return call(
        [&](const void* d) { return zoo_awexists(handle_, path.c_str(), on_event, state_.get(), stat_done, d); });
}

std::uint64_t ZkSession::changes(const std::string& path) const {
    if (!state_) return 0;
    std::lock_guard lock(state_->mutex);
    const auto it = state_->events.find(path);
    return it == state_->events.end() ? 0 : it->second;
}

bool ZkSession::wait_change(const std::string& path, std::uint64_t seen,
                            std::chrono::steady_clock::time_point deadline) {
    if (!state_) return false;
    std::unique_lock lock(state_->mutex);
    return state_->changed.wait_until(lock, deadline, [&] {
        return state_->events[path] > seen || state_->session_state == ZOO_EXPIRED_SESSION_STATE;
    }) && state_->events[path] > seen;
}

}  // namespace lockcheck
