// libFuzzer target: the worker protocol decoder, as the controller reads a
// worker's lines and a worker reads the controller's. Any line must decode or
// raise a ProtocolError, never crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "recipes/protocol.hpp"

namespace {

template <typename Decode>
void attempt(Decode decode, const std::string& line) {
    try {
        decode(line);
    } catch (const lockcheck::ProtocolError&) {}
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string line(reinterpret_cast<const char*>(data), size);
    attempt([](const std::string& l) { return lockcheck::decode_reply(l); }, line);
    attempt([](const std::string& l) { return lockcheck::decode_request(l); }, line);
    attempt([](const std::string& l) { return lockcheck::decode_init(l); }, line);
    attempt([](const std::string& l) { return lockcheck::decode_hello(l); }, line);
    return 0;
}
