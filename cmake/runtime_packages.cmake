# The Debian packages whose programs a run starts: the servers and the tools.
# The .deb depends on them (cmake/packaging.cmake), and the image of lockcheck
# itself holds them and what they depend on (clusters/runtimes/docker_lockcheck_image.hpp).
set(LOCKCHECK_RUNTIME_PACKAGES
    "redis-server, redis-sentinel, mariadb-server, zookeeper, default-jre-headless, etcd-server, iproute2, iptables, procps, util-linux, fuse3")
