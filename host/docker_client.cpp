#include "host/docker_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "core/utf8_text.hpp"

namespace lockcheck {
namespace {

constexpr const char* kDefaultSocket = "/var/run/docker.sock";

size_t append_to_string(char* data, size_t size, size_t count, void* out) {
    static_cast<std::string*>(out)->append(data, size * count);
    return size * count;
}

/// The daemon's own message in an error reply ({"message": ...}), else the body.
std::string daemon_message(const std::string& body) {
    const auto json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_object() && json.contains("message") && json["message"].is_string())
        return json["message"].get<std::string>();
    std::string line = body.substr(0, body.find('\n'));
    return line.empty() ? "(no message)" : line;
}

/// A URL-encoded query value.
std::string encoded(const std::string& text) {
    std::unique_ptr<char, decltype(&curl_free)> escaped(
        curl_easy_escape(nullptr, text.c_str(), static_cast<int>(text.size())), curl_free);
    return escaped ? std::string(escaped.get()) : text;
}

/// ?filters={"label":["KEY=VALUE"]} (or just KEY when value is empty).
std::string label_filter(const std::string& key, const std::string& value) {
    const nlohmann::json filters{{"label", {value.empty() ? key : key + "=" + value}}};
    return "filters=" + encoded(filters.dump());
}

/// A listing's body (a JSON array); throws DockerError "WHAT: ..." for any
/// other answer, so a broken daemon is not read as one with nothing to list.
nlohmann::json json_array_reply(const std::string& body, const std::string& what) {
    const auto json = nlohmann::json::parse(body, nullptr, false);
    if (!json.is_array())
        throw DockerError(what + ": the Docker daemon answered with no JSON array: " + printable_excerpt(body), 200);
    return json;
}

std::vector<std::string> ids_of(const std::string& body, const char* field, const std::string& what) {
    std::vector<std::string> ids;
    const auto json = json_array_reply(body, what);
    for (const auto& item : json)
        if (item.contains(field) && item[field].is_string()) ids.push_back(item[field].get<std::string>());
    return ids;
}

}  // namespace

std::filesystem::path docker_socket_path() {
    const char* host = std::getenv("DOCKER_HOST");
    if (!host || !*host) return kDefaultSocket;
    const std::string text = host;
    const std::string scheme = "unix://";
    if (text.rfind(scheme, 0) != 0)
        throw DockerError(
            "docker runtime: DOCKER_HOST=" + text + " is not a unix:// socket (the only kind lockcheck speaks)", 0);
    return text.substr(scheme.size());
}

DockerClient::DockerClient() : socket_(docker_socket_path()) {}

DockerClient::DockerClient(std::filesystem::path socket) : socket_(std::move(socket)) {}

DockerClient::Reply DockerClient::request(const std::string& method, const std::string& path, const std::string& body,
                                          std::chrono::seconds timeout, const std::string& content_type,
                                          const std::filesystem::path& body_file) const {
    std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
    if (!curl) throw DockerError("docker runtime: cannot make a curl handle", 0);
    Reply reply;
    const std::string url = "http://localhost/v1.41" + path;
    curl_easy_setopt(curl.get(), CURLOPT_UNIX_SOCKET_PATH, socket_.c_str());
    curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl.get(), CURLOPT_CUSTOMREQUEST, method.c_str());
    curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl.get(), CURLOPT_CONNECTTIMEOUT_MS, 2000L);
    curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count() * 1000));
    curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, append_to_string);
    curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &reply.body);
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(nullptr, curl_slist_free_all);
    if (method == "POST" || method == "PUT") {
        headers.reset(curl_slist_append(nullptr, ("Content-Type: " + content_type).c_str()));
        curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, headers.get());
        if (body_file.empty()) {
            curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDS, body.data());
            curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
        }
    }
    std::unique_ptr<std::FILE, decltype(&std::fclose)> file(nullptr, std::fclose);
    if (!body_file.empty()) {
        file.reset(std::fopen(body_file.c_str(), "rb"));
        std::error_code ec;
        const auto size = std::filesystem::file_size(body_file, ec);
        if (!file || ec) throw DockerError("cannot read " + body_file.string(), 0);
        curl_easy_setopt(curl.get(), CURLOPT_POST, 1L);
        curl_easy_setopt(curl.get(), CURLOPT_READFUNCTION, std::fread);
        curl_easy_setopt(curl.get(), CURLOPT_READDATA, file.get());
        curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(size));
    }
    const CURLcode code = curl_easy_perform(curl.get());
    if (code != CURLE_OK)
        throw DockerError(
            "docker runtime: no Docker daemon at unix://" + socket_.string() + ": " + curl_easy_strerror(code), 0);
    curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &reply.status);
    return reply;
}

