// The Docker client without a daemon: where it looks for the socket
// (DOCKER_HOST), and the one line it gives when no daemon answers.
#include <gtest/gtest.h>
#include <stdlib.h>

#include "host/docker_client.hpp"

using namespace lockcheck;

namespace {

/// Sets DOCKER_HOST (unset for nullptr) for one test, restoring it afterwards.
class DockerHost {
public:
    explicit DockerHost(const char* value) {
        if (const char* old = ::getenv("DOCKER_HOST")) old_ = old;
        value ? ::setenv("DOCKER_HOST", value, 1) : ::unsetenv("DOCKER_HOST");
    }
    ~DockerHost() { old_.empty() ? ::unsetenv("DOCKER_HOST") : ::setenv("DOCKER_HOST", old_.c_str(), 1); }

private:
    std::string old_;
};

}  // namespace

TEST(DockerClient, TheSocketIsDockerHostsUnixPathElseTheDefault) {
    {
        const DockerHost host(nullptr);
        EXPECT_EQ(docker_socket_path(), "/var/run/docker.sock");
    }
    {
        const DockerHost host("unix:///tmp/lockcheck-dockerd/docker.sock");
        EXPECT_EQ(docker_socket_path(), "/tmp/lockcheck-dockerd/docker.sock");
    }
    {
        const DockerHost host("tcp://10.0.0.1:2375");
        try {
            docker_socket_path();
            ADD_FAILURE() << "a tcp:// DOCKER_HOST was taken";
        } catch (const DockerError& e) {
            EXPECT_STREQ(e.what(),
                         "docker runtime: DOCKER_HOST=tcp://10.0.0.1:2375 is not a unix:// socket (the only kind "
                         "lockcheck speaks)");
        }
    }
}

TEST(DockerClient, NoDaemonIsOneLineNamingTheSocket) {
    const DockerClient absent("/nonexistent/lockcheck/docker.sock");
    EXPECT_FALSE(absent.answers());
    try {
        absent.ping();
        ADD_FAILURE() << "no daemon answered, yet ping passed";
    } catch (const DockerError& e) {
        const std::string message = e.what();
        EXPECT_EQ(message.rfind("docker runtime: no Docker daemon at unix:///nonexistent/lockcheck/docker.sock: ", 0),
                  0U)
            << message;
        EXPECT_EQ(message.find('\n'), std::string::npos);
        EXPECT_EQ(e.status(), 0);
    }
    EXPECT_THROW(absent.containers_labelled(kDockerRunLabel, "x"), DockerError);
}
