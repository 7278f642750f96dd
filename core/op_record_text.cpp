#include "core/op_record_text.hpp"

#include "core/json_writer.hpp"

namespace lockcheck {

// The fields in the order nlohmann's std::map keeps them (by name), as
// op_to_json sets them.
void append_op_record(std::string& out, const Op& op) {
    const auto text_field = [&out](std::string_view name, std::string_view text) {
        append_json_name(out, name);
        append_json_string(out, text);
        out.push_back(',');
    };
    const auto integer_field = [&out](std::string_view name, std::int64_t number) {
        append_json_name(out, name);
        append_json_integer(out, number);
        out.push_back(',');
    };
    out.push_back('{');
    if (op.error) text_field("error", *op.error);
    text_field("f", op.f.view());
    integer_field("index", op.index);
    if (!op.key.view().empty()) text_field("key", op.key.view());
    if (op.node) text_field("node", *op.node);
    if (op.owner) text_field("owner", *op.owner);
    if (op.is_nemesis())
        text_field("process", "nemesis");
    else
        integer_field("process", op.process);
    if (op.resource) text_field("resource", *op.resource);
    integer_field("time", op.time);
    if (op.token) integer_field("token", *op.token);
    if (op.ttl_ms) integer_field("ttl_ms", *op.ttl_ms);
    text_field("type", to_string(op.type));
    if (!op.value.is_null()) {
        append_json_name(out, "value");
        append_json_value(out, op.value);
        out.push_back(',');
    }
    out.back() = '}';
}

}  // namespace lockcheck
