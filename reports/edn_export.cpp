#include "reports/edn_export.hpp"

#include <cctype>
#include <cstdio>

namespace lockcheck {
namespace {

bool is_keyword(const std::string& s) {
    if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) &&
            std::string_view("-_.?!*+").find(c) == std::string_view::npos)
            return false;
    return true;
}

void string_literal(std::string_view s, std::string& out) {
    out += '"';
    for (char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

void json_to_edn(const nlohmann::json& j, std::string& out) {
    switch (j.type()) {
        case nlohmann::json::value_t::null: out += "nil"; break;
        case nlohmann::json::value_t::string: string_literal(j.get_ref<const std::string&>(), out); break;
        case nlohmann::json::value_t::array: {
            out += '[';
            bool first = true;
            for (const auto& e : j) {
                if (!first) out += ' ';
                first = false;
                json_to_edn(e, out);
            }
            out += ']';
            break;
        }
        case nlohmann::json::value_t::object: {
            out += '{';
            bool first = true;
            for (const auto& [k, v] : j.items()) {
                if (!first) out += ", ";
                first = false;
                if (is_keyword(k))
                    out += ':' + k;
                else
                    string_literal(k, out);
                out += ' ';
                json_to_edn(v, out);
            }
            out += '}';
            break;
        }
        default: out += j.dump(); break;  // numbers and booleans read the same in EDN
    }
}

void name(const std::string& s, std::string& out) {
    if (is_keyword(s))
        out += ':' + s;
    else
        string_literal(s, out);
}

void value(const Op& op, std::string& out) {
    const bool lock_op = op.f == fn::kAcquire || op.f == fn::kRelease || op.f == fn::kRenew;
    if (op.is_nemesis() || (op.key.empty() && !lock_op)) {
        json_to_edn(op.value, out);
        return;
    }
    out += '[';
    string_literal(op.key, out);
    out += ' ';
    if (lock_op) {
        if (op.owner)
            string_literal(*op.owner, out);
        else
            out += "nil";
    } else {
        json_to_edn(op.value, out);
    }
    out += ']';
}

}  // namespace

std::string op_to_edn(const Op& op) {
    std::string out = "{:index " + std::to_string(op.index) + ", :time " + std::to_string(op.time) + ", :type :";
    out += to_string(op.type);
    out += ", :process ";
    out += op.is_nemesis() ? ":nemesis" : std::to_string(op.process);
    out += ", :f ";
    name(op.f, out);
    out += ", :value ";
    value(op, out);
    if (op.token) out += ", :token " + std::to_string(*op.token);
    if (op.error) {
        out += ", :error ";
        name(*op.error, out);
    }
    if (op.node) {
        out += ", :node ";
        string_literal(*op.node, out);
    }
    if (op.ttl_ms) out += ", :ttl-ms " + std::to_string(*op.ttl_ms);
    if (op.owner) {
        out += ", :owner ";
        string_literal(*op.owner, out);
    }
    out += '}';
    return out;
}

void write_edn(const History& history, std::ostream& out) {
    for (const Op& op : history) out << op_to_edn(op) << '\n';
}

}  // namespace lockcheck