DockerClient::Reply DockerClient::expect(const std::string& what, const std::string& method, const std::string& path,
                                         const std::string& body, std::chrono::seconds timeout,
                                         std::vector<long> also_fine) const {
    Reply reply = request(method, path, body, timeout);
    const bool fine = (reply.status >= 200 && reply.status < 300) ||
                      std::find(also_fine.begin(), also_fine.end(), reply.status) != also_fine.end();
    if (!fine) throw DockerError(what + ": " + daemon_message(reply.body), reply.status);
    return reply;
}

void DockerClient::ping() const { request("GET", "/_ping", "", std::chrono::seconds(5)); }

bool DockerClient::answers() const {
    try {
        ping();
        return true;
    } catch (const DockerError&) {
        return false;
    }
}

std::string DockerClient::create_container(const std::string& name, const nlohmann::json& config) const {
    const auto reply =
        expect("cannot create container " + name, "POST", "/containers/create?name=" + encoded(name), config.dump());
    return nlohmann::json::parse(reply.body).at("Id").get<std::string>();
}

void DockerClient::start_container(const std::string& id) const {
    expect("cannot start container " + id.substr(0, 12), "POST", "/containers/" + id + "/start", "",
           std::chrono::seconds(30), {304});
}

void DockerClient::stop_container(const std::string& id, std::chrono::milliseconds grace) const {
    const auto seconds = (grace.count() + 999) / 1000;
    expect("cannot stop container " + id.substr(0, 12), "POST",
           "/containers/" + id + "/stop?t=" + std::to_string(seconds), "", std::chrono::seconds(seconds + 30), {304});
}

void DockerClient::kill_container(const std::string& id) const {
    // 409: it does not run (any more).
    expect("cannot kill container " + id.substr(0, 12), "POST", "/containers/" + id + "/kill?signal=KILL", "",
           std::chrono::seconds(30), {409});
    expect("cannot wait for container " + id.substr(0, 12), "POST", "/containers/" + id + "/wait?condition=not-running",
           "", std::chrono::seconds(30));
}

void DockerClient::pause_container(const std::string& id) const {
    expect("cannot pause container " + id.substr(0, 12), "POST", "/containers/" + id + "/pause");
}

void DockerClient::unpause_container(const std::string& id) const {
    expect("cannot unpause container " + id.substr(0, 12), "POST", "/containers/" + id + "/unpause");
}

nlohmann::json DockerClient::inspect_container(const std::string& id) const {
    return nlohmann::json::parse(
        expect("cannot inspect container " + id.substr(0, 12), "GET", "/containers/" + id + "/json").body);
}

void DockerClient::remove_container(const std::string& id) const {
    expect("cannot remove container " + id.substr(0, 12), "DELETE", "/containers/" + id + "?force=true&v=true", "",
           std::chrono::seconds(30), {404});
}

std::vector<std::string> DockerClient::containers_labelled(const std::string& key, const std::string& value) const {
    return ids_of(expect("cannot list containers", "GET", "/containers/json?all=true&" + label_filter(key, value)).body,
                  "Id", "cannot list containers");
}

std::vector<std::string> DockerClient::label_values(const std::string& key) const {
    std::vector<std::string> values;
    for (const char* kind : {"/containers/json?all=true&", "/networks?"}) {
        const std::string what = "cannot list what carries label " + key;
        const auto json = json_array_reply(expect(what, "GET", kind + label_filter(key, "")).body, what);
        for (const auto& item : json)
            if (item.contains("Labels") && item["Labels"].is_object() && item["Labels"].contains(key))
                values.push_back(item["Labels"][key].get<std::string>());
    }
    return values;
}

