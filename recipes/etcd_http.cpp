#include "recipes/etcd_http.hpp"

#include <curl/curl.h>

#include <mutex>
#include <stdexcept>

namespace lockcheck {
namespace {

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* out) {
    static_cast<std::string*>(out)->append(data, size * count);
    return size * count;
}

void global_init_once() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

}  // namespace

struct EtcdHttp::Handle {
    CURL* easy = nullptr;
    curl_slist* headers = nullptr;

    Handle() {
        global_init_once();
        easy = curl_easy_init();
        if (!easy) throw std::runtime_error("libcurl could not make a handle");
        headers = curl_slist_append(nullptr, "Content-Type: application/json");
        headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip
    }
    ~Handle() {
        curl_slist_free_all(headers);
        curl_easy_cleanup(easy);
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
};

EtcdHttp::EtcdHttp(std::vector<std::string> endpoints, std::chrono::milliseconds timeout)
    : endpoints_(std::move(endpoints)), timeout_(timeout) {
    if (endpoints_.empty()) throw std::invalid_argument("etcd client needs at least one endpoint");
    handle_ = std::make_unique<Handle>();
}

EtcdHttp::~EtcdHttp() = default;

EtcdResponse EtcdHttp::post(const std::string& path, const nlohmann::json& body) {
    const std::string text = body.dump();
    EtcdResponse last;
    for (std::size_t tried = 0; tried < endpoints_.size(); ++tried) {
        const std::string& endpoint = endpoints_[current_];
        last = post_to(endpoint, path, text);
        if (last.kind == EtcdResponse::Kind::Reply) return last;
        const bool member_unwell = last.kind != EtcdResponse::Kind::ErrorReply || !etcd_error_is_definite(last.code);
        if (member_unwell) current_ = (current_ + 1) % endpoints_.size();  // e.g. "no leader": try another next time
        if (last.kind != EtcdResponse::Kind::NotSent) return last;         // only an unsent request may go elsewhere
    }
    return last;
}

EtcdResponse EtcdHttp::post_to(const std::string& endpoint, const std::string& path, const std::string& body) {
    CURL* easy = handle_->easy;
    std::string reply;
    const std::string url = "http://" + endpoint + path;
    const long timeout_ms = static_cast<long>(timeout_.count());
    curl_easy_setopt(easy, CURLOPT_URL, url.c_str());
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, handle_->headers);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_PROXY, "");  // never through an http_proxy of the environment
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &reply);

    const CURLcode code = curl_easy_perform(easy);
    EtcdResponse r;
    if (code == CURLE_OK) {
        long status = 0;
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
        return etcd_response_from_http(status, reply, endpoint);
    }
    long sent = 0;  // bytes of request issued: 0 means the request never left
    curl_easy_getinfo(easy, CURLINFO_REQUEST_SIZE, &sent);
    const bool not_sent = code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_HOST || sent == 0;
    r.kind = not_sent ? EtcdResponse::Kind::NotSent : EtcdResponse::Kind::Unknown;
    r.error =
        std::string(not_sent ? "could not reach " : "no answer from ") + endpoint + ": " + curl_easy_strerror(code);
    return r;
}

}  // namespace lockcheck
