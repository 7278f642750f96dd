// A Docker daemon that answers HTTP 200 with a body that is no JSON (issue
// 41, defect 12): every listing refuses it in one line naming what was
// asked, instead of reading it as a daemon with nothing to list (`lockcheck
// images` printed nothing and exited 0). The daemon is a stand-in thread on a
// unix socket of the test's own.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>

#include "clusters/runtimes/docker_host_image.hpp"
#include "host/docker_client.hpp"
#include "tests/support/scratch_dir.hpp"

using namespace lockcheck;

namespace {

/// Answers every request on `socket_path` with 200 and `body`, until destroyed.
class BrokenDaemon {
public:
    BrokenDaemon(const std::string& socket_path, std::string body) : body_(std::move(body)) {
        listener_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::strncpy(address.sun_path, socket_path.c_str(), sizeof(address.sun_path) - 1);
        if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
            ::listen(listener_, 8) != 0)
            throw std::runtime_error("cannot listen on " + socket_path);
        thread_ = std::thread([this] { serve(); });
    }
    ~BrokenDaemon() {
        ::shutdown(listener_, SHUT_RDWR);  // ends the accept in progress
        thread_.join();
        ::close(listener_);
    }
    BrokenDaemon(const BrokenDaemon&) = delete;
    BrokenDaemon& operator=(const BrokenDaemon&) = delete;

private:
    void serve() {
        for (;;) {
            const int connection = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
            if (connection < 0) return;
            std::string request;
            char buffer[4096];
            while (request.find("\r\n\r\n") == std::string::npos) {
                const ssize_t n = ::read(connection, buffer, sizeof(buffer));
                if (n <= 0) break;
                request.append(buffer, static_cast<std::size_t>(n));
            }
            const std::string reply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                                      std::to_string(body_.size()) + "\r\nConnection: close\r\n\r\n" + body_;
            [[maybe_unused]] const ssize_t written = ::write(connection, reply.data(), reply.size());
            ::close(connection);
        }
    }

    std::string body_;
    int listener_ = -1;
    std::thread thread_;
};

}  // namespace

TEST(DockerBrokenDaemon, ListingsRefuseABodyThatIsNoJsonArray) {
    const lockcheck::testing::ScratchDir dir("broken-dockerd");
    const auto socket = (dir.path() / "docker.sock").string();
    for (const std::string body : {"{\"Id\": [tru", "<html>busy</html>", "{\"message\": \"not a list\"}"}) {
        const BrokenDaemon daemon(socket, body);
        const DockerClient docker(socket);
        try {
            docker.images_labelled(kDockerImageLabel);
            ADD_FAILURE() << "images listed from " << body;
        } catch (const DockerError& e) {
            const std::string message = e.what();
            EXPECT_EQ(message.rfind("cannot list images: the Docker daemon answered with no JSON array: ", 0), 0u)
                << message;
            EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        }
        EXPECT_THROW(docker.containers_labelled(kDockerRunLabel, "x"), DockerError);
        EXPECT_THROW(docker.networks_labelled(kDockerRunLabel, "x"), DockerError);
        EXPECT_THROW(docker.label_values(kDockerRunLabel), DockerError);
        ::unlink(socket.c_str());
    }
}