std::string DockerClient::create_network(const std::string& name, const std::string& subnet, const std::string& gateway,
                                         const std::map<std::string, std::string>& labels) const {
    const nlohmann::json config{{"Name", name},
                                {"Driver", "bridge"},
                                {"CheckDuplicate", true},
                                {"Labels", labels},
                                {"IPAM", {{"Config", {{{"Subnet", subnet}, {"Gateway", gateway}}}}}}};
    const auto reply = expect("cannot create network " + name, "POST", "/networks/create", config.dump());
    return nlohmann::json::parse(reply.body).at("Id").get<std::string>();
}

void DockerClient::remove_network(const std::string& id) const {
    expect("cannot remove network " + id.substr(0, 12), "DELETE", "/networks/" + id, "", std::chrono::seconds(30),
           {404});
}

std::vector<std::string> DockerClient::networks_labelled(const std::string& key, const std::string& value) const {
    return ids_of(expect("cannot list networks", "GET", "/networks?" + label_filter(key, value)).body, "Id",
                  "cannot list networks");
}

bool DockerClient::has_image(const std::string& reference) const {
    const auto reply = request("GET", "/images/" + encoded(reference) + "/json", "", std::chrono::seconds(30));
    if (reply.status == 200) return true;
    if (reply.status == 404) return false;
    throw DockerError("cannot look up image " + reference + ": " + daemon_message(reply.body), reply.status);
}

void DockerClient::import_image(const std::filesystem::path& tar, const std::string& repository, const std::string& tag,
                                const std::vector<std::string>& changes) const {
    std::string query;
    for (const auto& change : changes) query += "&changes=" + encoded(change);
    // An image of a host's servers is some hundred MB: minutes on a loaded machine.
    const auto reply =
        request("POST", "/images/create?fromSrc=-&repo=" + encoded(repository) + "&tag=" + encoded(tag) + query, "",
                std::chrono::seconds(900), "application/x-tar", tar);
    if (reply.status != 200)
        throw DockerError("cannot import image " + repository + ":" + tag + ": " + daemon_message(reply.body),
                          reply.status);
    // Errors during the import arrive in the streamed progress, status 200;
    // its last status is the new image's id.
    std::string image_id;
    std::istringstream progress(reply.body);
    for (std::string line; std::getline(progress, line);) {
        const auto json = nlohmann::json::parse(line, nullptr, false);
        if (!json.is_object()) continue;
        if (json.contains("error"))
            throw DockerError("cannot import image " + repository + ":" + tag + ": " + json["error"].dump(), 0);
        if (const auto status = json.find("status");
            status != json.end() && status->is_string() && status->get<std::string>().starts_with("sha256:"))
            image_id = status->get<std::string>();
    }
    // Podman's import ignores `tag` (it names the image repository:latest),
    // so the tag is set again by the image's id.
    if (!image_id.empty())
        expect("cannot tag image " + image_id.substr(0, 19) + " as " + repository + ":" + tag, "POST",
               "/images/" + encoded(image_id) + "/tag?repo=" + encoded(repository) + "&tag=" + encoded(tag), "",
               std::chrono::seconds(30));
}

void DockerClient::remove_image(const std::string& reference) const {
    expect("cannot remove image " + reference, "DELETE", "/images/" + encoded(reference) + "?force=true", "",
           std::chrono::seconds(60), {404});
}

std::vector<std::string> DockerClient::images_labelled(const std::string& key) const {
    std::vector<std::string> names;
    const auto json = json_array_reply(
        expect("cannot list images", "GET", "/images/json?" + label_filter(key, "")).body, "cannot list images");
    for (const auto& image : json)
        if (image.contains("RepoTags") && image["RepoTags"].is_array())
            for (const auto& tag : image["RepoTags"]) names.push_back(tag.get<std::string>());
    return names;
}

}  // namespace lockcheck
