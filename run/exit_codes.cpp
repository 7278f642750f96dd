#include "run/exit_codes.hpp"

#include <CLI/Error.hpp>

#include <cstdio>

#include "core/history.hpp"
#include "spec/spec.hpp"

namespace lockcheck {
namespace {

int print_failure(int code, const char* what, const char* hint = "") {
    std::fprintf(stderr, "lockcheck: error: %s%s\n", what, hint);
    return code;
}

}  // namespace

int report_failure(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const CLI::ParseError& e) {
        return print_failure(exit_code::kBadInput, e.what(), " (see lockcheck --help)");
    } catch (const SpecError& e) {
        return print_failure(exit_code::kBadInput, e.what());
    } catch (const HistoryError& e) {
        return print_failure(exit_code::kBadInput, e.what());
    } catch (const std::exception& e) {
        return print_failure(exit_code::kHarnessError, e.what());
    }
}

}  // namespace lockcheck
